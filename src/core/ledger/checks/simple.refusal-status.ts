// The ledger's check of `simple.refusal-status` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject } from '../../exchange/answer.js'
import { SIMPLE, confirmed, contradicted, json, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `simple.refusal-status`, or undefined when it says nothing of it. */
export function simpleRefusalStatus(o: Observed): CheckVerdict | undefined {
  const body = json(o)
  // Only a body the service reads as JSON is refused for its content (a malformed one is a 400 in relay-mock too).
  if (o.route !== SIMPLE || o.body === undefined || !isObject(body) || body.id !== undefined) return undefined
  if (silent(o.status)) return undefined
  const expected = '422 with message, no id'
  const came = `${o.status} {${Object.keys(body).join(', ')}}`
  if (o.status === 422) return confirmed(expected, came)
  if (o.status === 400) return contradicted(expected, came, '400')
  if (o.status === 200) return contradicted(expected, came, '200')
  return contradicted(expected, came)
}
