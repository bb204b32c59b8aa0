// The ledger's check of `create.status` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import {
  CREATES,
  SIMPLE,
  confirmed,
  contradicted,
  json,
  location,
  type CheckVerdict,
  type Observed,
} from './observed.js'

/** The verdict an answer gives `create.status`, or undefined when it says nothing of it. */
export function createStatus(o: Observed): CheckVerdict | undefined {
  const simpleSuccess = o.route === SIMPLE && isObject(json(o)) && (json(o) as Record<string, unknown>).id !== undefined
  if (!o.route || !(CREATES.has(o.route) || simpleSuccess) || !isSuccess(o.status)) return undefined
  const expected = '201 with Location'
  const link = location(o)
  const came = `${o.status} ${link ? `with Location: ${link}` : 'without Location'}`
  if (o.status === 201 && link) return confirmed(expected, came)
  if (o.status === 200 && !link) return contradicted(expected, came, '200-no-location')
  if (o.status === 201 && !link) return contradicted(expected, came, '201-no-location')
  return contradicted(expected, came)
}
