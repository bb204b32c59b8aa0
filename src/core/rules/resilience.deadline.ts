// resilience.deadline: a request that gets no answer must not stop the visit: the client gives up on
// it after its own timeout (RELAY_REQUEST_TIMEOUT_MS) and finishes the visit within the case's
// deadline. A client still waiting when the case killed it fails here, naming the hung request; so
// does one still retrying (its retries outlasted the visit: a Retry-After waited out again and again,
// a backoff that grows past the deadline), naming its last attempt. Needs the client's run where a
// request hung (only the runner sees the process); a retry is judged when the run is there. A client
// that gave up on a hung request by itself has a timeout, and is not told to set one: what outlasted the
// deadline was its attempts, its HTTP library's own resends among them (Net::HTTP sends a GET again after
// its read timeout, doubling each wait: see resend.ts).
import { defineRule } from './define.js'
import type { JournalEntry } from '../service/journal.js'
import { attempts, fail, ms, named, pass, skip } from './facts.js'
import { hangsGivenUp, howToStop, libraryResends, sentAfterLoss } from './resend.js'
import { plural } from '../text.js'

const hungRequest = (entry: JournalEntry) => entry.fault?.kind === 'hang'

export default defineRule({
  id: 'resilience.deadline',
  flows: ['advanced', 'simple'],
  title:
    "a request that gets no answer, or a request retried, does not stall the visit: the client gives up (its own timeout, a bound on its retries) and finishes within the case's deadline",
  cite: '§7 Errors; the client contract (RELAY_REQUEST_TIMEOUT_MS)',
  needsCase: false,
  needs: ({ requests }) => (requests.some(hungRequest) ? ['client'] : []),
  check({ client, requests, deadlineMs }) {
    const hung = requests.filter(hungRequest)
    if (hung.length === 0) {
      const retried = attempts(requests).filter((group) => group.length > 1)
      if (retried.length === 0) return skip('Does not apply: every request got an answer, and none was sent again.')
      if (!client?.timedOut) return skip('Does not apply: every request got an answer, and the client finished.')
      const last = retried.at(-1)!
      const limit = deadlineMs ?? client.durationMs
      return fail(
        `Expected the client to finish the visit within the case's deadline of ${ms(limit)}; it was still retrying ${last[0].route} (${last.length} attempts, the last ${named(requests, last.at(-1)!)}) when it was killed after ${ms(client.durationMs)}. Bound the retries (3 attempts, a ceiling on Retry-After) so that a failing service ends the visit in time.`,
        {
          seq: last.at(-1)!.seq,
          expected: `done within ${ms(limit)}`,
          actual: 'killed at the deadline while retrying',
        },
      )
    }
    const last = hung.at(-1)!
    if (!client)
      return pass(`${named(requests, last)} got no answer; whether the client gave up on it in time needs its run.`, {
        seq: last.seq,
      })
    if (client.timedOut) {
      const limit = deadlineMs ?? client.durationMs
      return fail(
        `Expected the client to give up on ${named(requests, last)}, which never got an answer, and finish the visit within the case's deadline of ${ms(limit)}; it was still waiting when it was killed after ${ms(client.durationMs)}. ${whatToChange(requests)}`,
        { seq: last.seq, expected: `done within ${ms(limit)}`, actual: 'killed at the deadline' },
      )
    }
    const gaveUp = hung.map((entry) => `${named(requests, entry)} after ${ms(entry.durationMs)}`).join('; ')
    return pass(
      `The client gave up on ${hung.length === 1 ? 'the request' : `the ${plural(hung.length, 'request')}`} that got no answer (${gaveUp}) and finished in ${ms(client.durationMs)}.`,
      { seq: last.seq },
    )
  },
})

/**
 * What to change when the client was killed waiting: a timeout, where it gave up on no hung request by
 * itself; else what made its timeouts add up past the deadline (its library's resends, or its attempts).
 */
function whatToChange(requests: ReadonlyArray<JournalEntry>): string {
  const gaveUp = hangsGivenUp(requests)
  if (gaveUp.length === 0) return 'Give every request a timeout (RELAY_REQUEST_TIMEOUT_MS).'
  const own = `It has a timeout: it gave up on ${gaveUp.length === 1 ? 'a hung request' : `${gaveUp.length} hung requests`} by itself, after ${ms(Math.max(...gaveUp.map((entry) => entry.durationMs)))} at most`
  const resent = attempts(requests)
    .flatMap((group) => libraryResends(requests, group))
    .filter((resend) => resend.how === 'timeout')
  if (resent.length > 0) {
    return `${own}; but its HTTP library sent ${resent.length === 1 ? 'one of them' : `${resent.length} of them`} again by itself, each a second wait as long: ${sentAfterLoss(requests, resent)}, on a new connection at once. ${howToStop(resent)}.`
  }
  return `${own}; its attempts and their waits together outlasted the deadline: bound them (3 attempts in all) so that a service that never answers still ends the visit in time.`
}
