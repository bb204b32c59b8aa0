// The single-defect clients: one flow, one defect each, in two languages. The JavaScript one is the
// defective client (defective.mjs) run in-process; the Python one is the Python example with a line or two
// changed (a copy, run forked from one interpreter). Each defect is a defect under any service: the kit
// fails it by its own rules, once, and the variant cases that repeat a visit it failed say so.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const PYTHON_EXAMPLE = 'examples/clients/python/client.py'

export interface SingleDefect {
  /** What the client gets wrong. */
  defect: string
  /** The defective client's defects (joined by `+`: one per flow where it has one for each). */
  js: string
  /** The changes to the Python example that plant it: [from, to]. */
  python: Array<[from: string, to: string]>
}

const PYTHON_REFUSED_EXIT = `                json.dump(result, out)`

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
    python: [
      ['"startedOn": VISIT_START,', '"startedOn": VISIT_START.replace(" ", "T"),'],
      ['"endedOn": VISIT_END,', '"endedOn": VISIT_END.replace(" ", "T"),'],
    ],
  },
  {
    defect: 'a JSON body without Content-Type',
    js: 'no-content-type',
    python: [['headers["Content-Type"] = "application/json"', 'pass']],
  },
  {
    defect: 'exit 1 on a refusal',
    js: 'simple-exit-1-when-refused',
    python: [
      [
        PYTHON_REFUSED_EXIT,
        `${PYTHON_REFUSED_EXIT}\n        if done.outcome == "rejected" and FLOW == "simple":\n            sys.exit(1)`,
      ],
    ],
  },
  {
    defect: 'a POST retried after a 500',
    js: 'resend-payment',
    python: [['status_forcelist={408, 429, 503},', 'status_forcelist={408, 429, 500, 503},']],
  },
  {
    defect: 'going on after an unknown owner',
    js: 'continue-unknown-owner',
    python: [
      [
        '    if not companies:\n        raise Finished("skipped"',
        '    if not companies and False:\n        raise Finished("skipped"',
      ],
      [
        'company_id = require_id("rental company lookup", companies[0])',
        'company_id = require_id("rental company lookup", companies[0]) if companies else None',
      ],
    ],
  },
  {
    defect: 'errors read as lost answers',
    js: 'refusal-as-lost',
    python: [
      [
        'return self.lost is not None or self.status in (500, 502, 504)',
        'return self.lost is not None or self.status >= 400',
      ],
    ],
  },
  {
    defect: '`rejected` for a lost payment answer',
    js: 'rejected-when-unknown',
    python: [['return Finished("unknown", message=', 'return Finished("rejected", message=']],
  },
]

/** The Python example with the defect planted, written into `dir`; fails loudly if a line is no longer there. */
export async function pythonWith(defect: SingleDefect, dir: string): Promise<string> {
  let source = await readFile(PYTHON_EXAMPLE, 'utf8')
  for (const [from, to] of defect.python) {
    if (!source.includes(from))
      throw new Error(
        `The example ${PYTHON_EXAMPLE} no longer contains ${JSON.stringify(from)}: update the defect "${defect.defect}".`,
      )
    source = source.replace(from, to)
  }
  const file = join(dir, `${defect.js}.py`)
  await writeFile(file, source)
  return file
}
