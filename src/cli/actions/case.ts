// `relay-mock case <id>`'s work, loaded only when the command runs: the case runs as conform runs it
// (same scenario, faults, visit, listener and rules), but its "client" is a person: relay-mock prints
// the environment, waits for Enter (or, with --once or no terminal on standard input, for the visit to be
// complete), then judges the requests and the result file with the console reporter's case output.
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import pc from 'picocolors'
import { cases as builtInCases } from '../../../suites/index.js'
import { RelayMockError } from '../../core/errors.js'
import { nearest } from '../../core/text.js'
import { toClientReport } from '../../core/rules/report.js'
import { caseStatus, countCases } from '../../core/rules/verdict.js'
import type { Check, Reporter, RunResult } from '../../core/rules/types.js'
import { VISIT_DEFAULTS } from '../../devtools/live/visits.js'
import { createConsoleReporter } from '../../node/reporters/console.js'
import { runConformance } from '../../node/runner/runner.js'
import type { ClientFunction, RelayEnv } from '../../node/runner/contract.js'
import { loadCases } from '../../node/files/user-cases.js'

export interface CaseArgs {
  id: string
  port: number
  host: string
  cases?: string
  writeEnv: string
  once: boolean
  seed?: number
}

/** The first line of an env file relay-mock writes: it overwrites only files that start with it. */
const ENV_FILE_MARK = '# relay-mock case'
/** How often --once looks for the result file and the end of the requests. */
const POLL_MS = 100
/** Long enough for a person; a timer cannot wait longer than 2^31-1 ms. */
const BY_HAND_TIMEOUT_MS = 2 ** 31 - 1

/**
 * Serves one case for a client run by hand and prints its verdict; resolves with the exit code.
 * @example await runCaseByHand({ id: 'simple/accepted', port: 4010, host: '127.0.0.1', writeEnv: '.env', once: false })
 */
export async function runCaseByHand(args: CaseArgs): Promise<number> {
  const own = args.cases ? await loadCases(args.cases) : undefined
  const suite = [...builtInCases, ...(own?.cases ?? [])]
  const kase = suite.find((k) => k.id === args.id)
  if (!kase) {
    throw new RelayMockError(
      'CASE_NOT_FOUND',
      `Failed to find the case "${args.id}"; the nearest: ${nearest(
        args.id,
        suite.map((k) => k.id),
      ).join(', ')}. Please pass one of the case ids${args.cases ? '' : ' (or --cases FILE to add your own)'}.`,
    )
  }
  const envFile = resolve(args.writeEnv)
  await refuseForeignFile(envFile, args.writeEnv)

  // Started from a script (stdin closed, a pipe, /dev/null) nobody presses Enter, and the end of its input
  // says nothing about the client: the verdict waits for the visit, as with --once.
  const noTerminal = !args.once && !process.stdin.isTTY
  const once = args.once || noTerminal
  const requests = { count: 0, lastAt: 0 }
  const tracker: Reporter = {
    onRequest() {
      requests.count += 1
      requests.lastAt = performance.now()
    },
  }
  const byHand: ClientFunction = async (_visit, env, { signal }) => {
    await writeFile(envFile, toEnvFile(kase.id, env))
    const lines = [
      '',
      `${pc.bold('relay-mock case')} ${kase.id} ${pc.dim(`· ${kase.title} (scenario ${kase.scenario}, flow ${kase.flow})`)}`,
      '',
      `Serving this case's world at ${pc.cyan(env.RELAY_BASE_URL)}. Your client's environment:`,
      '',
      ...Object.entries(asStrings(env)).map(([name, value]) => `export ${name}=${shellQuote(value)}`),
      '',
      `Written to ${envFile} ${pc.dim(`(in a shell: set -a; . ${args.writeEnv}; set +a)`)}`,
      '',
      once
        ? `Run your client now. The verdict comes when its visit is complete: when it writes RELAY_RESULT_FILE, or ${VISIT_DEFAULTS.quietMs / 1000} s after its last request${noTerminal ? ` ${pc.dim('(as with --once: standard input is not a terminal, so nobody can press Enter)')}` : ''}.`
        : 'Run your client now, then press Enter for the verdict.',
      '',
    ]
    console.log(lines.join('\n'))
    await (once ? visitComplete(env.RELAY_RESULT_FILE, requests, signal) : enterPressed(signal))
    // Nothing returned: the runner reads RELAY_RESULT_FILE, as for a command.
    return undefined
  }

  const result = await runConformance({
    client: byHand,
    name: 'your client, run by hand',
    suite,
    cases: [kase.id],
    ...(own ? { scenarios: own.scenarios } : {}),
    port: args.port,
    host: args.host,
    jobs: 1,
    timeoutMs: BY_HAND_TIMEOUT_MS,
    seed: args.seed,
    reporters: [tracker],
  })
  const judged = withoutExitStatus(result)
  const reporter = createConsoleReporter()
  for (const kaseResult of judged.cases) await reporter.onCaseEnd?.(kaseResult)
  await reporter.onRunEnd?.(judged)
  return judged.summary.conformant ? 0 : 1
}

/**
 * A client run by hand has no exit status relay-mock could see: client.completes is not checked, saying
 * so, rather than passed on a made-up 0. The case is then partial at best, which this command accepts
 * (it exits 1 only for a rule broken): `conform` sees the exit status.
 */
function withoutExitStatus(result: RunResult): RunResult {
  const cases = result.cases.map((kase) => {
    const checks = kase.checks.map((check): Check =>
      check.rule === 'client.completes'
        ? {
            rule: check.rule,
            status: 'not-checked',
            missing: ['client'],
            message:
              'Not checked: the client ran by hand, so relay-mock did not see its exit status (relay-mock conform checks it).',
          }
        : check,
    )
    return { ...kase, checks, status: caseStatus(checks) }
  })
  return { cases, summary: { ...result.summary, ...countCases(cases, { allowPartial: true }) } }
}

/** Resolves when the client wrote a report to the result file, or sent a request and then none for the live page's quiet time. */
function visitComplete(
  resultFile: string,
  requests: { count: number; lastAt: number },
  signal: AbortSignal,
): Promise<void> {
  return new Promise((done) => {
    let busy = false
    const look = async () => {
      if (busy) return
      busy = true
      const text = await readFile(resultFile, 'utf8').catch(() => undefined)
      // A file half written does not parse yet: look again next time.
      const reported = text !== undefined && 'report' in toClientReport(text)
      const quiet = requests.count > 0 && performance.now() - requests.lastAt >= VISIT_DEFAULTS.quietMs
      busy = false
      if (reported || quiet || signal.aborted) {
        clearInterval(timer)
        done()
      }
    }
    const timer = setInterval(() => void look(), POLL_MS)
  })
}

/** Resolves on Enter, or when the terminal's input ends (Ctrl-D: nothing more can come). */
function enterPressed(signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const { stdin } = process
    const finish = () => {
      stdin.off('data', onData).off('end', finish)
      signal.removeEventListener('abort', finish)
      // Nothing more is read: a paused pipe would still hold the process open.
      stdin.destroy()
      done()
    }
    const onData = (chunk: Buffer) => {
      if (chunk.includes(10) || chunk.includes(13)) finish()
    }
    stdin.on('data', onData).on('end', finish)
    signal.addEventListener('abort', finish)
    stdin.resume()
  })
}

/** Refuses to overwrite a file relay-mock did not write (a project's own .env holds other things). */
async function refuseForeignFile(path: string, shown: string): Promise<void> {
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw new RelayMockError(
      'ENV_FILE_UNWRITABLE',
      `Failed to write the environment to ${shown}: ${error.message}. Please pass --write-env with a file relay-mock may write.`,
    )
  })
  if (existing !== undefined && !existing.startsWith(ENV_FILE_MARK)) {
    throw new RelayMockError(
      'ENV_FILE_TAKEN',
      `Failed to write the environment to ${shown}: the file exists and relay-mock did not write it. Please pass --write-env with another file (e.g. --write-env relay.env).`,
    )
  }
}

/** The variables, each a string, as Object.entries reads them. */
const asStrings = (env: RelayEnv): Readonly<Record<keyof RelayEnv, string>> => env

/** The variables as an env file that shells, dotenv and node --env-file read alike. */
function toEnvFile(id: string, env: RelayEnv): string {
  const lines = Object.entries(asStrings(env)).map(([name, value]) => `${name}=${shellQuote(value)}`)
  return `${ENV_FILE_MARK} ${id}: the environment of its client (relay-mock overwrites this file on its next run)\n${lines.join('\n')}\n`
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}
