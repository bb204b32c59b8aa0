// The ledger's check of `http.options` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { header, resolveRoute, SERVICE_TABLE } from '../../service/protocol.js'
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `http.options`, or undefined when it says nothing of it. */
export function httpOptions(o: Observed): CheckVerdict | undefined {
  if (
    o.method !== 'OPTIONS' ||
    !('route' in resolveRoute(SERVICE_TABLE, 'GET', o.path) || 'route' in resolveRoute(SERVICE_TABLE, 'POST', o.path))
  )
    return undefined
  if (o.status === 429 || o.status >= 500) return undefined
  const allow = header(o.headers, 'allow')
  const expected = '204 with Allow'
  const came = `${o.status}${allow ? ` with Allow: ${allow}` : ''}`
  if (isSuccess(o.status) && allow) return confirmed(expected, came)
  if (o.status === 405) return contradicted(expected, came, '405')
  return contradicted(expected, came)
}
