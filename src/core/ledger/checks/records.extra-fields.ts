// The ledger's check of `records.extra-fields` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import { listedFields } from '../../exchange/record.js'
import { CREATES, confirmed, contradicted, json, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `records.extra-fields`, or undefined when it says nothing of it. */
export function recordsExtraFields(o: Observed): CheckVerdict | undefined {
  const create = o.route !== null && CREATES.has(o.route) && isSuccess(o.status)
  if (!create && (o.method !== 'GET' || o.status !== 200)) return undefined
  const listed = create ? ['id', 'link'] : listedFields(o.route)
  if (!listed) return undefined
  const body = json(o)
  let records = 0
  let extra: Set<string> | undefined
  for (const record of Array.isArray(body) ? body : [body]) {
    if (!isObject(record)) continue
    records++
    for (const key in record) if (!listed.includes(key)) (extra ??= new Set()).add(key)
  }
  if (records === 0) return undefined
  const expected = `exactly ${listed.join(', ')}`
  if (!extra) return confirmed(expected, `the listed fields (${o.route})`)
  const first = (Array.isArray(body) ? body : [body]).find(isObject) as Record<string, unknown>
  const values: Record<string, unknown> = {}
  for (const key of extra) if (key in first) values[key] = first[key]
  return { ...contradicted(expected, `more fields: ${[...extra].join(', ')} (${o.route})`, 'extra'), extra: values }
}
