// resilience.bounded-retries: a client gives a failing request at most 3 attempts in all, and backs
// off: after a 5xx it waits at least 500 ms before the next attempt (or the Retry-After, which
// resilience.retry-after judges). After a lost connection or its own timeout it may try again at once
// (what urllib3 and most HTTP libraries do for an idempotent request); whether a POST may be sent
// again at all is resilience.no-resend's to judge. A client that gives up on a lookup at once, after
// a lost answer or a 500, 502 or 504, and makes no call after it, is safe but loses a visit one retry
// would likely have saved (a warning, as resilience.retry-after warns for a 503 or 429). Giving up on a
// lookup that hung is not: the client already waited its timeout. Works live.
import { defineRule } from './define.js'
import type { JournalEntry } from '../journal.js'
import { answerLost, attempts, calls, CLOCK_SLACK_MS, fail, isAmbiguous, ms, named, pass, retryAfterMs, sentBeforeAnswer, skip, waitBetween, warn, whatItGot } from './facts.js'

/** The attempts allowed at one request, the first included. */
export const MAX_ATTEMPTS = 3
/** The least wait before retrying a 5xx that gave no Retry-After. */
export const MIN_BACKOFF_MS = 500

export default defineRule({
  id: 'resilience.bounded-retries',
  flows: ['advanced', 'simple'],
  title: 'at most 3 attempts at one request in all; a retry after a 5xx waits at least 500 ms (or its `Retry-After`); after a lost connection or a timeout a lookup may be retried at once; giving up on a lookup at once after a lost answer or a 5xx is a warning',
  cite: '§7 Errors',
  needsCase: false,
  check({ requests }) {
    const groups = attempts(requests)
    const retried = groups.filter((group) => group.length > 1)
    const abandoned = abandonedLookup(requests, groups)
    if (retried.length === 0 && !abandoned) return skip('Does not apply: no request was sent again.')
    for (const group of retried) {
      if (group.length > MAX_ATTEMPTS) {
        const extra = group[MAX_ATTEMPTS]
        return fail(
          `Expected at most ${MAX_ATTEMPTS} attempts in all at ${group[0].route}, starting with ${named(requests, group[0])}; the client made ${group.length}, the ${MAX_ATTEMPTS + 1}th being ${named(requests, extra)}.`,
          { seq: extra.seq, expected: MAX_ATTEMPTS, actual: group.length },
        )
      }
      for (let i = 1; i < group.length; i++) {
        const prev = group[i - 1]
        const next = group[i]
        const status = prev.response.status
        if (answerLost(prev) || status < 500 || retryAfterMs(prev)) continue
        // Never saw the 5xx: a retry after the client's own timeout may come at once (no-resend judges a POST's).
        if (sentBeforeAnswer(prev, next)) continue
        const wait = waitBetween(prev, next)
        if (wait < MIN_BACKOFF_MS - CLOCK_SLACK_MS) {
          return fail(
            `Expected a wait of at least ${MIN_BACKOFF_MS} ms before retrying after a ${status}: ${named(requests, prev)} was answered ${status} with no Retry-After; the client sent ${named(requests, next)} after ${ms(Math.max(0, wait))}.`,
            { seq: next.seq, expected: MIN_BACKOFF_MS, actual: Math.max(0, Math.round(wait)) },
          )
        }
      }
    }
    if (abandoned) {
      return warn(
        `Expected a retry of ${abandoned.route}: ${named(requests, abandoned)} failed, as ${whatItGot(abandoned)}. A lookup changes nothing, so it may be sent again (at once after a lost answer, 500 ms later after a 5xx); the client gave up at once and made no call after it. Safe, but one retry would likely have completed the visit.`,
        { seq: abandoned.seq, expected: 'a retry of the lookup', actual: 'no retry' },
      )
    }
    const summary = retried.map((group) => `${group[0].route} ${group.length} times (from ${named(requests, group[0])})`).join('; ')
    return pass(`Retries were bounded and spaced: ${summary}.`, { seq: retried[0][1].seq })
  },
})

/**
 * The client's last call, when it is a lookup tried once that failed as a retry would likely mend (its
 * answer lost, or a 500, 502 or 504), short of a hang (the client waited its timeout already).
 */
function abandonedLookup(requests: ReadonlyArray<JournalEntry>, groups: JournalEntry[][]): JournalEntry | undefined {
  const last = groups.at(-1)
  const entry = last?.[0]
  if (!last || last.length > 1 || !entry || entry !== calls(requests).at(-1)) return undefined
  if (entry.request.method !== 'GET' || entry.fault?.kind === 'hang' || !isAmbiguous(entry)) return undefined
  return entry
}
