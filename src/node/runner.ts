// The conformance runner: one mock for the run; per case a fresh world and token, a listener bound
// to that world, one run of the client, the rules, and the reporters. Cases run in parallel.
import { RUN_TIMEOUT_MS } from '../core/defaults.js'
import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cases as allCases } from '../../suites/index.js'
import { createRelayService, RelayMockError, type RelayService } from '../core/mock.js'
import { evaluate, expectedCalls } from '../core/rules/index.js'
import { toClientReport } from '../core/rules/report.js'
import type { ConformanceCase } from '../core/rules/suite.js'
import type { Scenario } from '../core/scenario.js'
import type { CaseContext, CaseResult, CaseStart, CaseVisit, ClientRun, Flow, Reporter, RunResult, RunSummary } from '../core/rules/types.js'
import { killAllClients, runClientProcess } from './client-process.js'
import { close, createServer, listen } from './server.js'

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
  /** Run only these cases: ids, or prefixes ending in `/` or `*` (e.g. `advanced/*`). */
  cases?: string[]
  /** The cases to choose from (default every suite's). */
  suite?: ReadonlyArray<ConformanceCase>
  /** Scenarios of your own that the cases name (beside the built-in ones), e.g. from loadCases. */
  scenarios?: ReadonlyArray<Scenario>
  /** The port of the per-case listener (default 0, a free one): a fixed port suits a run of one case. */
  port?: number
  /** How many cases run at once (default the number of cores). */
  jobs?: number
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
}

/** Defaults, in one place; options override them. */
export const RUN_DEFAULTS = {
  timeoutMs: RUN_TIMEOUT_MS,
  host: '127.0.0.1',
  outputLimit: 64 * 1024,
  jobs: () => os.availableParallelism(),
} as const

/**
 * The cases a run selects, in suite order.
 * @example selectCases({ flows: ['simple'] }).map((c) => c.id) // ['simple/accepted', ...]
 */
export function selectCases(options: Pick<RunOptions, 'flows' | 'cases' | 'suite'> = {}): ConformanceCase[] {
  const source = options.suite ?? allCases
  for (const flow of options.flows ?? []) {
    if (flow !== 'advanced' && flow !== 'simple') {
      throw new RelayMockError('INVALID_FLOW', `Failed to select cases: there is no flow "${String(flow)}". Please use advanced or simple.`)
    }
  }
  let selected = options.flows?.length ? source.filter((kase) => options.flows!.includes(kase.flow)) : [...source]
  if (options.cases?.length) {
    const matchers = options.cases.map((pattern) => {
      const prefix = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern.endsWith('/') ? pattern : undefined
      const matches = (kase: ConformanceCase) => (prefix === undefined ? kase.id === pattern : kase.id.startsWith(prefix))
      if (!source.some(matches)) {
        throw new RelayMockError('CASE_NOT_FOUND', `Failed to find the case "${pattern}". Please use one of: ${source.map((k) => k.id).join(', ')}.`)
      }
      return matches
    })
    selected = selected.filter((kase) => matchers.some((matches) => matches(kase)))
  }
  if (selected.length === 0) {
    throw new RelayMockError('NO_CASES', 'Failed to select cases: the flows and cases given leave none to run. Please widen --flow or --case.')
  }
  return selected
}

/** The client contract's variables for one case. */
export function toRelayEnv(visit: ClientVisit, baseUrl: string, token: string, resultFile: string): RelayEnv {
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
  }
}

let cachedVersion: string | undefined
/** relay-mock's version, from the package.json above this file (in src, dist or the bundle). */
export function packageVersion(): string {
  if (cachedVersion) return cachedVersion
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'relay-mock' && pkg.version) return (cachedVersion = pkg.version)
    } catch {
      // Not here: look one folder up.
    }
    dir = dirname(dir)
  }
  return (cachedVersion = '0.0.0')
}

/** The clean-ups of the runs in progress: one set of process listeners serves them all. */
const activeRuns = new Set<() => void>()

function cleanUpRuns(): void {
  for (const cleanUp of activeRuns) cleanUp()
}

// Whatever ends the process mid-run (Ctrl-C, a crash, process.exit) also ends the clients and
// removes the result files; client-process.ts kills the clients on exit.
function onInterrupt(signal: NodeJS.Signals): void {
  killAllClients()
  cleanUpRuns()
  activeRuns.clear()
  setListening(false)
  // Nobody else handles it: end the process as the signal would have.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function setListening(on: boolean): void {
  const method = on ? 'on' : 'off'
  process[method]('SIGINT', onInterrupt)
  process[method]('SIGTERM', onInterrupt)
  process[method]('exit', cleanUpRuns)
}

/** Registers a run's clean-up until the returned function is called. */
function trackRun(cleanUp: () => void): () => void {
  if (activeRuns.size === 0) setListening(true)
  activeRuns.add(cleanUp)
  return () => {
    if (activeRuns.delete(cleanUp) && activeRuns.size === 0) setListening(false)
  }
}

const TIMED_OUT = Symbol('timed out')

async function runFunctionClient(client: ClientFunction, visit: ClientVisit, env: RelayEnv, timeoutMs: number, name: string): Promise<ClientRun & { value?: unknown }> {
  const controller = new AbortController()
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
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
  jobs: number
  options: RunOptions
  /** Aborted when the run stops early: ends the clients in flight. */
  stop: AbortController
}

/** The run's settings from its options and the defaults, refusing values that cannot work. */
function toSettings(options: RunOptions): Pick<RunContext, 'client' | 'clientName' | 'reporters' | 'host' | 'timeoutMs' | 'jobs'> {
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.timeoutMs
  const jobs = options.jobs ?? RUN_DEFAULTS.jobs()
  if (!Number.isInteger(jobs) || jobs < 1) throw new RelayMockError('INVALID_OPTION', `Failed to run: --jobs must be a whole number of at least 1 (got ${jobs}). Please pass e.g. --jobs 2.`)
  if (!(timeoutMs > 0)) throw new RelayMockError('INVALID_OPTION', `Failed to run: --timeout must be a positive number of seconds (got ${timeoutMs / 1000}). Please pass e.g. --timeout 30.`)
  const { client } = options
  return {
    client,
    clientName: typeof client === 'string' ? client : (options.name ?? (client.name || 'in-process client')),
    reporters: options.reporters ?? [],
    host: options.host ?? RUN_DEFAULTS.host,
    timeoutMs,
    jobs,
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
  const selected = selectCases(options)
  const settings = toSettings(options)
  const flows = [...new Set(selected.map((kase) => kase.flow))]

  const service = await createRelayService({ tokens: [], seed: options.seed, vehicles: options.vehicles, scenarios: options.scenarios })
  const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-'))
  const untrack = trackRun(() => rmSync(dir, { recursive: true, force: true }))
  const context: RunContext = { ...settings, service, dir, options, stop: new AbortController() }
  try {
    for (const reporter of context.reporters) await reporter.onRunStart?.({ cases: selected, client: context.clientName, flows, startedAt })
    const cases = await runCases(context, selected)
    const summary = summarize(cases, { wallMs: Math.round(performance.now() - started), startedAt, client: context.clientName, flows })
    const result: RunResult = { summary, cases }
    for (const reporter of context.reporters) await reporter.onRunEnd?.(result)
    return result
  } finally {
    untrack()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The run's counts and times from its case results. */
function summarize(cases: CaseResult[], run: Pick<RunSummary, 'wallMs' | 'startedAt' | 'client' | 'flows'>): RunSummary {
  return {
    total: cases.length,
    passed: cases.filter((r) => r.status === 'passed').length,
    failed: cases.filter((r) => r.status === 'failed').length,
    rulesBroken: [...new Set(cases.flatMap((r) => r.checks.filter((c) => c.status === 'failed').map((c) => c.rule)))],
    clientMs: cases.reduce((sum, r) => sum + r.durationMs, 0),
    wallMs: run.wallMs,
    startedAt: run.startedAt,
    version: packageVersion(),
    client: run.client,
    flows: run.flows,
  }
}

/**
 * Runs `task(0)` … `task(count - 1)`, at most `jobs` at a time, starting one only while
 * `canStart()` says so; resolves once nothing runs and nothing more may start. Tasks must not reject.
 * @example await runPool(cases.length, 4, (index) => runOne(cases[index]), () => true)
 */
export async function runPool(count: number, jobs: number, task: (index: number) => Promise<void>, canStart: () => boolean): Promise<void> {
  const inflight = new Set<Promise<void>>()
  let next = 0
  for (;;) {
    while (next < count && inflight.size < jobs && canStart()) {
      const running: Promise<void> = task(next++).finally(() => inflight.delete(running))
      inflight.add(running)
    }
    if (inflight.size === 0) return
    await Promise.race(inflight)
  }
}

/**
 * Runs every case through the pool, reporting each as it ends, and returns the results in suite
 * order. A command the shell cannot find (exit 127 before any request) is a set-up error, not a run
 * of failures: the first such case holds the queue until the cases in flight end, and if all of
 * them say the same, the run stops with one error. A case that cannot be set up ends the other
 * clients and rejects with its error.
 */
async function runCases(context: RunContext, cases: ConformanceCase[]): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length)
  const held: CaseResult[] = []
  let sawRunningClient = typeof context.client !== 'string'
  let failure: { error: unknown } | undefined
  const report = async (result: CaseResult) => {
    for (const reporter of context.reporters) await reporter.onCaseEnd?.(result)
  }
  const notFound = (result: CaseResult) => result.exitCode === 127 && result.requests.length === 0

  const task = async (index: number) => {
    try {
      const result = await runCase(context, cases[index], index)
      results[index] = result
      if (!sawRunningClient && notFound(result)) held.push(result)
      else {
        sawRunningClient = true
        for (const earlier of held.splice(0)) await report(earlier)
        await report(result)
      }
    } catch (error) {
      failure ??= { error }
      // End this run's other clients (not those of another run in the same process).
      context.stop.abort()
    }
  }
  await runPool(cases.length, context.jobs, task, () => failure === undefined && held.length === 0)
  if (failure) throw failure.error
  if (held.length > 0) {
    const said = held[0].stderr.trim().split('\n').at(-1) ?? ''
    throw new RelayMockError(
      'CLIENT_NOT_FOUND',
      `Failed to run the client: the client command was not found: ${context.clientName}${said ? ` (the shell said: ${said})` : ''}. Please check the command, and that it runs from ${context.options.cwd ?? process.cwd()}.`,
    )
  }
  return results
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
  const { value, ...ran } = await runFunctionClient(client, visit, env, context.timeoutMs, context.clientName)
  if (value === undefined) return { ...ran, ...(await readReport(env.RELAY_RESULT_FILE)) }
  const read = toClientReport(value)
  return { ...ran, ...('report' in read ? { report: read.report } : { reportError: `the function's return value could not be read as a report: ${read.error}` }) }
}

/** One run of one case: a fresh world and listener, the client, the rules. */
async function runCase(context: RunContext, kase: ConformanceCase, index: number): Promise<CaseResult> {
  const { service, reporters } = context
  const world = await service.addWorld({ scenario: kase.scenario })
  const server = createServer(service, { world })
  try {
    const baseUrl = await listen(server, { port: context.options.port ?? 0, host: context.host })
    const visit: CaseVisit = { ...world.visit, ...kase.visit, locationId: world.location.id }
    const clientVisit: ClientVisit = { ...visit, flow: kase.flow }
    const start: CaseStart = { id: kase.id, flow: kase.flow, scenario: kase.scenario, title: kase.title, visit, baseUrl, worldId: world.id }
    for (const reporter of reporters) await reporter.onCaseStart?.(start)
    const listeners = reporters.filter((reporter) => reporter.onRequest)
    const unsubscribe = listeners.length > 0 ? world.journal.subscribe((entry) => listeners.forEach((reporter) => reporter.onRequest!(entry, start))) : undefined
    const env = toRelayEnv(clientVisit, baseUrl, world.token, join(context.dir, `case-${index + 1}.json`))
    const run = await runClient(context, clientVisit, env)
    unsubscribe?.()

    const requests = world.journal.entries()
    const caseContext: CaseContext = { flow: kase.flow, requests, token: world.token, visit, client: run, outcome: kase.outcome }
    const checks = evaluate(caseContext)
    return {
      id: kase.id,
      flow: kase.flow,
      scenario: kase.scenario,
      title: kase.title,
      status: checks.some((check) => check.status === 'failed') ? 'failed' : 'passed',
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
    }
  } finally {
    await close(server)
    service.removeWorld(world)
  }
}
