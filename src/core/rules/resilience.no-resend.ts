// resilience.no-resend: after a POST whose answer was lost or ambiguous (no answer, a 500/502/504, a
// truncated or garbled 2xx), the service may well have recorded it: sending it again blind records it
// twice. A payment (POST /payments, POST /payment) is never sent again: the truthful outcome is
// `unknown`. A vehicle may be created again only once GET /vehicles showed the plate still missing.
// Sent again at once on a new connection after the connection was lost, where an HTTP library does that
// by itself (libcurl resends a POST when a reused connection dies: see resend.ts), it stays a failure,
// and the words name the library and the setting that stops it, not the client's code. Works live: it
// reads only the mock's answers.
import type { JournalEntry } from '../service/journal.js'
import { defineRule } from './define.js'
import { isAmbiguous, isOk, answerLost } from '../exchange/entry.js'
import { fail, howLost, ms, named, pass, skip, waitBetween } from './facts.js'
import { howToStop, libraryResends, lossOf } from './resend.js'

const PAYMENTS = new Set(['POST /payments', 'POST /payment'])

function lost(entry: JournalEntry): string {
  return answerLost(entry)
    ? howLost(entry)
    : `it answered ${entry.response.status}, which does not say whether it was recorded`
}

/** The GET /vehicles between two requests that listed no vehicle for the plate, if any. */
function showedMissing(
  requests: ReadonlyArray<JournalEntry>,
  from: JournalEntry,
  to: JournalEntry,
): JournalEntry | undefined {
  return requests.find(
    (entry) =>
      entry.seq > from.seq &&
      entry.seq < to.seq &&
      entry.route === 'GET /vehicles' &&
      isOk(entry) &&
      Array.isArray(entry.response.body) &&
      entry.response.body.length === 0,
  )
}

/**
 * Who sent `again`: `the client sent it again as …`, or, when it came as its HTTP library resends (at once,
 * on a new connection, after `first` was lost), that the library did, and the setting that stops it.
 */
function sentAgain(
  requests: ReadonlyArray<JournalEntry>,
  first: JournalEntry,
  again: JournalEntry,
): (blind: string) => string {
  const [resend] =
    requests.indexOf(again) === requests.indexOf(first) + 1 ? libraryResends(requests, [first, again]) : []
  if (!resend) return (blind) => `the client sent it again${blind} as ${named(requests, again)}.`
  const wait = ms(Math.max(0, waitBetween(first, again)))
  return () =>
    `it was sent again as ${named(requests, again)}, ${wait} later on a new connection, right after ${lossOf(requests, resend)}: the client's HTTP library resent it by itself, not the client's own code. ${howToStop([resend])}.`
}

export default defineRule({
  id: 'resilience.no-resend',
  flows: ['advanced', 'simple'],
  title:
    'after a POST got no answer or an ambiguous one (reset, timeout, 500/502/504, a truncated or garbled 2xx), the client does not send it again blind: never a payment; a vehicle only after `GET /vehicles` shows the plate still missing',
  cite: '§7 Errors; §1 Advanced flow, rules 3 and 6 (one vehicle, one payment per visit)',
  needsCase: false,
  check({ requests }) {
    const ambiguous = requests.filter(
      (entry) => entry.request.method === 'POST' && entry.route !== null && isAmbiguous(entry),
    )
    if (ambiguous.length === 0) return skip('Does not apply: no POST got a lost or ambiguous answer.')
    for (const first of ambiguous) {
      const again = requests.find((entry) => entry.seq > first.seq && entry.route === first.route)
      if (!again) continue
      const recorded = first.fault?.applied ? ' (it had: the mock recorded it before the answer was lost)' : ''
      const said = sentAgain(requests, first, again)
      if (PAYMENTS.has(first.route!)) {
        return fail(
          `Expected no second ${first.route} after ${named(requests, first)}: ${lost(first)}, so the service may have recorded the payment${recorded}, and a resend pays twice; ${said('')} Report the outcome "unknown" instead.`,
          { seq: again.seq, expected: 'no resend; outcome unknown', actual: `${first.route} sent again` },
        )
      }
      if (first.route === 'POST /vehicles') {
        if (showedMissing(requests, first, again)) continue
        return fail(
          `Expected GET /vehicles to show the plate still missing before POST /vehicles was sent again: ${named(requests, first)} got no clear answer (${lost(first)}), so the vehicle may exist now${recorded}; ${said(' blind')}`,
          {
            seq: again.seq,
            expected: 'GET /vehicles answering [] before the resend',
            actual: 'POST /vehicles sent again blind',
          },
        )
      }
      return fail(
        `Expected no second ${first.route} after ${named(requests, first)}: ${lost(first)}, so the service may have recorded it${recorded}; ${said(' blind')} Stop there and report the visit.`,
        { seq: again.seq, expected: 'no resend', actual: `${first.route} sent again` },
      )
    }
    const which = ambiguous.map((entry) => `${named(requests, entry)} (${lost(entry)})`).join('; ')
    return pass(`No POST was sent again blind after a lost or ambiguous answer: ${which}.`, { seq: ambiguous[0].seq })
  },
})
