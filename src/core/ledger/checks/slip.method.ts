// The ledger's check of `slip.method` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `slip.method`, or undefined when it says nothing of it. */
export function slipMethod(o: Observed): CheckVerdict | undefined {
  if (o.method !== 'GET' || o.path !== '/payment' || silent(o.status)) return undefined
  const expected = '405'
  if (o.status === 405) return confirmed(expected, '405')
  if (o.status === 404) return contradicted(expected, '404', '404')
  if (isSuccess(o.status) && o.hasBody)
    return contradicted(expected, `${o.status} (served with its body)`, 'get-with-body')
  return contradicted(expected, String(o.status))
}
