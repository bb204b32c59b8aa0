// Where a run's time went, in words: the lines the console reporter ends a run with (the JSON
// summary's `time` holds the same figures).
import type { CaseResult, RunTime } from '../../core/rules/types.js'

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

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
    lines.push(
      `${cases === 1 ? '1 case' : `${cases} cases`} ran again: relay-mock's own clock ran late while ${cases === 1 ? 'it' : 'they'} ran (a busy machine), and ${cases === 1 ? 'it' : 'they'} did not pass; each is judged by its second run.${lateAgain > 0 ? ` In ${lateAgain === 1 ? 'one' : lateAgain} of them it was late again: ${lateAgain === 1 ? 'that verdict' : 'those verdicts'} may be the machine's, not your client's; run with fewer --jobs on a quieter machine.` : ''}`,
    )
  }
  return lines
}

/**
 * What a case that ran again, relay-mock having run late in its first run, says of it.
 * @example lateWords(result.late!, result.id) // 'ran again: relay-mock ran 0.8 s late in its first run (failed) …'
 */
export function lateWords(late: NonNullable<CaseResult['late']>, id: string): string {
  const first = `relay-mock ran ${seconds(late.firstLateMs)} late in its first run (${late.firstStatus}), on a busy machine`
  return late.lateMs === undefined
    ? `ran again: ${first}; this is its second run`
    : `ran again: ${first}, and ${seconds(late.lateMs)} late in this second run too: the verdict may be the machine's; run it alone (--case ${id}) or with fewer --jobs`
}
