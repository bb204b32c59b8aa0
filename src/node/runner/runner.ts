// The conformance runner: one mock for the run; per case a fresh world and token, a listener bound
// to that world, one run of the client, the rules, and the reporters. Cases run in parallel.
import { MOCK_DEFAULTS } from '../../core/defaults.js'
import { setMaxListeners } from 'node:events'
import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { cases as allCases } from '../../../suites/index.js'
import { createRelayService, RelayMockError } from '../../core/service/mock.js'
import { calibratedIds, readCalibration } from '../../core/service/calibration.js'
import { toRunCalibration, underCalibration } from '../../core/rules/calibrated.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { countCases, type VerdictPolicy } from '../../core/rules/index.js'
import { FAULT_WAITS } from '../../core/service/faults.js'
import type { CaseResult, RunResult, RunSummary } from '../../core/rules/types.js'
import { stopRun, type RunContext } from './context.js'
import { cpuTime } from './cpu-time.js'
import { trackRun } from './interrupts.js'
import { RUN_DEFAULTS, type RunOptions } from './options.js'
import { runCases } from './run-cases.js'
import { timeSpent } from './run-time.js'
import { MOST_JOBS } from './schedule.js'
import { selectCases } from './select.js'
import { holdVariants, withBases } from './variant-bases.js'

/** The run's settings from its options and the defaults, refusing values that cannot work. */
function toSettings(
  options: RunOptions,
): Pick<
  RunContext,
  'client' | 'clientName' | 'reporters' | 'host' | 'timeoutMs' | 'requestTimeoutMs' | 'jobs' | 'repeat'
> {
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.timeoutMs
  const { jobs } = options
  const repeat = options.repeat ?? RUN_DEFAULTS.repeat
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1))
    throw new RelayMockError(
      'INVALID_OPTION',
      `Failed to run: --jobs must be a whole number of at least 1 (got ${jobs}). Please pass e.g. --jobs 2.`,
    )
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new RelayMockError(
      'INVALID_OPTION',
      `Failed to run: --repeat must be a whole number of at least 1 (got ${repeat}). Please pass e.g. --repeat 5.`,
    )
  if (!(timeoutMs > 0))
    throw new RelayMockError(
      'INVALID_OPTION',
      `Failed to run: --timeout must be a positive number of seconds (got ${timeoutMs / 1000}). Please pass e.g. --timeout 30.`,
    )
  const { client } = options
  return {
    client,
    clientName: typeof client === 'string' ? client : (options.name ?? (client.name || 'in-process client')),
    reporters: options.reporters ?? [],
    host: options.host ?? RUN_DEFAULTS.host,
    timeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? RUN_DEFAULTS.requestTimeoutMs,
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
    throw new RelayMockError(
      'NO_CASES',
      `Failed to select cases: the ${leftOut} cases selected vary assumptions the calibration answers as the real service does (${calibratedIds(calibration!).join(', ')}), and a calibrated assumption is no longer varied. Please run them without --calibrate, or select other cases.`,
    )
  }
  const settings = toSettings(options)
  // A variant case is judged against the flow case it repeats: that case runs too (variant-bases.ts).
  const { cases: selected, added } = withBases(
    chosen,
    underCalibration([...(options.suite ?? allCases)], calibration).cases,
  )
  const flows = [...new Set(selected.map((kase) => kase.flow))]

  // Every body the mock reads is journaled whole (up to its body limit): a rule never checks a prefix.
  const service = await createRelayService({
    tokens: [],
    seed: options.seed,
    vehicles: options.vehicles,
    scenarios: options.scenarios,
    journalBodyBytes: MOCK_DEFAULTS.bodyLimit,
    ...(options.calibration ? { calibration: options.calibration } : {}),
  })
  const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-'))
  const untrack = trackRun(() => rmSync(dir, { recursive: true, force: true }), options.signal !== undefined)
  const context: RunContext = {
    ...settings,
    service,
    dir,
    options,
    cpu: cpuTime(),
    stop: new AbortController(),
    ...waitsOf(options),
  }
  // Each case in flight listens for the run's stop (its client process or function), so up to `jobs`
  // listeners at once are expected: Node's warning about an 11th would be a false alarm on a --jobs
  // above 10. Beyond that many, the warning still tells of a leak.
  setMaxListeners((settings.jobs ?? MOST_JOBS) + 10, context.stop.signal)
  const onInterrupt = () => stopRun(context, 'interrupted')
  if (options.signal?.aborted) onInterrupt()
  else options.signal?.addEventListener('abort', onInterrupt, { once: true })
  try {
    for (const reporter of context.reporters)
      await reporter.onRunStart?.({ cases: selected, client: context.clientName, flows, startedAt })
    const { cases, clientMs, jobs } = await runCases(context, selected, holdVariants(selected, added))
    const wallMs = Math.round(performance.now() - started)
    const summary = summarize(cases, { wallMs, clientMs, startedAt, client: context.clientName, flows }, options)
    summary.time = timeSpent(cases, {
      wallMs,
      cpu: context.cpu.since(),
      jobs,
      clientIsProcess: typeof context.client === 'string',
    })
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

/** The run's counts and times from its case results. */
function summarize(
  cases: CaseResult[],
  run: Pick<RunSummary, 'wallMs' | 'clientMs' | 'startedAt' | 'client' | 'flows'>,
  policy: VerdictPolicy,
): RunSummary {
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
