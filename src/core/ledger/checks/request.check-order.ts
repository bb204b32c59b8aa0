// The ledger's check of `request.check-order` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { routeById } from '../../service/protocol.js'
import { validate } from '../../service/validate.js'
import { confirmed, contradicted, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `request.check-order`, or undefined when it says nothing of it. */
export function requestCheckOrder(o: Observed): CheckVerdict | undefined {
  const route = routeById(o.route)
  if (o.bearer || !route?.body) return undefined
  const badBody = o.bodyError !== undefined || (o.body !== undefined && !validate(route.body, o.body).success)
  if (!badBody || o.status === 429 || o.status >= 500) return undefined
  const expected = '401 (the token is checked before the body)'
  if (o.status === 401 || o.status === 403) return confirmed(expected, String(o.status))
  if (o.status === 400 || o.status === 413 || o.status === 415 || o.status === 422)
    return contradicted(expected, `${o.status} (the body before the token)`, 'body-first')
  return contradicted(expected, String(o.status))
}
