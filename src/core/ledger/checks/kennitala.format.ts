// The ledger's check of `kennitala.format` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { confirmed, contradicted, json, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `kennitala.format`, or undefined when it says nothing of it. */
export function kennitalaFormat(o: Observed): CheckVerdict | undefined {
  const kennitala = o.query.kennitala
  if (o.route !== 'GET /rental-companies' || !kennitala || !/^\d{6}-\d{4}$/.test(kennitala)) return undefined
  if (silent(o.status)) return undefined
  const expected = '422: a kennitala is ten digits, no hyphen'
  const body = json(o)
  if (o.status === 422 || o.status === 400) return confirmed(expected, String(o.status))
  if (o.status === 200 && Array.isArray(body) && body.length > 0)
    return contradicted(expected, `200 with ${body.length} companies`, 'hyphen')
  return undefined
}
