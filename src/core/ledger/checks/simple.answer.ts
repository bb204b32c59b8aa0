// The ledger's check of `simple.answer` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import { SIMPLE, confirmed, contradicted, json, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `simple.answer`, or undefined when it says nothing of it. */
export function simpleAnswer(o: Observed): CheckVerdict | undefined {
  const body = json(o)
  if (o.route !== SIMPLE || !isSuccess(o.status) || !isObject(body) || body.id === undefined) return undefined
  const expected = 'id, status "new" and message'
  const came = `{${Object.keys(body).join(', ')}}`
  if (typeof body.status === 'string' && typeof body.message === 'string') {
    return body.status === 'new'
      ? confirmed(expected, came)
      : contradicted(expected, `${came}, status ${JSON.stringify(body.status)}`, 'status-accepted')
  }
  if (Object.keys(body).every((key) => key === 'id')) return contradicted(expected, came, 'id-only')
  return contradicted(expected, came)
}
