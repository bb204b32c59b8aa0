// resilience.bounded-retries: a failing request is retried within bounds. The line between a failure
// and a warning is drawn at harm, above what HTTP libraries do at their defaults (measured in
// docs/http-libraries.md: ky and got make 3 attempts, axios-retry and urllib3's Retry(total=3) 4; ky
// retries 300 ms after a 5xx, axios-retry and urllib3 at once):
// - fails: more than 5 attempts at one request (a retry storm: every client of a failing service
//   multiplying its load);
// - warns: 4 or 5 attempts (3 in all are enough: past that the service is down, not hiccupping); a retry
//   within 500 ms of a 5xx that gave no Retry-After (a lookup harms nobody, but a service that just failed
//   gets a moment's rest from an exponential backoff); and giving up on a lookup at once after a lost
//   answer or a 500, 502 or 504 with no call after it (safe, but one retry would likely have saved the
//   visit). Giving up on a lookup that hung is not warned: the client already waited its timeout.
// An attempt sent at once on a new connection after the one before was lost, while the client's own
// retries wait, is most likely its HTTP library's own resend (libcurl, Net::HTTP, Go's net/http,
// java.net.http: see resend.ts): the count and the grade stay, and the words say which layer made the
// attempts and the setting that stops it rather than the client's retry limit.
// After a lost connection or its own timeout a lookup may go again at once. Whether a POST may be sent
// again at all is resilience.no-resend's to judge, a wait after a 503 or 429 resilience.retry-after's,
// and retries that outlast the case's deadline resilience.deadline's. Works live.
import { defineRule } from './define.js'
import type { JournalEntry } from '../service/journal.js'
import type { RuleOutcome } from './types.js'
import { answerLost, isAmbiguous, retryAfterMs } from '../exchange/entry.js'
import {
  attempts,
  calls,
  CLOCK_SLACK_MS,
  fail,
  ms,
  named,
  pass,
  sentBeforeAnswer,
  skip,
  waitBetween,
  warn,
  whatItGot,
} from './facts.js'
import { howToStop, libraryResends, resendsLike, sentAfterLoss } from './resend.js'

/** The attempts at one request, the first included, above which the client fails: a retry storm. */
export const MAX_ATTEMPTS = 5
/** The attempts at one request that are enough; more (up to MAX_ATTEMPTS) is a warning. */
export const ENOUGH_ATTEMPTS = 3
/** The least wait before retrying a 5xx that gave no Retry-After; a quicker retry is a warning. */
export const MIN_BACKOFF_MS = 500

export default defineRule({
  id: 'resilience.bounded-retries',
  flows: ['advanced', 'simple'],
  title:
    'more than 5 attempts at one request fail (a retry storm); 4 or 5 attempts, a retry within 500 ms of a 5xx that named no `Retry-After`, or giving up on a lookup at once after a lost answer or a 5xx are warnings (3 attempts, at least 500 ms apart after a 5xx, are enough); after a lost connection or a timeout a lookup may be retried at once',
  cite: '§7 Errors',
  needsCase: false,
  check({ requests }) {
    const groups = attempts(requests)
    const retried = groups.filter((group) => group.length > 1)
    const abandoned = abandonedLookup(requests, groups)
    if (retried.length === 0 && !abandoned) return skip('Does not apply: no request was sent again.')
    const storm = retried.find((group) => group.length > MAX_ATTEMPTS)
    if (storm) {
      const extra = storm[MAX_ATTEMPTS]
      const library = libraryAdvice(requests, storm)
      return fail(
        `Expected at most ${MAX_ATTEMPTS} attempts in all at ${storm[0].route}, starting with ${named(requests, storm[0])}; the client made ${storm.length}, the ${MAX_ATTEMPTS + 1}th being ${named(requests, extra)}. So many attempts at a failing service are a retry storm: ${library ?? `${ENOUGH_ATTEMPTS} in all are enough, then report the visit.`}`,
        { seq: extra.seq, expected: MAX_ATTEMPTS, actual: storm.length },
      )
    }
    const warnings: RuleOutcome[] = []
    const many = retried.find((group) => group.length > ENOUGH_ATTEMPTS)
    if (many) {
      const extra = many[ENOUGH_ATTEMPTS]
      warnings.push(
        warn(
          `Expected ${ENOUGH_ATTEMPTS} attempts in all at ${many[0].route} to be enough, starting with ${named(requests, many[0])}; the client made ${many.length}, the ${ENOUGH_ATTEMPTS + 1}th being ${named(requests, extra)}. Harmless at this count (more than ${MAX_ATTEMPTS} fail), but past ${ENOUGH_ATTEMPTS} the service is down, not hiccupping: ${adviceFor(requests, many)}`,
          { seq: extra.seq, expected: ENOUGH_ATTEMPTS, actual: many.length },
        ),
      )
    }
    const quick = quickRetry(retried)
    if (quick) {
      const { prev, next, wait } = quick
      warnings.push(
        warn(
          `Expected a wait of at least ${MIN_BACKOFF_MS} ms before retrying after a ${prev.response.status}: ${named(requests, prev)} was answered ${prev.response.status} with no Retry-After; the client sent ${named(requests, next)} after ${ms(Math.max(0, wait))}. Harmless for a lookup, but a service that just failed recovers sooner when its clients back off: wait ${MIN_BACKOFF_MS} ms or more, doubling each time.`,
          { seq: next.seq, expected: MIN_BACKOFF_MS, actual: Math.max(0, Math.round(wait)) },
        ),
      )
    }
    if (abandoned) {
      warnings.push(
        warn(
          `Expected a retry of ${abandoned.route}: ${named(requests, abandoned)} failed, as ${whatItGot(abandoned)}. A lookup changes nothing, so it may be sent again (at once after a lost answer, ${MIN_BACKOFF_MS} ms later after a 5xx); the client gave up at once and made no call after it. Safe, but one retry would likely have completed the visit.`,
          { seq: abandoned.seq, expected: 'a retry of the lookup', actual: 'no retry' },
        ),
      )
    }
    // One outcome: the first warning's request and figures, every warning's sentence.
    if (warnings.length > 0)
      return { ...warnings[0], message: warnings.map((w, i) => (i === 0 ? w.message : `Also: ${w.message}`)).join(' ') }
    const summary = retried
      .map((group) => `${group[0].route} ${group.length} times (from ${named(requests, group[0])})`)
      .join('; ')
    return pass(`Retries were bounded and spaced: ${summary}.`, { seq: retried[0][1].seq })
  },
})

/**
 * What to change for too many attempts: the client's retry limit where its own loop made them, the HTTP
 * library's setting where the extra attempts were most likely the library's own resends.
 */
function adviceFor(requests: ReadonlyArray<JournalEntry>, group: JournalEntry[]): string {
  const limit = `set the retry limit to ${ENOUGH_ATTEMPTS - 1}`
  const library = libraryAdvice(requests, group)
  if (library) return library
  // The same pattern, where the client's own retries come as quickly: nothing tells who sent it.
  const like = resendsLike(requests, group)
  if (like.length > 0 && group.length - like.length <= ENOUGH_ATTEMPTS) {
    return `${limit}, unless its HTTP library sent some of them by itself: ${sentAfterLoss(requests, like)}, on a new connection, as a library resends (the client's own retries came as quickly, so nothing tells them apart). If so, its own loop made ${group.length - like.length}: stop that resend instead. ${howToStop(like)}.`
  }
  return `${limit}.`
}

/** The words for attempts the client's HTTP library most likely made by itself, when they explain the excess; else undefined. */
function libraryAdvice(requests: ReadonlyArray<JournalEntry>, group: JournalEntry[]): string | undefined {
  const resent = libraryResends(requests, group)
  if (resent.length === 0 || group.length - resent.length > ENOUGH_ATTEMPTS) return undefined
  return `the client's own loop made ${group.length - resent.length} of the ${group.length}. ${sentAfterLoss(requests, resent)}: on a new connection, too soon for the client's own back-off, so most likely its HTTP library resent it by itself. Stop that resend rather than lower the client's retry limit: ${howToStop(resent)}.`
}

/** The first retry sent sooner than MIN_BACKOFF_MS after a 5xx the client saw, which named no Retry-After. */
function quickRetry(retried: JournalEntry[][]): { prev: JournalEntry; next: JournalEntry; wait: number } | undefined {
  for (const group of retried) {
    for (let i = 1; i < group.length; i++) {
      const prev = group[i - 1]
      const next = group[i]
      if (answerLost(prev) || prev.response.status < 500 || retryAfterMs(prev)) continue
      // Never saw the 5xx: a retry after the client's own timeout may come at once (no-resend judges a POST's).
      if (sentBeforeAnswer(prev, next)) continue
      const wait = waitBetween(prev, next)
      if (wait < MIN_BACKOFF_MS - CLOCK_SLACK_MS) return { prev, next, wait }
    }
  }
  return undefined
}

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
