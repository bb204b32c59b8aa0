// Where a run's time went, in words: the lines the console reporter ends a run with (the JSON
// summary's `time` holds the same figures).
import type { CaseResult, RunTime } from '../../core/rules/types.js'

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** What holds up relay-mock's process. */
const HELD_UP = 'a busy machine, or an in-process client holding its event loop'

/**
 * The lines that say where a run's time went, after its verdict.
 * @example timeLines(summary.time!, 9800) // ['Longest case resilience/vehicle-lookup/hang/always, 7.6 s; ...', ...]
 */
export function timeLines(time: RunTime, wallMs: number): string[] {
  const { longest, jobs } = time
  const share = `${Math.round(time.delayShare * 100)}% of the cases' ${seconds(time.casesMs)} waiting on the service's deliberate delays (slow answers, hung requests, Retry-After)`
  const floor = longest
    ? `Longest case ${longest.id}, ${seconds(longest.durationMs)} of the ${seconds(wallMs)} wall time; `
    : ''
  const cpu = `${time.clientCpuMs === undefined ? '' : `the client's processes ${seconds(time.clientCpuMs)}, `}relay-mock's ${seconds(time.kitCpuMs)}`
  const atOnce = jobs.fixed
    ? `${jobs.most} cases at once (--jobs)`
    : `up to ${jobs.most} cases at once, fitted to what they cost the cores (--jobs fixes it)`
  const lines = [`${floor}${share}.`, `CPU time: ${cpu}; ${atOnce}.`]
  if (time.startDominates) {
    lines.push(
      `Your client costs ${seconds(time.startDominates.cpuPerRunMs)} of CPU per case, most of it its own start, paid again for each case: start it faster (a JVM: class-data sharing, -XX:SharedArchiveFile or -XX:+AutoCreateSharedArchive, and -XX:TieredStopAtLevel=1; an interpreter: fewer imports before the first request; a compiled binary starts in milliseconds). See docs/speed.md#a-conform-runs-time.`,
    )
  }
  if (time.ranAgain) {
    const { cases, lateAgain } = time.ranAgain
    const they = cases === 1 ? 'its' : 'their'
    lines.push(
      `${cases === 1 ? '1 case' : `${cases} cases`} ran again: relay-mock's process was held up in ${they} first run (${HELD_UP}), enough that it could decide ${they} verdict; each is judged by its second run.${lateAgain > 0 ? ` In ${lateAgain === 1 ? 'one' : lateAgain} of them it was held up again: ${lateAgain === 1 ? 'that verdict' : 'those verdicts'} may be the machine's, not your client's; run with fewer --jobs on a quieter machine.` : ''}`,
    )
  }
  return lines
}

/**
 * What a case that ran again, relay-mock having run late in its first run, says of it.
 * @example lateWords(result.late!, result.id) // "ran again: relay-mock's process was held up 0.8 s in its first run (failed) …"
 */
export function lateWords(late: NonNullable<CaseResult['late']>, id: string): string {
  const first = `relay-mock's process was held up ${seconds(late.firstLateMs)} in its first run (${late.firstStatus}; ${HELD_UP}), enough that it could decide its verdict`
  return late.lateMs === undefined
    ? `ran again: ${first}; this is its second run`
    : `ran again: ${first}, and ${seconds(late.lateMs)} in this second run too: its verdict may be the machine's; run it alone (--case ${id}) or with fewer --jobs`
}
