// client.outcome: when the client writes RELAY_RESULT_FILE, what it says matches what happened (paid
// with the right id, skipped, or rejected). "What happened" is read from the mock's answers, not
// from the suite's expectation, so a client that broke the flow earlier is charged with that rule
// only; the suite's outcome is what a correct client reaches (the example clients prove it).
// Needs the case: only the runner reads the file.
import { defineRule } from './define.js'
import { fail, pass, skip, whatHappened } from './facts.js'

export default defineRule({
  id: 'client.outcome',
  flows: ['advanced', 'simple'],
  title: 'when the client writes `RELAY_RESULT_FILE`, what it says matches what happened (paid with the right id, skipped, or rejected)',
  cite: '§4 Simple integration, rules 1–2 (accepted iff the answer has `id`); §1 Advanced flow, rule 2; §7 Errors',
  needsCase: true,
  needs: ['client'],
  check({ client, flow, requests }) {
    if (!client) return skip('Needs the client run.')
    if (client.reportError !== undefined) {
      return fail(`Expected RELAY_RESULT_FILE to hold {"outcome": "paid" | "skipped" | "rejected", "paymentId"?, "message"?}; ${client.reportError}.`, {
        actual: client.reportError,
      })
    }
    const report = client.report
    if (!report) return skip('Does not apply: the client wrote no RELAY_RESULT_FILE (it is optional).')
    const happened = whatHappened(flow, requests)
    if (report.outcome !== happened.outcome) {
      return fail(`Expected the outcome "${happened.outcome}", since ${happened.why}; the client wrote "${report.outcome}" to RELAY_RESULT_FILE.`, {
        expected: happened.outcome,
        actual: report.outcome,
      })
    }
    if (happened.outcome === 'paid' && report.paymentId !== undefined && !happened.paymentIds.includes(report.paymentId)) {
      const expected = happened.paymentIds.at(-1)
      return fail(`Expected paymentId "${expected}", since ${happened.why}; the client wrote paymentId "${report.paymentId}".`, {
        expected,
        actual: report.paymentId,
      })
    }
    return pass(`The client reported "${report.outcome}"${report.paymentId ? ` with payment ${report.paymentId}` : ''}, which is what happened.`)
  },
})
