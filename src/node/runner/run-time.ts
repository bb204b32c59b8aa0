// Where a run's time went, for its summary: the CPU its processes spent, its longest case, and how
// much of the cases' time was spent waiting on the service's deliberate delays. A client whose every
// run costs a runtime's start is told so, with what cures it (docs/speed.md#a-conform-runs-time).
import { deliberateDelayMs } from '../../core/rules/delays.js'
import type { CaseResult, RunTime } from '../../core/rules/types.js'
import type { CpuSpent } from './cpu-time.js'

/**
 * The CPU a run of a client may cost before its own start is taken to outweigh its work: a visit's
 * few requests, read and written, cost a client tens of ms; a runtime's start (a JVM's) hundreds.
 */
export const START_CPU_MS = 200

/**
 * Where the time of a run that ended went.
 * @example timeSpent(result.cases, { wallMs: 9000, cpu: cpu.since(), jobs, clientIsProcess: true }).delayShare // 0.8
 */
export function timeSpent(
  cases: ReadonlyArray<CaseResult>,
  run: { wallMs: number; cpu: CpuSpent; jobs: RunTime['jobs']; clientIsProcess: boolean },
): RunTime {
  let casesMs = 0
  let delayMs = 0
  let runs = 0
  let longest: RunTime['longest']
  let ranAgain = 0
  let lateAgain = 0
  for (const kase of cases) {
    if (kase.late) ranAgain++
    if (kase.late?.lateMs !== undefined) lateAgain++
    casesMs += kase.durationMs
    delayMs += Math.min(kase.durationMs, deliberateDelayMs(kase.requests))
    runs += (kase.runs?.total ?? 1) + (kase.late ? 1 : 0)
    if (!longest || kase.durationMs > longest.durationMs) longest = { id: kase.id, durationMs: kase.durationMs }
  }
  const clientCpuMs = run.clientIsProcess ? run.cpu.endedMs : undefined
  const cpuPerRunMs = clientCpuMs !== undefined && runs > 0 ? Math.round(clientCpuMs / runs) : undefined
  return {
    ...(clientCpuMs === undefined ? {} : { clientCpuMs: Math.round(clientCpuMs) }),
    kitCpuMs: Math.round(run.cpu.kitMs),
    ...(longest ? { longest } : {}),
    delayMs: Math.round(delayMs),
    casesMs,
    delayShare: casesMs > 0 ? delayMs / casesMs : 0,
    jobs: run.jobs,
    ...(cpuPerRunMs !== undefined && cpuPerRunMs >= START_CPU_MS ? { startDominates: { cpuPerRunMs } } : {}),
    ...(ranAgain > 0 ? { ranAgain: { cases: ranAgain, lateAgain } } : {}),
  }
}
