// client.stops-on-failure: after a call fails (the service answers 5xx), the client retries that
// call at most 3 times in all, or stops. It never goes on to a later step as if the call had
// succeeded (no POST /payments after POST /custodians failed; no POST /custodians with a vehicle id
// it never got), and never pays twice (at most one payment recorded for the visit). A retry is a
// call to the same endpoint right after the failed attempt; once an attempt succeeds the flow goes
// on and is judged again from there. Starting the flow over is not a retry of the failed call.
// Skipped when no call failed. Works live: it reads only the mock's answers.
import { defineRule } from './define.js'
import { at, calls, fail, isFailure, pass, skip, whatHappened } from './facts.js'

/** The attempts allowed at one call, the first included. */
const MAX_ATTEMPTS = 3

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)

export default defineRule({
  id: 'client.stops-on-failure',
  flows: ['advanced', 'simple'],
  title:
    'after a call fails (5xx or no answer), the client retries that call at most 3 times in all or stops: it never goes on as if it had succeeded, and never pays twice',
  cite: '§1 Advanced flow, rules 2–6; §7 Errors',
  needsCase: false,
  check({ flow, requests }) {
    const made = calls(requests)
    if (!made.some(isFailure)) return skip('Does not apply: no call failed (the service answered no 5xx).')
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
      if (attempts > MAX_ATTEMPTS) {
        const extra = made[i + MAX_ATTEMPTS]
        return fail(
          `Expected at most ${MAX_ATTEMPTS} attempts in all at ${failed.route} after ${at(requests, failed)} answered ${failed.response.status}; the client made ${attempts}, the ${MAX_ATTEMPTS + 1}th being ${at(requests, extra)}.`,
          { seq: extra.seq, expected: MAX_ATTEMPTS, actual: attempts },
        )
      }
      if (isFailure(last) && next < made.length) {
        const after = made[next]
        return fail(
          `Expected the client to retry ${failed.route} or stop after ${at(requests, last)} answered ${last.response.status}; it went on with ${at(requests, after)} as if ${failed.route} had succeeded.`,
          { seq: after.seq, expected: [failed.route, 'no further call'], actual: after.route },
        )
      }
      const retried = attempts > 1 ? `retried it ${times(attempts - 1)} and ` : ''
      handled.push(`${at(requests, failed)} answered ${failed.response.status}: the client ${retried}${isFailure(last) ? 'stopped' : `went on once ${at(requests, last)} succeeded`}`)
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
