// The conformance runner: one mock for the run; per case a fresh world and token, a listener bound
// to that world, one run of the client, the rules, and the reporters. Cases run in parallel.
import { MOCK_DEFAULTS, REQUEST_TIMEOUT_MS, RUN_TIMEOUT_MS } from '../../core/defaults.js'
import { setMaxListeners } from 'node:events'
import { rmSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { cases as allCases, suites as allSuites } from '../../../suites/index.js'
import { createRelayService, RelayMockError, type RelayService } from '../../core/service/mock.js'
import { calibratedIds, readCalibration } from '../../core/service/calibration.js'
import { toRunCalibration, underCalibration } from '../../core/rules/calibrated.js'
import { maskToken } from '../../core/service/journal.js'
import { nearest } from '../../core/text.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { casePasses, caseStatus, countCases, evaluate, expectedCalls, type VerdictPolicy } from '../../core/rules/index.js'
import { toClientReport } from '../../core/rules/report.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import { FAULT_WAITS, type FaultWaits } from '../../core/service/faults.js'
import type { Scenario } from '../../core/service/scenario.js'
import type { CaseContext, CaseResult, CaseStart, CaseVisit, ClientRun, Flow, Reporter, RunResult, RunSummary } from '../../core/rules/types.js'
import { killAllClients, liveClientPids, runClientProcess } from '../processes/client-process.js'
import { watchWaits } from './case-waits.js'
import { cpuTime } from './cpu-time.js'
import { timeSpent } from './run-time.js'
import { caseRequestTimeoutMs, fittedConcurrency, fixedConcurrency, MOST_JOBS, runPool, scheduleRuns, type Concurrency } from './schedule.js'
import { close, createServer, listen } from '../server/server.js'
import { holdVariants, withBases, type VariantHold } from './variant-bases.js'

export { runPool } from './schedule.js'

/** The visit as a client receives it: the case's visit, its location and the flow to run. */
export type ClientVisit = CaseVisit & { flow: Flow }

/** The variables of the client contract, by name. */
export interface RelayEnv {
  RELAY_BASE_URL: string
  RELAY_API_TOKEN: string
  RELAY_LOCATION_ID: string
  RELAY_FLOW: Flow
  RELAY_PLATE: string
  RELAY_OWNER_KENNITALA: string
  RELAY_REGISTRATION_DATE: string
  RELAY_VISIT_START: string
  RELAY_VISIT_END: string
  RELAY_AMOUNT: string
  RELAY_CURRENCY: string
  RELAY_VISIT: string
  RELAY_RESULT_FILE: string
  /** How long the client waits for one answer before it gives up on the request, in ms. */
  RELAY_REQUEST_TIMEOUT_MS: string
}

/**
 * A client that runs in-process: it gets the visit and the same variables a command gets, calls the
 * mock over HTTP, and may return its report (what a command writes to RELAY_RESULT_FILE). Throwing
 * counts as exiting 1.
 */
export type ClientFunction = (visit: ClientVisit, env: RelayEnv, context: { signal: AbortSignal }) => unknown

export interface RunOptions {
  /** A shell command run once per case, or an in-process client function. */
  client: string | ClientFunction
  /** The client's name in reports, for a function client (default its function name). */
  name?: string
  /** Run only the cases of these flows (default both). */
  flows?: Flow[]
  /** Run only these cases: ids, prefixes ending in `/`, or globs (`*` any characters, `/` too; `?` one), e.g. `advanced/*` or `resilience/*-create/reset/once`. */
  cases?: string[]
  /** Run only the cases of these suites (advanced, simple, resilience, variants; default all). */
  suites?: string[]
  /** RELAY_REQUEST_TIMEOUT_MS, the client's own timeout per request (a case with a slow answer adds its delay). Default REQUEST_TIMEOUT_MS (2500). */
  requestTimeoutMs?: number
  /** The cases to choose from (default every suite's). */
  suite?: ReadonlyArray<ConformanceCase>
  /** Scenarios of your own that the cases name (beside the built-in ones), e.g. from loadCases. */
  scenarios?: ReadonlyArray<Scenario>
  /** The port of the per-case listener (default 0, a free one): a fixed port suits a run of one case. */
  port?: number
  /**
   * How many cases run at once, waiting ones included. Default: a case waiting on the service's
   * deliberate delays does not count, and the number of the others is fitted as the run goes to what
   * they cost the cores (from 4 a core, more while the machine idles): see schedule.ts.
   */
  jobs?: number
  /**
   * The order the cases start in: `longest-first` (the default: those whose faults make them wait
   * longest, then the rest in suite order) or `suite`.
   */
  order?: 'longest-first' | 'suite'
  /** The service's deliberate waits (slow answers, Retry-After), when not FAULT_WAITS: to measure a run against other values. */
  faultWaits?: Partial<FaultWaits>
  /** Kill a client (with its process tree) after this long. Default 30 s. */
  timeoutMs?: number
  reporters?: Reporter[]
  /** The client command's working directory (default the current one). */
  cwd?: string
  /** Variables added to the client's environment (before the RELAY_* ones). */
  env?: NodeJS.ProcessEnv
  /** The address the per-case listeners bind (default 127.0.0.1). */
  host?: string
  seed?: number
  vehicles?: number
  /** Bytes of stdout and of stderr kept per case. Default 64 KiB. */
  outputLimit?: number
  /** Stop at the first case that does not pass: the rest are cancelled, their clients ended. */
  bail?: boolean
  /** Run each case this many times; a case that fails some runs but not all is `flaky`. Default 1. */
  repeat?: number
  /**
   * Stops the run when aborted (e.g. on Ctrl-C): the clients in flight are ended, and the reporters
   * get the cases that finished, with `summary.interrupted`. Given one, the caller handles the process's
   * signals; without one, SIGINT, SIGTERM and SIGHUP end the run's clients and then the process.
   */
  signal?: AbortSignal
  /** A partial case (a rule not checked) does not fail the run (`--allow-partial`). */
  allowPartial?: boolean
  /** A warning fails the run (`--strict`). */
  strict?: boolean
  /**
   * Answer as the real service was seen to (`conform --calibrate`): an assumptions report of proxy or
   * probe, as its assumptions.json holds it. Every case runs under it; a calibrated assumption's variant
   * cases do not run (the service has answered it), the others still do.
   */
  calibration?: object
}

/** Defaults, in one place; options override them. */
export const RUN_DEFAULTS = {
  timeoutMs: RUN_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  host: '127.0.0.1',
  outputLimit: 64 * 1024,
  repeat: 1,
  // The fewest cases in flight unless --jobs fixes the number: a core's worth (see schedule.ts).
  jobs: () => os.availableParallelism(),
} as const

/**
 * The cases a run selects, in suite order.
 * @example selectCases({ flows: ['simple'] }).map((c) => c.id) // ['simple/accepted', ...]
 */
export function selectCases(options: Pick<RunOptions, 'flows' | 'cases' | 'suite' | 'suites'> = {}): ConformanceCase[] {
  let source = options.suite ?? allCases
  if (options.suites?.length) {
    for (const name of options.suites) {
      if (!allSuites.some((suite) => suite.name === name)) {
        throw new RelayMockError('SUITE_NOT_FOUND', `Failed to select cases: there is no suite "${name}". Please use one of: ${allSuites.map((suite) => suite.name).join(', ')}.`)
      }
    }
    const chosen = new Set(allSuites.filter((suite) => options.suites!.includes(suite.name)).flatMap((suite) => suite.cases.map((kase) => kase.id)))
    source = source.filter((kase) => chosen.has(kase.id))
  }
  for (const flow of options.flows ?? []) {
    if (flow !== 'advanced' && flow !== 'simple') {
      throw new RelayMockError('INVALID_FLOW', `Failed to select cases: there is no flow "${String(flow)}". Please use advanced or simple.`)
    }
  }
  let selected = options.flows?.length ? source.filter((kase) => options.flows!.includes(kase.flow)) : [...source]
  if (options.cases?.length) {
    const matchers = options.cases.map((pattern) => {
      const matches = caseMatcher(pattern)
      if (!source.some((kase) => matches(kase.id))) {
        throw new RelayMockError('CASE_NOT_FOUND', `Failed to find the case "${pattern}": no case matches it. Please use ${caseHint(pattern, source.map((kase) => kase.id))}.`)
      }
      return matches
    })
    selected = selected.filter((kase) => matchers.some((matches) => matches(kase.id)))
  }
  if (selected.length === 0) {
    throw new RelayMockError('NO_CASES', 'Failed to select cases: the flows and cases given leave none to run. Please widen --flow or --case.')
  }
  return selected
}

/**
 * Whether a `--case` pattern selects a case id: the id itself; a prefix ending in `/`; or a glob, where
 * `*` stands for any run of characters (a `/` too) and `?` for one.
 * @example caseMatcher('resilience/*-lookup/hang/*')('resilience/vehicle-lookup/hang/once') // true
 */
export function caseMatcher(pattern: string): (id: string) => boolean {
  if (pattern.endsWith('/')) return (id) => id.startsWith(pattern)
  if (!/[*?]/.test(pattern)) return (id) => id === pattern
  const source = [...pattern].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')
  const glob = new RegExp(`^${source}$`, 's')
  return (id) => glob.test(id)
}

/**
 * What a `--case` pattern that matches no case could have been: the nearest ids and a glob per suite
 * (never every id: there are hundreds).
 * @example caseHint('simple/acepted', ids) // 'an id such as simple/accepted, simple/rejected or simple/new-vehicle (the nearest), or a glob such as advanced/*, ...'
 */
export function caseHint(pattern: string, ids: readonly string[]): string {
  const suites = [...new Set(ids.map((id) => id.split('/')[0]))].map((suite) => `${suite}/*`)
  return `an id such as ${orList(nearest(pattern, ids))} (the nearest), or a glob such as ${orList(suites)}`
}

const orList = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`)

/** The client contract's variables for one case. */
export function toRelayEnv(visit: ClientVisit, baseUrl: string, token: string, resultFile: string, requestTimeoutMs: number = RUN_DEFAULTS.requestTimeoutMs): RelayEnv {
  return {
    RELAY_BASE_URL: baseUrl.replace(/\/+$/, ''),
    RELAY_API_TOKEN: token,
    RELAY_LOCATION_ID: visit.locationId,
    RELAY_FLOW: visit.flow,
    RELAY_PLATE: visit.plate,
    RELAY_OWNER_KENNITALA: visit.ownerKennitala,
    RELAY_REGISTRATION_DATE: visit.registrationDate,
    RELAY_VISIT_START: visit.visitStart,
    RELAY_VISIT_END: visit.visitEnd,
    RELAY_AMOUNT: String(visit.amount),
    RELAY_CURRENCY: visit.currency,
    RELAY_VISIT: JSON.stringify(visit),
    RELAY_RESULT_FILE: resultFile,
    RELAY_REQUEST_TIMEOUT_MS: String(Math.round(requestTimeoutMs)),
  }
}

/** The clean-ups of the runs in progress (their result files): one 'exit' listener serves them all. */
const activeRuns = new Set<() => void>()
/**
 * How many of them their caller stops on no signal (it gave no `signal`): while any runs, the runner
 * handles SIGINT, SIGTERM and SIGHUP itself. A caller that gives a signal handles them (conform does):
 * each signal is handled in one place.
 */
let unowned = 0

function cleanUpRuns(): void {
  for (const cleanUp of activeRuns) cleanUp()
}

// A signal that ends the process mid-run also ends the clients and removes the result files;
// client-process.ts kills the clients on exit.
function onInterrupt(signal: NodeJS.Signals): void {
  killAllClients()
  cleanUpRuns()
  activeRuns.clear()
  unowned = 0
  process.off('exit', cleanUpRuns)
  setSignals(false)
  // Nobody else handles it: end the process as the signal would have.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function setSignals(on: boolean): void {
  const method = on ? 'on' : 'off'
  process[method]('SIGINT', onInterrupt)
  process[method]('SIGTERM', onInterrupt)
  process[method]('SIGHUP', onInterrupt)
}

/** Registers a run's clean-up until the returned function is called; `owned`: its caller handles the signals. */
function trackRun(cleanUp: () => void, owned: boolean): () => void {
  if (activeRuns.size === 0) process.on('exit', cleanUpRuns)
  if (!owned && unowned++ === 0) setSignals(true)
  activeRuns.add(cleanUp)
  return () => {
    if (!activeRuns.delete(cleanUp)) return
    if (!owned && --unowned === 0) setSignals(false)
    if (activeRuns.size === 0) process.off('exit', cleanUpRuns)
  }
}

const TIMED_OUT = Symbol('timed out')

async function runFunctionClient(client: ClientFunction, visit: ClientVisit, env: RelayEnv, timeoutMs: number, name: string, stop: AbortSignal): Promise<ClientRun & { value?: unknown }> {
  const controller = new AbortController()
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  let onStop: (() => void) | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
    // A stopped run does not wait for its function clients either (the run is dropped).
    onStop = () => resolve(TIMED_OUT)
    if (stop.aborted) onStop()
    else stop.addEventListener('abort', onStop, { once: true })
  })
  const base = { command: name, signal: null, stdout: '', stderr: '' }
  try {
    const value = await Promise.race([Promise.resolve().then(() => client(visit, env, { signal: controller.signal })), timeout])
    const durationMs = Math.round(performance.now() - started)
    if (value === TIMED_OUT) {
      // A function cannot be killed: it is told to stop, and the case moves on.
      controller.abort()
      return { ...base, exitCode: null, timedOut: true, durationMs }
    }
    return { ...base, exitCode: 0, timedOut: false, durationMs, value }
  } catch (error) {
    const err = error as Error
    return { ...base, exitCode: 1, timedOut: false, durationMs: Math.round(performance.now() - started), stderr: err?.stack ?? String(error) }
  } finally {
    clearTimeout(timer)
    stop.removeEventListener('abort', onStop!)
  }
}

async function readReport(file: string): Promise<Pick<ClientRun, 'report' | 'reportError'>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return {}
  }
  const read = toClientReport(text)
  return 'report' in read ? { report: read.report } : { reportError: `RELAY_RESULT_FILE could not be read as a report: ${read.error}` }
}

/** What every case of one run shares: the mock, the folder of result files, the client and how to run it. */
interface RunContext {
  service: RelayService
  dir: string
  client: string | ClientFunction
  clientName: string
  reporters: Reporter[]
  host: string
  timeoutMs: number
  /** Fixed by --jobs, or fitted as the run goes. */
  jobs: number | undefined
  repeat: number
  options: RunOptions
  /** The service's waits, when the options change them. */
  waits?: FaultWaits
  /** Aborted when the run stops early: ends the clients in flight, whose runs are then dropped. */
  stop: AbortController
  /** Why the run stopped early, once it has. */
  stopped?: 'interrupted' | 'bailed'
}

/** The run's settings from its options and the defaults, refusing values that cannot work. */
function toSettings(options: RunOptions): Pick<RunContext, 'client' | 'clientName' | 'reporters' | 'host' | 'timeoutMs' | 'jobs' | 'repeat'> {
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.timeoutMs
  const { jobs } = options
  const repeat = options.repeat ?? RUN_DEFAULTS.repeat
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) throw new RelayMockError('INVALID_OPTION', `Failed to run: --jobs must be a whole number of at least 1 (got ${jobs}). Please pass e.g. --jobs 2.`)
  if (!Number.isInteger(repeat) || repeat < 1) throw new RelayMockError('INVALID_OPTION', `Failed to run: --repeat must be a whole number of at least 1 (got ${repeat}). Please pass e.g. --repeat 5.`)
  if (!(timeoutMs > 0)) throw new RelayMockError('INVALID_OPTION', `Failed to run: --timeout must be a positive number of seconds (got ${timeoutMs / 1000}). Please pass e.g. --timeout 30.`)
  const { client } = options
  return {
    client,
    clientName: typeof client === 'string' ? client : (options.name ?? (client.name || 'in-process client')),
    reporters: options.reporters ?? [],
    host: options.host ?? RUN_DEFAULTS.host,
    timeoutMs,
    jobs,
    repeat,
  }
}

/**
 * Runs the conformance cases against a client: a shell command (any language) or a function.
 * Resolves with every case's checks; rejects with a RelayMockError on a set-up error (e.g. the
 * command was not found).
 * @example
 * const result = await runConformance({ client: 'python3 client.py', flows: ['simple'] })
 * result.summary.failed // 0
 */
export async function runConformance(options: RunOptions): Promise<RunResult> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const calibration = options.calibration === undefined ? undefined : readCalibration(options.calibration, 'given')
  const { cases: chosen, leftOut } = underCalibration(selectCases(options), calibration)
  if (chosen.length === 0 && leftOut > 0) {
    throw new RelayMockError('NO_CASES', `Failed to select cases: the ${leftOut} cases selected vary assumptions the calibration answers as the real service does (${calibratedIds(calibration!).join(', ')}), and a calibrated assumption is no longer varied. Please run them without --calibrate, or select other cases.`)
  }
  const settings = toSettings(options)
  // A variant case is judged against the flow case it repeats: that case runs too (variant-bases.ts).
  const { cases: selected, added } = withBases(chosen, underCalibration([...(options.suite ?? allCases)], calibration).cases)
  const flows = [...new Set(selected.map((kase) => kase.flow))]

  // Every body the mock reads is journaled whole (up to its body limit): a rule never checks a prefix.
  const service = await createRelayService({ tokens: [], seed: options.seed, vehicles: options.vehicles, scenarios: options.scenarios, journalBodyBytes: MOCK_DEFAULTS.bodyLimit, ...(options.calibration ? { calibration: options.calibration } : {}) })
  const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-'))
  const untrack = trackRun(() => rmSync(dir, { recursive: true, force: true }), options.signal !== undefined)
  const context: RunContext = { ...settings, service, dir, options, stop: new AbortController(), ...waitsOf(options) }
  // Each case in flight listens for the run's stop (its client process or function), so up to `jobs`
  // listeners at once are expected: Node's warning about an 11th would be a false alarm on a --jobs
  // above 10. Beyond that many, the warning still tells of a leak.
  setMaxListeners((settings.jobs ?? MOST_JOBS) + 10, context.stop.signal)
  const cpu = cpuTime()
  const onInterrupt = () => stopRun(context, 'interrupted')
  if (options.signal?.aborted) onInterrupt()
  else options.signal?.addEventListener('abort', onInterrupt, { once: true })
  try {
    for (const reporter of context.reporters) await reporter.onRunStart?.({ cases: selected, client: context.clientName, flows, startedAt })
    const { cases, clientMs, jobs } = await runCases(context, selected, holdVariants(selected, added))
    const wallMs = Math.round(performance.now() - started)
    const summary = summarize(cases, { wallMs, clientMs, startedAt, client: context.clientName, flows }, options)
    summary.time = timeSpent(cases, { wallMs, cpu: cpu.since(), jobs, clientIsProcess: typeof context.client === 'string' })
    if (context.stopped) Object.assign(summary, { [context.stopped]: true, notRun: selected.length - cases.length })
    if (calibration) summary.calibration = toRunCalibration(calibration, leftOut)
    const result: RunResult = { summary, cases }
    for (const reporter of context.reporters) await reporter.onRunEnd?.(result)
    return result
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt)
    untrack()
    await rm(dir, { recursive: true, force: true })
  }
}

/** Stops the run early: no case starts any more, and the clients in flight are ended. */
function stopRun(context: RunContext, why: NonNullable<RunContext['stopped']>): void {
  context.stopped ??= why
  context.stop.abort()
}

/** The run's counts and times from its case results. */
function summarize(cases: CaseResult[], run: Pick<RunSummary, 'wallMs' | 'clientMs' | 'startedAt' | 'client' | 'flows'>, policy: VerdictPolicy): RunSummary {
  return {
    ...countCases(cases, policy),
    clientMs: run.clientMs,
    wallMs: run.wallMs,
    startedAt: run.startedAt,
    version: RELAY_MOCK_VERSION,
    client: run.client,
    flows: run.flows,
  }
}

/** The service's waits a run's options ask for, over the defaults; none when they ask for none. */
function waitsOf(options: RunOptions): Pick<RunContext, 'waits'> {
  return options.faultWaits ? { waits: { ...FAULT_WAITS, ...options.faultWaits } } : {}
}

/** The order a run's runs start in (see schedule.ts) and how many run at once. */
function toSchedule(context: RunContext, cases: ConformanceCase[]): { order: ReturnType<typeof scheduleRuns>; concurrency: Concurrency } {
  const { options, repeat } = context
  const order = scheduleRuns(options.order === 'suite' ? cases.map(() => ({})) : cases, repeat, options.requestTimeoutMs ?? RUN_DEFAULTS.requestTimeoutMs, context.waits)
  const concurrency = context.jobs === undefined ? fittedConcurrency(cpuTime(), liveClientPids) : fixedConcurrency(context.jobs)
  return { order, concurrency }
}

/**
 * The runs of one case as one result: as its first run when every run passed (under `policy`: a partial
 * run passes with allowPartial), as its first failing run when none did, flaky in between, with the
 * details of its first failing run (the one to look at).
 * @example combineRuns([passed, failed, passed]).status // 'flaky'
 */
export function combineRuns(runs: CaseResult[], policy: VerdictPolicy = {}): CaseResult {
  if (runs.length === 1) return runs[0]
  // A run that passes under the policy (a warning, unless --strict) is not a failure; a cell not
  // reached judged nothing and is one.
  const failed = runs.filter((run) => !casePasses(run.status, policy))
  const status = failed.length === 0 ? (runs.find((run) => run.status !== 'passed')?.status ?? 'passed') : failed.length === runs.length ? failed[0].status : 'flaky'
  return { ...(failed[0] ?? runs[0]), status, runs: { total: runs.length, failed: failed.length } }
}

/**
 * Whether a client command could not start at all, as opposed to a client that ran and broke a
 * rule: no request, and the shell could not find or execute it (127, 126), the spawn failed, or
 * the interpreter could not open the script.
 */
export function couldNotStart(result: Pick<CaseResult, 'exitCode' | 'signal' | 'timedOut' | 'stderr' | 'requests'>): boolean {
  if (result.requests.length > 0 || result.timedOut || result.exitCode === 0) return false
  if (result.exitCode === 127 || result.exitCode === 126) return true
  if (result.exitCode === null && result.signal === null) return true
  return START_FAILURE.test(result.stderr)
}

const START_FAILURE = /Cannot find module|can't open file|No such file or directory|command not found|: not found|Permission denied/

/** The one line that says why a command could not start: the first line of its stderr that tells, else the last. */
function whyNotStarted(result: CaseResult): string {
  const lines = result.stderr.split('\n').map((line) => line.trim()).filter(Boolean)
  const said = lines.find((line) => START_FAILURE.test(line)) ?? lines.at(-1)
  const how = result.exitCode === null ? 'it could not be spawned' : `exit ${result.exitCode}`
  return said ? `${how}: ${said}` : how
}

/**
 * Runs every case (`repeat` times each) through the pool, reporting each case as its last run ends,
 * and returns the finished cases in suite order.
 *
 * A command that cannot start is a set-up error, not a run of failures: while no run has shown a
 * client that starts, a run that could not start holds the queue until the runs in flight end,
 * and if all of them say the same, the run stops with one error naming the command. A case that
 * cannot be set up ends the other clients and rejects with its error. `bail` and an interrupt
 * stop the run: the runs in flight are ended and dropped, and only finished cases are returned. A variant
 * case is reported once the flow case it repeats has ended, judged against it (`hold`).
 */
async function runCases(context: RunContext, cases: ConformanceCase[], hold: VariantHold): Promise<{ cases: CaseResult[]; clientMs: number; jobs: ReturnType<Concurrency['record']> }> {
  const { repeat } = context
  const { order, concurrency } = toSchedule(context, cases)
  const position = new Map(cases.map((kase, index) => [kase.id, index]))
  const runs: CaseResult[][] = cases.map(() => [])
  const finished: Array<CaseResult | undefined> = new Array(cases.length)
  const held: Array<{ index: number; result: CaseResult }> = []
  let clientStarted = typeof context.client !== 'string'
  let failure: { error: unknown } | undefined
  let clientMs = 0

  /** Files a run under its case; once the case has all its runs, reports it and, with bail, stops on a failure. */
  const collect = async (index: number, result: CaseResult) => {
    runs[index].push(result)
    clientMs += result.durationMs
    if (runs[index].length < repeat) return
    for (const kase of hold.take(combineRuns(runs[index], context.options))) {
      finished[position.get(kase.id)!] = kase
      for (const reporter of context.reporters) await reporter.onCaseEnd?.(kase)
      if (context.options.bail && !casePasses(kase.status, context.options)) stopRun(context, 'bailed')
    }
  }
  const task = async (slot: number) => {
    const { index } = order[slot]
    try {
      const result = await runCase(context, cases[index], slot, (delta) => concurrency.waiting(delta))
      // A run ended by a stop (--bail, an interrupt) says nothing about the client: drop it.
      if (context.stop.signal.aborted) return
      if (!clientStarted && couldNotStart(result)) return void held.push({ index, result })
      clientStarted = true
      for (const earlier of held.splice(0)) await collect(earlier.index, earlier.result)
      await collect(index, result)
    } catch (error) {
      failure ??= { error }
      // End this run's other clients (not those of another run in the same process).
      context.stop.abort()
    }
  }
  try {
    await runPool(order.length, concurrency, task, () => failure === undefined && held.length === 0 && !context.stop.signal.aborted)
  } finally {
    concurrency.stop()
  }
  if (failure) throw failure.error
  if (held.length > 0 && !context.stopped) {
    throw new RelayMockError(
      'CLIENT_NOT_FOUND',
      `Failed to run the client: the client command could not start: ${context.clientName} (${whyNotStarted(held[0].result)}). Please check the command, and that it runs from ${context.options.cwd ?? process.cwd()}.`,
    )
  }
  return { cases: finished.filter((kase) => kase !== undefined), clientMs, jobs: concurrency.record() }
}

/** Runs the client once in the case's world and reads what it reported. */
async function runClient(context: RunContext, visit: ClientVisit, env: RelayEnv): Promise<ClientRun> {
  const { client, options } = context
  if (typeof client === 'string') {
    const ran = await runClientProcess({
      command: client,
      env: { ...process.env, ...options.env, ...env },
      cwd: options.cwd,
      timeoutMs: context.timeoutMs,
      outputLimit: options.outputLimit ?? RUN_DEFAULTS.outputLimit,
      signal: context.stop.signal,
    })
    return { ...ran, ...(await readReport(env.RELAY_RESULT_FILE)) }
  }
  const { value, ...ran } = await runFunctionClient(client, visit, env, context.timeoutMs, context.clientName, context.stop.signal)
  if (value === undefined) return { ...ran, ...(await readReport(env.RELAY_RESULT_FILE)) }
  const read = toClientReport(value)
  return { ...ran, ...('report' in read ? { report: read.report } : { reportError: `the function's return value could not be read as a report: ${read.error}` }) }
}

/**
 * One run of one case: a fresh world and listener, the client, the rules. `slot` numbers the run's result
 * file; `onWait` hears when the run starts and stops waiting on the service's deliberate delays.
 */
async function runCase(context: RunContext, kase: ConformanceCase, slot: number, onWait: (delta: 1 | -1) => void): Promise<CaseResult> {
  const { service, reporters } = context
  const faults = (kase.faults ?? []).map((fault) => (context.waits ? { ...fault, waits: context.waits } : fault))
  const world = await service.addWorld({ scenario: kase.scenario, faults, ...(kase.variants ? { variants: kase.variants } : {}) })
  const server = createServer(service, { world })
  const unwatch = watchWaits(server, world, kase.faults, onWait)
  let closed = false
  try {
    const baseUrl = await listen(server, { port: context.options.port ?? 0, host: context.host })
    const visit: CaseVisit = { ...world.visit, ...kase.visit, locationId: world.location.id }
    const clientVisit: ClientVisit = { ...visit, flow: kase.flow }
    const start: CaseStart = { id: kase.id, flow: kase.flow, scenario: kase.scenario, title: kase.title, visit, baseUrl, worldId: world.id }
    for (const reporter of reporters) await reporter.onCaseStart?.(start)
    // One subscription per reporter: one that throws is reported and stops neither the others nor the case.
    const unsubscribes = reporters.flatMap((reporter) => (reporter.onRequest ? [world.journal.subscribe((entry) => reporter.onRequest!(entry, start))] : []))
    const requestTimeoutMs = caseRequestTimeoutMs(kase, context.options.requestTimeoutMs ?? RUN_DEFAULTS.requestTimeoutMs, context.waits)
    const env = toRelayEnv(clientVisit, baseUrl, world.token, join(context.dir, `run-${slot + 1}.json`), requestTimeoutMs)
    const run = await runClient(context, clientVisit, env)
    // A request still held open (a hung one the client never gave up on) is journaled when its
    // connection closes: close the listener before reading the case's requests.
    closed = true
    await close(server)
    await new Promise((resolve) => setImmediate(resolve))
    for (const unsubscribe of unsubscribes) unsubscribe()

    const requests = world.journal.entries()
    const caseContext: CaseContext = { flow: kase.flow, requests, token: world.token, visit, client: run, outcome: kase.outcome, outcomes: kase.outcomes, faults: kase.faults, deadlineMs: context.timeoutMs, variants: kase.variants }
    const checks = evaluate(caseContext)
    return {
      id: kase.id,
      flow: kase.flow,
      scenario: kase.scenario,
      title: kase.title,
      status: caseStatus(checks, requests, kase.cell),
      durationMs: run.durationMs,
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut: run.timedOut,
      stdout: run.stdout,
      stderr: run.stderr,
      visit,
      checks,
      expected: expectedCalls(caseContext),
      requests,
      expectedOutcome: kase.outcome,
      ...(kase.outcomes ? { expectedOutcomes: kase.outcomes } : {}),
      ...(run.report ? { report: run.report } : {}),
      ...(run.reportError !== undefined ? { reportError: run.reportError } : {}),
      worldId: world.id,
      token: maskToken(world.token),
      ...(kase.faults ? { faults: kase.faults } : {}),
      ...(kase.cell ? { cell: kase.cell } : {}),
      ...(kase.variants ? { variants: kase.variants } : {}),
      ...(kase.of ? { of: kase.of } : {}),
    }
  } finally {
    unwatch()
    if (!closed) await close(server)
    service.removeWorld(world)
  }
}
