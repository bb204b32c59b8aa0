// The ledger's check of `http.head` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `http.head`, or undefined when it says nothing of it. */
export function httpHead(o: Observed): CheckVerdict | undefined {
  if (o.method !== 'HEAD' || !o.route || silent(o.status)) return undefined
  const expected = "GET's status and headers, no body"
  if (o.status === 405) return contradicted(expected, '405', '405')
  return confirmed(expected, String(o.status))
}
