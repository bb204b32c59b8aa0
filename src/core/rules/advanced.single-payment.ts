// advanced.single-payment: exactly one payment per visit, and it is the last call. Works live. The
// payments counted are those the mock recorded (a 2xx answer to POST /payments): an attempt the
// service failed (5xx) recorded nothing, so retrying it is not a second payment (how many retries
// is client.stops-on-failure's to judge). A second recorded payment or a call after the recorded
// one always fails; no payment at all fails only where one was due: the company was found and the
// service refused nothing on the way (a client stops at a refusal or a failure, and an owner
// outside the service gets no payment).
import { plural } from '../text.js'
import { defineRule } from './define.js'
import { isFailure, isOk } from '../exchange/entry.js'
import { at, callsTo, companyFacts, fail, list, pass, skip } from './facts.js'

export default defineRule({
  id: 'advanced.single-payment',
  flows: ['advanced'],
  title: 'exactly one payment per visit, and it is the last call',
  cite: '§1 Advanced flow, rule 6 ("then creates the payment"); §4 Advanced integration, endpoint 5',
  needsCase: false,
  check({ requests }) {
    const attempts = callsTo(requests, 'POST /payments')
    const payments = attempts.filter(isOk)
    if (payments.length > 1) {
      return fail(
        `Expected exactly one payment for the visit; the mock recorded ${payments.length}: ${list(requests, payments)}.`,
        {
          seq: payments[1].seq,
          expected: 1,
          actual: payments.length,
        },
      )
    }
    if (payments.length === 1) {
      const [payment] = payments
      const after = requests.slice(requests.indexOf(payment) + 1)
      if (after.length > 0) {
        return fail(
          `Expected the payment to be the last call; ${at(requests, payment)} was followed by ${list(requests, after)}.`,
          { seq: after[0].seq },
        )
      }
      const failed = attempts.filter((entry) => entry.seq < payment.seq && isFailure(entry)).length
      return pass(
        `One payment, the last call: ${at(requests, payment)}${failed > 0 ? ` (after ${plural(failed, 'attempt')} the service failed)` : ''}.`,
        { seq: payment.seq },
      )
    }
    const company = companyFacts(requests)
    if (company.kind === 'empty')
      return skip('Does not apply: the owner is not part of the service, so no payment is due.')
    if (company.kind === 'none') return skip(`Does not apply: ${company.why}.`)
    const refused = requests.find((entry) => !isOk(entry))
    if (refused)
      return skip(
        `Does not apply: the service ${isFailure(refused) ? 'failed' : 'refused'} ${at(requests, refused)} (${refused.response.status}), and a client may stop there.`,
      )
    return fail(
      `Expected one POST /payments as the last call once ${at(requests, company.entry)} found the company; the client made no payment.`,
      {
        seq: company.entry.seq,
        expected: 1,
        actual: 0,
      },
    )
  },
})
