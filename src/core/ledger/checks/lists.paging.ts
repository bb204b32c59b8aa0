// The ledger's check of `lists.paging` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { header } from '../../service/protocol.js'
import { isRecord as isObject } from '../../exchange/answer.js'
import { confirmed, contradicted, json, type CheckVerdict, type Observed } from './observed.js'

/** The headers a paged list answer names its pages by. */
const PAGING_HEADERS = ['link', 'x-next-page', 'x-total-count']

/** The verdict an answer gives `lists.paging`, or undefined when it says nothing of it. */
export function listsPaging(o: Observed): CheckVerdict | undefined {
  const body = json(o)
  if ((o.route !== 'GET /rental-companies' && o.route !== 'GET /vehicles') || o.status !== 200) return undefined
  const pagingHeader = PAGING_HEADERS.find(
    (name) => header(o.headers as Record<string, string | string[] | undefined>, name) !== undefined,
  )
  const expected = 'a JSON array of every match, no paging'
  if (pagingHeader) return contradicted(expected, `paged (${pagingHeader} header)`, 'paged')
  if (isObject(body) && ('next' in body || 'items' in body || 'data' in body))
    return contradicted(expected, `an object {${Object.keys(body).join(', ')}}`, 'paged')
  return Array.isArray(body) ? confirmed(expected, `an array of ${body.length}`) : undefined
}
