// simple.one-request: exactly one request, POST /payment. Works live (where a "visit" is the group of
// requests the live page shows together); without a case, no request yet is not a failure. A POST
// /payment sent again after an attempt that did not succeed (a 5xx, a 429, no answer) is the same
// request, not another one: how many times and how soon is resilience.bounded-retries' and
// resilience.retry-after's to judge, and whether it may be sent at all resilience.no-resend's.
import { plural } from '../text.js'
import { defineRule } from './define.js'
import { isOk } from '../exchange/entry.js'
import { fail, list, pass, skip } from './facts.js'

export default defineRule({
  id: 'simple.one-request',
  flows: ['simple'],
  title: 'exactly one request: POST `/payment`',
  cite: '§1 Simple flow, rule 1; §4 Simple integration',
  needsCase: false,
  check({ requests, visit }) {
    if (requests.length === 0) {
      return visit
        ? fail('Expected exactly one request, POST /payment; the client made none.', {
            expected: 'POST /payment',
            actual: [],
          })
        : skip('No request was made yet.')
    }
    if (requests.length === 1 && requests[0].route === 'POST /payment')
      return pass('One request: POST /payment.', { seq: requests[0].seq })
    if (
      requests.every((entry) => entry.route === 'POST /payment') &&
      requests.slice(0, -1).every((entry) => !isOk(entry))
    ) {
      const retries = requests.length - 1
      return pass(
        `One request: POST /payment, sent again ${retries === 1 ? 'once' : `${retries} times`} after it did not succeed.`,
        { seq: requests.at(-1)!.seq },
      )
    }
    const payment = requests.findIndex((entry) => entry.route === 'POST /payment')
    const stray = requests.find((_, i) => i !== payment) ?? requests[0]
    return fail(
      `Expected exactly one request, POST /payment; the client sent ${plural(requests.length, 'request')}: ${list(requests, requests)}.`,
      {
        seq: stray.seq,
        expected: ['POST /payment'],
        actual: requests.map((entry) => `${entry.request.method} ${entry.request.path}`),
      },
    )
  },
})
