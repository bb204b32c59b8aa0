// The ledger's check of `slip.path` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `slip.path`, or undefined when it says nothing of it. */
export function slipPath(o: Observed): CheckVerdict | undefined {
  if (o.path !== '/rental-comapnies' || silent(o.status)) return undefined
  const expected = '404'
  if (o.status === 404) return confirmed(expected, '404')
  if (isSuccess(o.status)) return contradicted(expected, String(o.status), 'served')
  return contradicted(expected, String(o.status))
}
