// The ledger's check of `http.get-body` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `http.get-body`, or undefined when it says nothing of it. */
export function httpGetBody(o: Observed): CheckVerdict | undefined {
  if (o.method !== 'GET' || !o.hasBody || !o.route || silent(o.status)) return undefined
  const expected = 'the body ignored: answered as without it'
  if (o.status === 400 || o.status === 415 || o.status === 413)
    return contradicted(expected, String(o.status), 'refused')
  return confirmed(expected, String(o.status))
}
