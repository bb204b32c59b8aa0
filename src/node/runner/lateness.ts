// How late relay-mock's own clock ran while a case ran: the most its event loop was held up (a busy
// machine, a starved process). The cases' timing is the kit's to hold: an answer meant at once, a slow
// answer, a hang the client must give up on, a Retry-After it must wait out. When the kit itself ran late
// by a fifth of the request timeout or more, a case that did not pass may have failed on the kit's
// lateness, not the client's code: it runs again, once, and its result says so (`late`).

/** Of the request timeout, the share of lateness past which a case that did not pass runs again. */
const LATE_SHARE = 0.2

/** How often the watch looks at the clock, in ms. */
const TICK_MS = 20

/**
 * Starts watching the event loop: a timer every 20 ms notes how much later than due it ran. The returned
 * function stops the watch and gives the most it was late, in ms, the watch's last stretch included.
 * @example const stop = watchLateness(); await runCase(…); const lateMs = stop()
 */
export function watchLateness(): () => number {
  let last = performance.now()
  let most = 0
  const look = () => {
    const now = performance.now()
    most = Math.max(most, now - last - TICK_MS)
    last = now
  }
  const timer = setInterval(look, TICK_MS)
  timer.unref()
  return () => {
    clearInterval(timer)
    // The stretch since the last look counts when it is already past due.
    const now = performance.now()
    if (now - last > TICK_MS) most = Math.max(most, now - last - TICK_MS)
    return Math.round(most)
  }
}

/**
 * Whether the kit ran late enough, against the request timeout the client was given, to have decided a
 * case's timing.
 * @example tooLate(700, 2500) // true
 */
export const tooLate = (lateMs: number, requestTimeoutMs: number): boolean => lateMs >= requestTimeoutMs * LATE_SHARE
