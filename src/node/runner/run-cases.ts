// A run's cases through the pool: each case run `repeat` times, its runs combined into one result and reported,
// a client command that cannot start told apart from a client that broke a rule.
import { RelayMockError } from '../../core/service/mock.js'
import { casePasses, type VerdictPolicy } from '../../core/rules/index.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { CaseResult } from '../../core/rules/types.js'
import { liveClientPids } from '../processes/client-process.js'
import { runCase } from './case-run.js'
import { stopRun, type RunContext } from './context.js'
import { holdsToAWait, timingMayDecide, watchLateness } from './lateness.js'
import { fittedConcurrency, fixedConcurrency, runPool, scheduleRuns, type Concurrency } from './schedule.js'
import type { VariantHold } from './variant-bases.js'

/** The order a run's runs start in (see schedule.ts) and how many run at once. */
function toSchedule(
  context: RunContext,
  cases: ConformanceCase[],
): { order: ReturnType<typeof scheduleRuns>; concurrency: Concurrency } {
  const { options, repeat } = context
  const order = scheduleRuns(
    options.order === 'suite' ? cases.map(() => ({})) : cases,
    repeat,
    context.requestTimeoutMs,
    context.waits,
  )
  const concurrency =
    context.jobs === undefined ? fittedConcurrency(context.cpu, liveClientPids) : fixedConcurrency(context.jobs)
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
  const status =
    failed.length === 0
      ? (runs.find((run) => run.status !== 'passed')?.status ?? 'passed')
      : failed.length === runs.length
        ? failed[0].status
        : 'flaky'
  return { ...(failed[0] ?? runs[0]), status, runs: { total: runs.length, failed: failed.length } }
}

/**
 * Whether a client command could not start at all, as opposed to a client that ran and broke a
 * rule: no request, and the shell could not find or execute it (127, 126), the spawn failed, or
 * the interpreter could not open the script.
 */
export function couldNotStart(
  result: Pick<CaseResult, 'exitCode' | 'signal' | 'timedOut' | 'stderr' | 'requests'>,
): boolean {
  if (result.requests.length > 0 || result.timedOut || result.exitCode === 0) return false
  if (result.exitCode === 127 || result.exitCode === 126) return true
  if (result.exitCode === null && result.signal === null) return true
  return START_FAILURE.test(result.stderr)
}

const START_FAILURE =
  /Cannot find module|can't open file|No such file or directory|command not found|: not found|Permission denied/

/** The one line that says why a command could not start: the first line of its stderr that tells, else the last. */
function whyNotStarted(result: CaseResult): string {
  const lines = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const said = lines.find((line) => START_FAILURE.test(line)) ?? lines.at(-1)
  const how = result.exitCode === null ? 'it could not be spawned' : `exit ${result.exitCode}`
  return said ? `${how}: ${said}` : how
}

/**
 * One run of a case whose timing relay-mock held: a run whose verdict relay-mock's own lateness may have
 * decided (lateness.ts) runs again, once, and the second run is the case's, marked `late`. With
 * `--repeat`, the runs are the vote and none runs again.
 */
async function runTimed(
  context: RunContext,
  kase: ConformanceCase,
  slot: number,
  onWait: (delta: 1 | -1) => void,
): Promise<CaseResult> {
  const { requestTimeoutMs } = context
  const waits = holdsToAWait(kase.faults)
  const decided = (run: CaseResult, lateMs: number) =>
    timingMayDecide({ lateMs, requestTimeoutMs, passed: casePasses(run.status, context.options), waits })
  let stop = watchLateness()
  const first = await runCase(context, kase, slot, onWait)
  const firstLateMs = stop()
  if (context.stop.signal.aborted || context.repeat > 1 || couldNotStart(first) || !decided(first, firstLateMs))
    return first
  stop = watchLateness()
  const second = await runCase(context, kase, slot, onWait)
  const lateMs = stop()
  return {
    ...second,
    late: {
      firstStatus: first.status,
      firstLateMs,
      firstDurationMs: first.durationMs,
      ...(decided(second, lateMs) ? { lateMs } : {}),
    },
  }
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
export async function runCases(
  context: RunContext,
  cases: ConformanceCase[],
  hold: VariantHold,
): Promise<{ cases: CaseResult[]; clientMs: number; jobs: ReturnType<Concurrency['record']> }> {
  const { repeat } = context
  const { order, concurrency } = toSchedule(context, cases)
  const position = new Map(cases.map((kase, index) => [kase.id, index]))
  const runs: CaseResult[][] = cases.map(() => [])
  const finished = new Array<CaseResult | undefined>(cases.length)
  const held: Array<{ index: number; result: CaseResult }> = []
  let clientStarted = typeof context.client !== 'string'
  let failure: { error: unknown } | undefined
  let clientMs = 0

  /** Files a run under its case; once the case has all its runs, reports it and, with bail, stops on a failure. */
  const collect = async (index: number, result: CaseResult) => {
    runs[index].push(result)
    clientMs += result.durationMs + (result.late?.firstDurationMs ?? 0)
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
      const result = await runTimed(context, cases[index], slot, (delta) => concurrency.waiting(delta))
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
    await runPool(
      order.length,
      concurrency,
      task,
      () => failure === undefined && held.length === 0 && !context.stop.signal.aborted,
    )
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
