// client.outcome: when the client writes RELAY_RESULT_FILE, what it says matches what happened (paid
// with the id the service gave, skipped, rejected, or unknown; the README's client contract says which
// when). `rejected` is no payment made, the client knowing it: the service refused the payment, or the
// visit stopped before it (a lookup or creation failed, the token refused). "What happened" is read from the
// mock's answers as the client received them, not from the suite's expectation, so a client that broke
// the flow earlier is charged with that rule only. Where the answer to the payment was lost (reset,
// timeout, 500/502/504, a truncated or garbled 2xx) the client cannot know: `unknown` is the truth,
// `rejected` is safe but hides a payment that may be recorded (a warning), and `paid` is a claim it
// cannot back (a failure). Needs the case: only the runner reads the file.
import { defineRule } from './define.js'
import { callsTo, fail, pass, skip, warn, whatHappened } from './facts.js'

export default defineRule({
  id: 'client.outcome',
  flows: ['advanced', 'simple'],
  title:
    'when the client writes `RELAY_RESULT_FILE`, what it says matches what happened: `paid` only with the id the service gave, `skipped`, `rejected` where no payment was made (the service refused it, or the visit stopped before it: a lookup or creation failed, the service down, the token refused), or `unknown` where the answer to the payment was lost (`rejected` there is a warning)',
  cite: '§4 Simple integration, rules 1–2 (accepted iff the answer has `id`); §1 Advanced flow, rule 2; §7 Errors; the client contract (RELAY_RESULT_FILE)',
  needsCase: true,
  needs: ['client'],
  check({ client, flow, requests }) {
    if (!client) return skip('Needs the client run.')
    if (client.reportError !== undefined) {
      return fail(
        `Expected RELAY_RESULT_FILE to hold {"outcome": "paid" | "skipped" | "rejected" | "unknown", "paymentId"?, "message"?}; ${client.reportError}.`,
        {
          actual: client.reportError,
        },
      )
    }
    const report = client.report
    if (!report) return skip('Does not apply: the client wrote no RELAY_RESULT_FILE (it is optional).')
    const happened = whatHappened(flow, requests)
    const seq = callsTo(requests, flow === 'advanced' ? 'POST /payments' : 'POST /payment').at(-1)?.seq
    if (happened.outcome === 'unknown' && report.outcome === 'rejected') {
      return warn(
        `Expected the outcome "unknown", since ${happened.why}; the client wrote "rejected". Safe (it claims no payment), but the payment may well be recorded: "unknown" tells the location to look it up.`,
        { seq, expected: 'unknown', actual: 'rejected' },
      )
    }
    if (report.outcome !== happened.outcome) {
      const claim =
        report.outcome === 'paid' && happened.outcome === 'unknown'
          ? ' It has no payment id from the service to back that claim.'
          : ''
      return fail(
        `Expected the outcome "${happened.outcome}", since ${happened.why}; the client wrote "${report.outcome}" to RELAY_RESULT_FILE.${claim}`,
        {
          seq,
          expected: happened.outcome,
          actual: report.outcome,
        },
      )
    }
    if (
      happened.outcome === 'paid' &&
      report.paymentId !== undefined &&
      !happened.paymentIds.includes(report.paymentId)
    ) {
      const expected = happened.paymentIds.at(-1)
      return fail(
        `Expected paymentId "${expected}", since ${happened.why}; the client wrote paymentId "${report.paymentId}".`,
        {
          seq,
          expected,
          actual: report.paymentId,
        },
      )
    }
    return pass(
      `The client reported "${report.outcome}"${report.paymentId ? ` with payment ${report.paymentId}` : ''}, which is what happened.`,
    )
  },
})
