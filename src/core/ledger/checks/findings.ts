// The answers that depart from the interface itself, whatever relay-mock assumed: a body that is not JSON,
// a documented field missing or of another type, an id not in UUID form, a link of another form, a body
// relay-mock refuses that the service accepted.
import { routeById } from '../../service/protocol.js'
import { UUID_PATTERN } from '../../service/schemas.js'
import { validate } from '../../service/validate.js'
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import { fieldTypes, isArraySchema, listedFields } from '../../exchange/record.js'
import { CREATES, SIMPLE, contentType, json, type Finding, type Observed } from './observed.js'

/** The fields every create's answer documents (§2). */
const CREATED_FIELDS = [
  ['id', 'string'],
  ['link', 'string'],
] as const

/**
 * The answer's departures from the interface itself: a body that is not JSON, a documented field missing
 * or of another type, an id not in UUID form, a link not of the form `/<resource>/<id>`, a body relay-mock
 * refuses that the service accepted.
 * @example findingsOf({ ...observed, route: 'POST /vehicles', status: 201, text: '{"id":"7"}' }) // [{ kind: 'id-not-uuid', ... }, { kind: 'field-missing', ... }]
 */
export function findingsOf(o: Observed): Finding[] {
  if (!o.route && !(o.path === '/rental-comapnies' || o.path === '/payment')) return []
  if (o.method === 'HEAD' || o.text === '') return []
  const where = o.route ?? `${o.method} ${o.path}`
  const body = json(o)
  if (body === undefined)
    return [
      {
        kind: 'not-json',
        message: `${where} answered ${o.status} with a body that is not JSON (${contentType(o) || 'no Content-Type'}); the interface's answers are all JSON (§1).`,
      },
    ]
  if (!isSuccess(o.status) || !o.route) return []
  const found: Finding[] = []
  const route = routeById(o.route)
  if (o.route && CREATES.has(o.route)) {
    const resource = o.route.slice('POST /'.length)
    fields(found, where, body, CREATED_FIELDS)
    if (isObject(body)) {
      idForm(found, where, 'id', body.id)
      if (typeof body.link === 'string' && typeof body.id === 'string' && body.link !== `/${resource}/${body.id}`) {
        found.push({
          kind: 'link-form',
          message: `${where} answered a link ${JSON.stringify(body.link)}, not /${resource}/<id> with its id (§2: link fields are /<resource>/<id>).`,
        })
      }
    }
    rejectedByRelayMock(found, o, route)
    return found
  }
  if (o.route === SIMPLE) {
    if (isObject(body) && body.id !== undefined) idForm(found, where, 'id', body.id)
    else if (!isObject(body) || typeof body.message !== 'string')
      found.push({
        kind: 'field-missing',
        message: `${where} answered ${o.status} with neither an id nor a message string (§7.1: a failure carries message).`,
      })
    if (isObject(body) && body.id !== undefined) rejectedByRelayMock(found, o, route)
    return found
  }
  const schema = route?.answers[200]?.schema
  const listed = listedFields(o.route)
  if (o.method !== 'GET' || o.status !== 200 || !schema || !listed) return found
  const list = isArraySchema(schema)
  if (list && !Array.isArray(body))
    return [
      { kind: 'field-type', message: `${where} answered a JSON ${typeof body}, not an array (§4: a JSON array).` },
    ]
  const records = list ? (body as unknown[]) : [body]
  const types = fieldTypes(schema)
  records.forEach((record, i) => {
    const at = list ? `${where} item ${i}` : where
    if (!isObject(record)) return found.push({ kind: 'field-type', message: `${at} is not an object.` })
    fields(found, at, record, types)
    for (const name of ['id', 'vehicleId', 'rentalCompanyId', 'locationId'])
      if (name in record) idForm(found, at, name, record[name])
  })
  return dedupe(found)
}

/** A create or simple payment the service accepted although relay-mock refuses its body (a schema's 422). */
function rejectedByRelayMock(found: Finding[], o: Observed, route: ReturnType<typeof routeById>): void {
  if (!route?.body || o.body === undefined) return
  const result = validate(route.body, o.body)
  if (!result.success) {
    const fieldsWrong = [...new Set(result.error.issues.map((issue) => issue.path.join('.') || '(body)'))].join(', ')
    found.push({
      kind: 'accepted-invalid',
      message: `${o.route} accepted (${o.status}) a body relay-mock refuses with 422 (${fieldsWrong}): relay-mock is stricter than the service there.`,
    })
  }
}

function fields(found: Finding[], where: string, body: unknown, types: ReadonlyArray<readonly [string, string]>): void {
  if (!isObject(body)) {
    found.push({
      kind: 'field-type',
      message: `${where} answered ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}, not an object.`,
    })
    return
  }
  for (const [name, type] of types) {
    if (!(name in body))
      found.push({ kind: 'field-missing', message: `${where} answered without the documented field ${name}.` })
    else if (jsonType(body[name]) !== type)
      found.push({ kind: 'field-type', message: `${where} answered ${name} as ${jsonType(body[name])}, not ${type}.` })
  }
}

function idForm(found: Finding[], where: string, name: string, value: unknown): void {
  if (typeof value === 'string' && !UUID_PATTERN.test(value)) {
    found.push({
      kind: 'id-not-uuid',
      message: `${where} answered ${name} ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}, not in UUID form (§2: identifiers are UUID strings).`,
    })
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function dedupe(found: Finding[]): Finding[] {
  if (found.length < 2) return found
  const seen = new Set<string>()
  return found.filter(
    (finding) =>
      !seen.has(finding.message.replace(/ item \d+/, '')) && seen.add(finding.message.replace(/ item \d+/, '')),
  )
}
