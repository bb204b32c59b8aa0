// The ledger's check of `auth.refusal` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { header } from '../../service/protocol.js'
import { confirmed, contradicted, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `auth.refusal`, or undefined when it says nothing of it. */
export function authRefusal(o: Observed): CheckVerdict | undefined {
  if (!o.route) return undefined
  const refused = o.status === 401 || o.status === 403
  if (o.bearer && !refused) return undefined
  const expected = '401 with WWW-Authenticate: Bearer'
  const challenge = header(o.headers, 'www-authenticate')
  const came = `${o.status}${challenge ? ` with WWW-Authenticate: ${challenge}` : ' without WWW-Authenticate'}${o.bearer ? '' : ' (no token sent)'}`
  if (o.status === 401 && challenge && /^bearer\b/i.test(challenge.trim())) return confirmed(expected, came)
  if (o.status === 403) return contradicted(expected, came, '403')
  if (o.status === 401) return contradicted(expected, came, '401-no-challenge')
  return contradicted(expected, came)
}
