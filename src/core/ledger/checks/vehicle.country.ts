// The ledger's check of `vehicle.country` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `vehicle.country`, or undefined when it says nothing of it. */
export function vehicleCountry(o: Observed): CheckVerdict | undefined {
  const country = isObject(o.body) ? o.body.country : undefined
  if (o.route !== 'POST /vehicles' || typeof country !== 'string' || country === 'is' || !/^[a-z]{2}$/.test(country))
    return undefined
  if (silent(o.status)) return undefined
  const expected = `${country} accepted (any lower-case two-letter code)`
  if (isSuccess(o.status)) return confirmed(expected, String(o.status))
  if (o.status === 400 || o.status === 422) return contradicted(expected, String(o.status), 'is-only')
  return undefined
}
