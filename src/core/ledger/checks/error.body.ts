// The ledger's check of `error.body` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject } from '../../exchange/answer.js'
import { SIMPLE, confirmed, contradicted, contentType, json, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `error.body`, or undefined when it says nothing of it. */
export function errorBody(o: Observed): CheckVerdict | undefined {
  if (!o.route && o.status !== 404 && o.status !== 405) return undefined
  if (o.status < 400 || o.method === 'HEAD' || o.route === SIMPLE) return undefined
  const body = json(o)
  const type = contentType(o)
  const expected = 'application/problem+json with message'
  const came = `${type || 'no Content-Type'}${isObject(body) ? ` {${Object.keys(body).join(', ')}}` : body === undefined ? ', not JSON' : ''}`
  const hasMessage = isObject(body) && typeof body.message === 'string'
  if (type.startsWith('application/problem+json') && hasMessage) return confirmed(expected, came)
  if (type.startsWith('application/json') && hasMessage && Object.keys(body).every((key) => key === 'message'))
    return contradicted(expected, came, 'json-message')
  return contradicted(expected, came)
}
