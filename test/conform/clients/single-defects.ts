// The single-defect clients: one flow, one defect each, in two languages. The JavaScript one is the
// defective client (defective.mjs) run in-process; the Python one, for the defects that run in Python too
// (the one that meets the most variant cases, and the one the default run passes), is the Python example
// with a line or two changed (a copy, run forked from one interpreter). Each defect is a defect under any service: the kit
// fails it by its own rules, once, and the variant cases that repeat a visit it failed say so.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { withEdits } from '../../support/edits.js'

export const PYTHON_EXAMPLE = 'examples/clients/python/client.py'

export interface SingleDefect {
  /** What the client gets wrong. */
  defect: string
  /** The defective client's defects (joined by `+`: one per flow where it has one for each). */
  js: string
  /** The changes to the Python example that plant it, [from, to], for the defects that run in Python too. */
  python?: Array<[from: string, to: string]>
}

export const SINGLE_DEFECTS: SingleDefect[] = [
  {
    defect: 'the amount as a string',
    js: 'amount-string+simple-amount-string',
    python: [
      ['"amount": {"amount": AMOUNT,', '"amount": {"amount": str(AMOUNT),'],
      ['"payment": {"amount": AMOUNT,', '"payment": {"amount": str(AMOUNT),'],
    ],
  },
  {
    defect: 'ISO timestamps',
    js: 'iso-timestamps',
  },
  {
    defect: 'a JSON body without Content-Type',
    js: 'no-content-type',
  },
  {
    defect: 'exit 1 on a refusal',
    js: 'simple-exit-1-when-refused',
  },
  {
    defect: 'a POST retried after a 500',
    js: 'resend-payment',
  },
  {
    defect: 'going on after an unknown owner',
    js: 'continue-unknown-owner',
  },
  {
    defect: 'errors read as lost answers',
    js: 'refusal-as-lost',
  },
  {
    defect: '`rejected` for a lost payment answer',
    js: 'rejected-when-unknown',
    python: [['return Finished("unknown", message=', 'return Finished("rejected", message=']],
  },
]

/** The Python example with the defect planted, written into `dir`; fails loudly if a line is no longer there. */
export async function pythonWith(defect: SingleDefect, dir: string): Promise<string> {
  const file = join(dir, `${defect.js}.py`)
  await writeFile(
    file,
    withEdits(PYTHON_EXAMPLE, await readFile(PYTHON_EXAMPLE, 'utf8'), defect.defect, defect.python ?? []),
  )
  return file
}
