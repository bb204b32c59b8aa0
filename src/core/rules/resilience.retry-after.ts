// resilience.retry-after: a 503 or 429 says when to come back (Retry-After, in seconds or as an
// HTTP-date). A client that retries waits at least that long; one that gives up at once is safe but
// loses a payment a moment's wait would have saved (a warning). An HTTP-date has one-second
// resolution, so a wait one second short of it still counts. Works live.
import { defineRule } from './define.js'
import { waitAskedFor } from '../exchange/entry.js'
import { attempts, CLOCK_SLACK_MS, fail, ms, named, pass, sentBeforeAnswer, skip, waitBetween, warn } from './facts.js'

/** An HTTP-date names a whole second. */
const DATE_TOLERANCE_MS = 1000

export default defineRule({
  id: 'resilience.retry-after',
  flows: ['advanced', 'simple'],
  title:
    'a client that retries a 503 or 429 waits at least its `Retry-After` (seconds or an HTTP-date); giving up at once is a warning',
  cite: '§7 Errors; RFC 9110 §10.2.3 Retry-After',
  needsCase: false,
  check({ requests }) {
    const told = requests.filter((entry) => waitAskedFor(entry))
    if (told.length === 0) return skip('Does not apply: no answer was a 503 or 429 with Retry-After.')
    const waited: string[] = []
    for (const group of attempts(requests)) {
      for (let i = 0; i < group.length; i++) {
        const refused = group[i]
        const after = waitAskedFor(refused)
        if (!told.includes(refused) || !after) continue
        const retry = group[i + 1]
        if (!retry) {
          if (i === 0) {
            return warn(
              `Expected a retry of ${refused.route} after the ${after.ms >= 1000 ? ms(after.ms) : 'moment'} Retry-After asked for: ${named(requests, refused)} was answered ${refused.response.status} (Retry-After: ${after.text}), a passing refusal; the client gave up at once. Safe, but a short wait would likely have completed the visit.`,
              { seq: refused.seq, expected: 'a retry after Retry-After', actual: 'no retry' },
            )
          }
          continue
        }
        // Never read the Retry-After: a retry after no answer is bounded-retries' to judge, not this rule's.
        if (sentBeforeAnswer(refused, retry)) continue
        const wait = waitBetween(refused, retry)
        const needed = after.ms - (after.dateForm ? DATE_TOLERANCE_MS : 0) - CLOCK_SLACK_MS
        if (wait < needed) {
          // The figures a reader checks the case's title against: the date's lead, and the wait that counts.
          const asked = after.dateForm
            ? `a wait until the date Retry-After names, ${ms(after.ms)} after the answer (at least ${ms(after.ms - DATE_TOLERANCE_MS)}: an HTTP-date names a whole second)`
            : `a wait of at least ${ms(after.ms)}`
          return fail(
            `Expected ${asked} before sending ${refused.route} again: ${named(requests, refused)} was answered ${refused.response.status} with Retry-After: ${after.text}${after.dateForm ? '' : ' (seconds)'}; the client sent ${named(requests, retry)} after ${ms(Math.max(0, wait))}.`,
            {
              seq: retry.seq,
              expected: after.ms - (after.dateForm ? DATE_TOLERANCE_MS : 0),
              actual: Math.max(0, Math.round(wait)),
            },
          )
        }
        waited.push(`${ms(wait)} after ${named(requests, refused)} (Retry-After: ${after.text})`)
      }
    }
    return pass(
      waited.length > 0
        ? `The client waited as told: ${waited.join('; ')}.`
        : 'The client was told to wait and did not send those requests again.',
      { seq: told[0].seq },
    )
  },
})
