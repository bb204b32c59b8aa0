// simple.one-request: exactly one request, POST /payment. Works live (where a "visit" is the group of
// requests the live page shows together); without a case, no request yet is not a failure.
import { defineRule } from './define.js'
import { fail, list, pass, skip } from './facts.js'

export default defineRule({
  id: 'simple.one-request',
  flows: ['simple'],
  title: 'exactly one request: POST `/payment`',
  cite: '§1 Simple flow, rule 1; §4 Simple integration',
  needsCase: false,
  check({ requests, visit }) {
    if (requests.length === 0) {
      return visit ? fail('Expected exactly one request, POST /payment; the client made none.', { expected: 'POST /payment', actual: [] }) : skip('No request was made yet.')
    }
    if (requests.length === 1 && requests[0].route === 'POST /payment') return pass('One request: POST /payment.', { seq: requests[0].seq })
    const payment = requests.findIndex((entry) => entry.route === 'POST /payment')
    const stray = requests.find((_, i) => i !== payment) ?? requests[0]
    return fail(
      `Expected exactly one request, POST /payment; the client sent ${requests.length} request${requests.length === 1 ? '' : 's'}: ${list(requests, requests)}.`,
      { seq: stray.seq, expected: ['POST /payment'], actual: requests.map((entry) => `${entry.request.method} ${entry.request.path}`) },
    )
  },
})
