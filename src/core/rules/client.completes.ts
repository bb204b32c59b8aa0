// client.completes: the client exits 0 in every case: the customer's payment completes even when
// the owner is unknown or the service refuses. Needs the case: only the runner sees the process. A dead
// client is quoted by the line that names its error (crash.ts); one killed at the deadline is told what
// fits: to finish its visit in time where it had not reported yet, to end by itself where it had.
import { defineRule } from './define.js'
import { errorLine } from './crash.js'
import { fail, ms, pass, skip, whatHappened } from './facts.js'
import { hangsGivenUp } from './resend.js'
import type { JournalEntry } from '../service/journal.js'

/** What to bound for a visit that outlasted its deadline: its attempts where it keeps a timeout already, else every wait. */
function whatToBound(requests: ReadonlyArray<JournalEntry>): string {
  const [gaveUp] = hangsGivenUp(requests)
  if (!gaveUp) return 'every wait bounded (a timeout on each request, a bound on its retries)'
  return `its attempts bounded so that their timeouts and waits end in time (it keeps a timeout: it gave up on a hung request after ${ms(gaveUp.durationMs)})`
}

export default defineRule({
  id: 'client.completes',
  flows: ['advanced', 'simple'],
  title:
    "the client exits 0 in every case: the customer's payment completes even when the owner is unknown or the service refuses",
  cite: '§1 Advanced flow, rule 2; §1 Simple flow, rule 3 ("The location then completes the customer\'s payment"); §7 Errors, rule 2',
  needsCase: true,
  needs: ['client'],
  check({ client, flow, requests }) {
    if (!client) return skip('Needs the client run.')
    const seconds = (client.durationMs / 1000).toFixed(1)
    if (client.timedOut && client.report === undefined && client.reportError === undefined) {
      return fail(
        `Expected the client to finish and exit 0; it was stopped after ${Math.round(client.durationMs)} ms, still inside its visit (it had written no report): killed with its whole process tree (--timeout). Please let it finish the visit within the deadline: ${whatToBound(requests)}, or raise --timeout if it is only slow.`,
        {
          expected: 0,
          actual: 'timed out',
        },
      )
    }
    if (client.timedOut) {
      return fail(
        `Expected the client to finish and exit 0; it was stopped after ${Math.round(client.durationMs)} ms, still running: killed with its whole process tree (--timeout). Please make it end by itself once it has reported (close its connections, end its children, let go of stdout), or raise --timeout if it is only slow.`,
        {
          expected: 0,
          actual: 'timed out',
        },
      )
    }
    if (client.exitCode === 0) return pass('The client exited 0.')
    const happened = whatHappened(flow, requests)
    const how = client.exitCode === null ? `was killed by ${client.signal ?? 'a signal'}` : `exited ${client.exitCode}`
    const said = errorLine(client.stderr, client.stdout)
    return fail(
      `Expected exit status 0 (the customer's payment completes whatever the service answers); the client ${how} after ${seconds} s, when ${happened.why}${said ? `. Its error: "${said}"` : ''}.`,
      { expected: 0, actual: client.exitCode ?? client.signal },
    )
  },
})
