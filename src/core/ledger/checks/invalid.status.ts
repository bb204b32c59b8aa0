// The ledger's check of `invalid.status` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { routeById } from '../../service/protocol.js'
import { validate } from '../../service/validate.js'
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `invalid.status`, or undefined when it says nothing of it. */
export function invalidStatus(o: Observed): CheckVerdict | undefined {
  const route = routeById(o.route)
  if (!route?.body || o.body === undefined || silent(o.status)) return undefined
  if (validate(route.body, o.body).success) return undefined
  const expected = '422 (a field the schema refuses)'
  if (o.status === 422) return confirmed(expected, '422')
  if (o.status === 400) return contradicted(expected, '400', '400')
  // Accepting it is a finding of its own (the service takes what relay-mock refuses), not a status.
  if (isSuccess(o.status)) return undefined
  return contradicted(expected, String(o.status))
}
