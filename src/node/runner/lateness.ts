// How late relay-mock's own clock ran while a case ran: the most its event loop was held up (a busy
// machine, a starved process, or an in-process client holding the loop). The cases' timing is the kit's
// to hold: an answer meant at once, a slow answer, a hang the client must give up on, a Retry-After it
// must wait out, and the journal's times that measure the client's waits. When the kit itself ran late by
// a fifth of the request timeout or more, a run's verdict may be the kit's lateness, not the client's
// code: a run that did not pass (a false fail?), or one that passed a case that holds the client to a
// least wait (its wait measured long: a false pass?). Such a run runs again, once, and its result says so
// (`late`).
import type { FaultKind } from '../../core/service/faults.js'

/** Of the request timeout, the share of lateness past which a run's timing may have decided its verdict. */
const LATE_SHARE = 0.2

/** How often the watch looks at the clock, in ms. */
const TICK_MS = 20

/** The watches open, each with the most it has seen; one timer serves them all while any is open. */
const watches = new Set<{ since: number; most: number }>()
let timer: NodeJS.Timeout | undefined
let last = 0

/** How late the timer is at `now` for a watch: counted from its last look, or from the watch's start if later. */
const lateSince = (watch: { since: number }, now: number): number => now - Math.max(last, watch.since) - TICK_MS

/** How much later than due the watch's timer runs now, noted in every open watch. */
function look(): void {
  const now = performance.now()
  for (const watch of watches) watch.most = Math.max(watch.most, lateSince(watch, now))
  last = now
}

/**
 * Starts watching the event loop: a timer every 20 ms (one for every watch open) notes how much later than
 * due it ran. The returned function stops the watch and gives the most it was late, in ms, the stretch
 * since the timer's last look included.
 * @example const stop = watchLateness(); await runCase(…); const lateMs = stop()
 */
export function watchLateness(): () => number {
  const watch = { since: performance.now(), most: 0 }
  if (timer === undefined) {
    last = performance.now()
    timer = setInterval(look, TICK_MS)
    timer.unref()
  }
  watches.add(watch)
  return () => {
    // The stretch since the last look counts when it is already past due.
    watch.most = Math.max(watch.most, lateSince(watch, performance.now()))
    watches.delete(watch)
    if (watches.size === 0) {
      clearInterval(timer)
      timer = undefined
    }
    return Math.max(0, Math.round(watch.most))
  }
}

/**
 * Whether the kit ran late enough, against the run's request timeout, to have decided a case's timing (a
 * case with a slow answer gives the client that much more, and the same margin for lateness: a fifth of
 * the run's).
 * @example tooLate(700, 2500) // true
 */
const tooLate = (lateMs: number, requestTimeoutMs: number): boolean => lateMs >= requestTimeoutMs * LATE_SHARE

/**
 * The faults after whose answer the rules hold a client to a least wait, read from the journal's times: a
 * 503's or 429's Retry-After (resilience.retry-after), a back-off after a 500 (resilience.bounded-retries).
 * A stall of relay-mock's between the two stamps lengthens the wait it measures: a retry sent too soon can
 * pass. A pass under the other faults is not one lateness can make.
 */
const LEAST_WAIT_FAULTS: ReadonlySet<FaultKind> = new Set(['unavailable', 'rate-limited', 'server-error'])

/** Whether a case's faults include one after which a client is held to a least wait. */
export const holdsToAWait = (faults: ReadonlyArray<{ kind: FaultKind }> | undefined): boolean =>
  (faults ?? []).some((fault) => LEAST_WAIT_FAULTS.has(fault.kind))

/**
 * Whether relay-mock's lateness in a run may have decided its verdict: it ran late enough, and the run did
 * not pass, or passed a case that holds the client to a least wait.
 * @example timingMayDecide({ lateMs: 700, requestTimeoutMs: 2500, passed: false, waits: false }) // true
 */
export function timingMayDecide(run: {
  lateMs: number
  requestTimeoutMs: number
  passed: boolean
  waits: boolean
}): boolean {
  return tooLate(run.lateMs, run.requestTimeoutMs) && (!run.passed || run.waits)
}
