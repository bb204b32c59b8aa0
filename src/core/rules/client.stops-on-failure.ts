// client.stops-on-failure: after a call fails (the service answers 5xx, or the client gets no
// answer it can read), the client retries that call or stops. It never goes on to a later step as if
// the call had succeeded (no POST /payments after POST /custodians failed; no POST /custodians with a
// vehicle id it never got), and never pays twice (at most one payment recorded for the visit). A retry
// is a call to the same endpoint right after the failed attempt; once an attempt succeeds the flow goes
// on and is judged again from there. Starting the flow over is not a retry of the failed call; after a
// failed POST /vehicles, looking the plate up again (GET /vehicles) is how a client finds out whether
// the vehicle was created. How many attempts is resilience.bounded-retries' to judge. Skipped when no
// call failed. Works live: it reads only the mock's answers.
import { defineRule } from './define.js'
import { isFailure } from '../exchange/entry.js'
import { at, calls, fail, pass, skip, whatHappened, whatItGot } from './facts.js'

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)

export default defineRule({
  id: 'client.stops-on-failure',
  flows: ['advanced', 'simple'],
  title:
    'after a call fails (5xx or no answer it can read), the client retries that call or stops: it never goes on as if it had succeeded, and never pays twice',
  cite: '§1 Advanced flow, rules 2–6; §7 Errors',
  needsCase: false,
  check({ flow, requests }) {
    const made = calls(requests)
    if (!made.some(isFailure)) return skip('Does not apply: no call failed (no 5xx, and every answer arrived whole).')
    const handled: string[] = []
    let i = 0
    while (i < made.length) {
      const failed = made[i]
      if (!isFailure(failed)) {
        i++
        continue
      }
      // The failed call and its retries: the calls to the same endpoint right after, while they fail.
      let last = failed
      let next = i + 1
      while (next < made.length && isFailure(last) && made[next].route === failed.route) last = made[next++]
      const attempts = next - i
      if (isFailure(last) && next < made.length) {
        const after = made[next]
        // Whether a failed creation happened after all is found out by looking the plate up again.
        if (last.route === 'POST /vehicles' && after.route === 'GET /vehicles') {
          handled.push(`${at(requests, last)} failed: the client looked the plate up again`)
          i = next
          continue
        }
        return fail(
          `Expected the client to retry ${failed.route} or stop after ${at(requests, last)} failed (${whatItGot(last)}); it went on with ${at(requests, after)} as if ${failed.route} had succeeded.`,
          { seq: after.seq, expected: [failed.route, 'no further call'], actual: after.route },
        )
      }
      const retried = attempts > 1 ? `retried it ${times(attempts - 1)} and ` : ''
      handled.push(
        `${at(requests, failed)} failed (${whatItGot(failed)}): the client ${retried}${isFailure(last) ? 'stopped' : `went on once ${at(requests, last)} succeeded`}`,
      )
      i = next
    }
    const happened = whatHappened(flow, requests)
    if (happened.paymentIds.length > 1) {
      return fail(`Expected at most one payment recorded for the visit after a call failed; ${happened.why}.`, {
        expected: 1,
        actual: happened.paymentIds.length,
      })
    }
    return pass(`${handled.join('; ')}.`)
  },
})
