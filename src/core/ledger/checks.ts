// The assumption ledger held against a real service's answers: for each assumption, what in an answer
// confirms or contradicts relay-mock's choice (and which alternative the service made instead), and the
// answers that depart from the interface itself (findings). Plain data in, verdicts out: `relay-mock
// proxy` feeds it each upstream answer; the ledger itself is assumptions.ts.
import { ASSUMPTIONS, type AssumptionId } from './assumptions.js'
import { header, KNOWN_SLIPS, parseJsonText, resolveRoute, routeById, SERVICE_TABLE } from '../service/protocol.js'
import { normalizePlate } from '../service/schemas.js'
import { UUID_PATTERN } from '../service/schemas.js'
import { validate } from '../service/validate.js'
import type { LenientForm } from '../service/leniency.js'
import { STRICT, STRICT_VARIANTS } from '../service/variants.js'
import { FORM_CHECKS } from './form-checks.js'
import { isRecord as isObject } from '../exchange/answer.js'
import { fieldTypes, isArraySchema, listedFields } from '../exchange/record.js'
import { plateSent } from '../exchange/request.js'

/** One request and the real service's answer to it, as the checks read them. */
export interface Observed {
  /** The journal's seq of the request. */
  seq: number
  method: string
  path: string
  /** The query string as journaled (credentials masked), with its `?`, or ''. */
  search: string
  query: Readonly<Record<string, string>>
  /** The service's endpoint the request named (`POST /vehicles`), or null. */
  route: string | null
  /** The request's body as parsed JSON, when it was. */
  body: unknown
  /** Why relay-mock could not read the body, when a body it reads was unreadable: its refusal's status and sentence. */
  bodyError?: { status: 400 | 413 | 415; problem: string }
  /** Whether the request carried a body at all. */
  hasBody: boolean
  /** Whether the request carried a Bearer token at all. */
  bearer: boolean
  /** The upstream's answer. */
  status: number
  headers: Readonly<Record<string, string | string[] | undefined>>
  text: string
  /** The body as JSON, when the proxy has read it already (`null`: not JSON). */
  json?: { value: unknown } | null
  /** The forms beyond the interface's text the request used (see leniency.ts): the leniency checks read them. */
  forms?: readonly LenientForm[]
}

/** What a world's earlier answers taught: owners the service does not know, links it handed out. */
export interface Memory {
  unknownOwners: RecentSet
  links: RecentSet
  /** Plates of vehicles the service listed or created, as written, and in their matched form (normalizePlate). */
  plates: RecentSet
  platesMatched: RecentSet
}

/** At most this many owners and links are remembered per world: memory stays bounded. */
const MEMORY_MAX = 1000

/**
 * A world's fresh memory.
 * @example const memory = createMemory(); learn(observed, memory)
 */
export function createMemory(): Memory {
  return { unknownOwners: new RecentSet(), links: new RecentSet(), plates: new RecentSet(), platesMatched: new RecentSet() }
}

/**
 * The latest values seen, at most MEMORY_MAX of them: they go in two generations of at most half that
 * each; when the newer is full it becomes the older, and the older is dropped whole. Once full (and
 * but for values deleted), it holds between half the bound and the bound, the newest always, at no
 * cost per value beyond a Set's own: dropping the oldest values one by one, or copying the newer half
 * of one Set, costs more on every create.
 * @example const links = new RecentSet(); links.add('/vehicles/5f0c…'); links.has('/vehicles/5f0c…') // true
 */
export class RecentSet {
  #newer = new Set<string>()
  #older: Set<string> | undefined
  has(value: string): boolean {
    return this.#newer.has(value) || this.#older?.has(value) === true
  }
  add(value: string): void {
    if (this.has(value)) return
    if (this.#newer.size >= MEMORY_MAX / 2) {
      this.#older = this.#newer
      this.#newer = new Set()
    }
    this.#newer.add(value)
  }
  delete(value: string): void {
    this.#newer.delete(value)
    this.#older?.delete(value)
  }
  get size(): number {
    return this.#newer.size + (this.#older?.size ?? 0)
  }
}

/** A check's verdict on one answer. */
export interface CheckVerdict {
  status: 'confirmed' | 'contradicted'
  /** The ledger's alternative the answer matches, when it matches one. */
  alternative?: string
  /** What relay-mock would have answered, in a few words. */
  expected: string
  /** What came, in a few words. */
  came: string
  /** The fields a record carried beyond the listed ones, with the values seen (records.extra-fields): what calibration serves. */
  extra?: Record<string, unknown>
}

/** A check of one assumption: the verdict an answer gives it, or undefined when the answer says nothing of it. */
export type AssumptionCheck = (observed: Observed, memory: Memory) => CheckVerdict | undefined

/** An assumption traffic cannot show: why not, in one sentence. */
export interface NotObservable {
  notObservable: string
}

/** An answer that departs from the interface itself, whatever relay-mock assumed. */
export interface Finding {
  /** What kind of departure: `not-json`, `field-missing`, `field-type`, `id-not-uuid`, `link-form`, `upstream-trouble`, `accepted-invalid`, `too-large-to-check`. */
  kind: string
  /** Where and what, one sentence; the same departure at the same place has the same message. */
  message: string
}

const CREATES = new Set(['POST /vehicles', 'POST /custodians', 'POST /payments'])
/** The headers a paged list answer names its pages by. */
const PAGING_HEADERS = ['link', 'x-next-page', 'x-total-count']
/** The fields every create's answer documents (§2). */
const CREATED_FIELDS = [['id', 'string'], ['link', 'string']] as const
const SIMPLE = 'POST /payment'

const ok = (status: number) => status >= 200 && status < 300
const location = (o: Observed) => header(o.headers as Record<string, string | string[] | undefined>, 'location')
const contentType = (o: Observed) => (header(o.headers as Record<string, string | string[] | undefined>, 'content-type') ?? '').toLowerCase()

/** The answer's body as JSON, or undefined when it is empty or not JSON: parsed once per answer, whichever check asks first. */
function json(o: Observed): unknown {
  if (o.text === '') return undefined
  if (o.json !== undefined) return o.json?.value
  if (parsed.has(o)) return parsed.get(o)
  const read = parseJsonText(o.text)
  const value = 'value' in read ? read.value : undefined
  parsed.set(o, value)
  return value
}
const parsed = new WeakMap<Observed, unknown>()

const confirmed = (expected: string, came: string): CheckVerdict => ({ status: 'confirmed', expected, came })
const contradicted = (expected: string, came: string, alternative?: string): CheckVerdict => ({ status: 'contradicted', expected, came, ...(alternative ? { alternative } : {}) })

/**
 * Each assumption of the ledger, once: its check, or why traffic cannot show it. A test holds this
 * table to the ledger, so that an assumption added there without deciding here is caught.
 */
export const ASSUMPTION_CHECKS: Record<AssumptionId, AssumptionCheck | NotObservable> = {
  'create.status'(o) {
    const simpleSuccess = o.route === SIMPLE && isObject(json(o)) && (json(o) as Record<string, unknown>).id !== undefined
    if (!o.route || !(CREATES.has(o.route) || simpleSuccess) || !ok(o.status)) return undefined
    const expected = '201 with Location'
    const link = location(o)
    const came = `${o.status} ${link ? `with Location: ${link}` : 'without Location'}`
    if (o.status === 201 && link) return confirmed(expected, came)
    if (o.status === 200 && !link) return contradicted(expected, came, '200-no-location')
    if (o.status === 201 && !link) return contradicted(expected, came, '201-no-location')
    return contradicted(expected, came)
  },
  'invalid.status'(o) {
    const route = routeById(o.route)
    if (!route?.body || o.body === undefined || o.status === 401 || o.status === 403 || o.status >= 500 || o.status === 429) return undefined
    if (validate(route.body, o.body).success) return undefined
    const expected = '422 (a field the schema refuses)'
    if (o.status === 422) return confirmed(expected, '422')
    if (o.status === 400) return contradicted(expected, '400', '400')
    // Accepting it is a finding of its own (the service takes what relay-mock refuses), not a status.
    if (ok(o.status)) return undefined
    return contradicted(expected, String(o.status))
  },
  'error.body'(o) {
    if (!o.route && o.status !== 404 && o.status !== 405) return undefined
    if (o.status < 400 || o.method === 'HEAD' || o.route === SIMPLE) return undefined
    const body = json(o)
    const type = contentType(o)
    const expected = 'application/problem+json with message'
    const came = `${type || 'no Content-Type'}${isObject(body) ? ` {${Object.keys(body).join(', ')}}` : body === undefined ? ', not JSON' : ''}`
    const hasMessage = isObject(body) && typeof body.message === 'string'
    if (type.startsWith('application/problem+json') && hasMessage) return confirmed(expected, came)
    if (type.startsWith('application/json') && hasMessage && Object.keys(body).every((key) => key === 'message')) return contradicted(expected, came, 'json-message')
    return contradicted(expected, came)
  },
  'auth.refusal'(o) {
    if (!o.route) return undefined
    const refused = o.status === 401 || o.status === 403
    if (o.bearer && !refused) return undefined
    const expected = '401 with WWW-Authenticate: Bearer'
    const challenge = header(o.headers as Record<string, string | string[] | undefined>, 'www-authenticate')
    const came = `${o.status}${challenge ? ` with WWW-Authenticate: ${challenge}` : ' without WWW-Authenticate'}${o.bearer ? '' : ' (no token sent)'}`
    if (o.status === 401 && challenge && /^bearer\b/i.test(challenge.trim())) return confirmed(expected, came)
    if (o.status === 403) return contradicted(expected, came, '403')
    if (o.status === 401) return contradicted(expected, came, '401-no-challenge')
    return contradicted(expected, came)
  },
  'simple.answer'(o) {
    const body = json(o)
    if (o.route !== SIMPLE || !ok(o.status) || !isObject(body) || body.id === undefined) return undefined
    const expected = 'id, status "new" and message'
    const came = `{${Object.keys(body).join(', ')}}`
    if (typeof body.status === 'string' && typeof body.message === 'string') {
      return body.status === 'new' ? confirmed(expected, came) : contradicted(expected, `${came}, status ${JSON.stringify(body.status)}`, 'status-accepted')
    }
    if (Object.keys(body).every((key) => key === 'id')) return contradicted(expected, came, 'id-only')
    return contradicted(expected, came)
  },
  'simple.refusal-status'(o) {
    const body = json(o)
    // Only a body the service reads as JSON is refused for its content (a malformed one is a 400 in relay-mock too).
    if (o.route !== SIMPLE || o.body === undefined || !isObject(body) || body.id !== undefined) return undefined
    if (o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = '422 with message, no id'
    const came = `${o.status} {${Object.keys(body).join(', ')}}`
    if (o.status === 422) return confirmed(expected, came)
    if (o.status === 400) return contradicted(expected, came, '400')
    if (o.status === 200) return contradicted(expected, came, '200')
    return contradicted(expected, came)
  },
  'simple.unknown-owner'(o, memory) {
    const owner = isObject(o.body) && isObject(o.body.vehicle) ? o.body.vehicle.owner : undefined
    if (o.route !== SIMPLE || typeof owner !== 'string' || !memory.unknownOwners.has(owner)) return undefined
    if (o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const body = json(o)
    const expected = `refused (no id): ${owner} is no rental company (GET /rental-companies answered [])`
    if (isObject(body) && body.id !== undefined) return contradicted(expected, `${o.status} with id ${String(body.id)}`, 'accepted')
    return confirmed(expected, `${o.status} without id`)
  },
  'records.extra-fields'(o) {
    const create = o.route !== null && CREATES.has(o.route) && ok(o.status)
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
  },
  'links.fetchable'(o, memory) {
    if (o.method !== 'GET' || !memory.links.has(o.path) || o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = `GET ${o.path} answers the record`
    if (o.status === 200) return confirmed(expected, '200')
    if (o.status === 404 || o.status === 405 || o.status === 410) return contradicted(expected, String(o.status), 'not-fetchable')
    return contradicted(expected, String(o.status))
  },
  'slip.path'(o) {
    if (o.path !== '/rental-comapnies' || o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = '404'
    if (o.status === 404) return confirmed(expected, '404')
    if (ok(o.status)) return contradicted(expected, String(o.status), 'served')
    return contradicted(expected, String(o.status))
  },
  'slip.method'(o) {
    if (o.method !== 'GET' || o.path !== '/payment' || o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = '405'
    if (o.status === 405) return confirmed(expected, '405')
    if (o.status === 404) return contradicted(expected, '404', '404')
    if (ok(o.status) && o.hasBody) return contradicted(expected, `${o.status} (served with its body)`, 'get-with-body')
    return contradicted(expected, String(o.status))
  },
  'request.refusals'(o) {
    // A path or method the service lacks (the slips have assumptions of their own), or a body it cannot read.
    if (o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const slip = KNOWN_SLIPS.some((known) => known.path === o.path && (known.method === undefined || known.method === o.method))
    let expected: number | undefined
    if (!o.route && !slip) {
      const found = resolveRoute(SERVICE_TABLE, o.method, o.path)
      if ('reply' in found && (found.reply.status === 404 || found.reply.status === 405)) expected = found.reply.status
    } else if (o.route && o.bodyError !== undefined) {
      expected = o.bodyError.status
    }
    if (expected === undefined) return undefined
    const what = `${expected}`
    if (o.status === expected) return confirmed(what, String(o.status))
    if (o.status === 400) return contradicted(what, '400', '400-all')
    if (ok(o.status) && o.bodyError !== undefined) return contradicted(what, `${o.status} (the body was read anyway)`, o.bodyError.status === 415 ? 'json-without-content-type' : undefined)
    return contradicted(what, String(o.status))
  },
  'http.head'(o) {
    if (o.method !== 'HEAD' || !o.route || o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = "GET's status and headers, no body"
    if (o.status === 405) return contradicted(expected, '405', '405')
    return confirmed(expected, String(o.status))
  },
  'http.options'(o) {
    if (o.method !== 'OPTIONS' || !('route' in resolveRoute(SERVICE_TABLE, 'GET', o.path) || 'route' in resolveRoute(SERVICE_TABLE, 'POST', o.path))) return undefined
    if (o.status === 429 || o.status >= 500) return undefined
    const allow = header(o.headers as Record<string, string | string[] | undefined>, 'allow')
    const expected = '204 with Allow'
    const came = `${o.status}${allow ? ` with Allow: ${allow}` : ''}`
    if (ok(o.status) && allow) return confirmed(expected, came)
    if (o.status === 405) return contradicted(expected, came, '405')
    return contradicted(expected, came)
  },
  'http.expect-continue': { notObservable: 'relay-mock proxy answers 100 Continue itself and forwards the whole request, so the upstream never sees Expect.' },
  'request.check-order'(o) {
    const route = routeById(o.route)
    if (o.bearer || !route?.body) return undefined
    const badBody = o.bodyError !== undefined || (o.body !== undefined && !validate(route.body, o.body).success)
    if (!badBody || o.status === 429 || o.status >= 500) return undefined
    const expected = '401 (the token is checked before the body)'
    if (o.status === 401 || o.status === 403) return confirmed(expected, String(o.status))
    if (o.status === 400 || o.status === 413 || o.status === 415 || o.status === 422) return contradicted(expected, `${o.status} (the body before the token)`, 'body-first')
    return contradicted(expected, String(o.status))
  },
  'http.get-body'(o) {
    if (o.method !== 'GET' || !o.hasBody || !o.route || o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = 'the body ignored: answered as without it'
    if (o.status === 400 || o.status === 415 || o.status === 413) return contradicted(expected, String(o.status), 'refused')
    return confirmed(expected, String(o.status))
  },
  'time.zone': { notObservable: "Timestamps go from the client to the service; how the service reads their zone does not show in its answers." },
  'custodian.acquired-on'(o) {
    // A refusal says whether acquiredOn was the reason only where its words name the field.
    if (o.status >= 400 && o.status < 500 && !o.text.includes('acquiredOn')) return undefined
    return leniency(o, 'custodian.acquired-on', 'a bare date taken')
  },
  'amount.unit': { notObservable: "The unit is what an amount means; the service's answers carry no unit." },
  'vehicle.country'(o) {
    const country = isObject(o.body) ? o.body.country : undefined
    if (o.route !== 'POST /vehicles' || typeof country !== 'string' || country === 'is' || !/^[a-z]{2}$/.test(country)) return undefined
    if (o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = `${country} accepted (any lower-case two-letter code)`
    if (ok(o.status)) return confirmed(expected, String(o.status))
    if (o.status === 400 || o.status === 422) return contradicted(expected, String(o.status), 'is-only')
    return undefined
  },
  'kennitala.format'(o) {
    const kennitala = o.query.kennitala
    if (o.route !== 'GET /rental-companies' || !kennitala || !/^\d{6}-\d{4}$/.test(kennitala)) return undefined
    if (o.status === 401 || o.status === 403 || o.status === 429 || o.status >= 500) return undefined
    const expected = '422: a kennitala is ten digits, no hyphen'
    const body = json(o)
    if (o.status === 422 || o.status === 400) return confirmed(expected, String(o.status))
    if (o.status === 200 && Array.isArray(body) && body.length > 0) return contradicted(expected, `200 with ${body.length} companies`, 'hyphen')
    return undefined
  },
  'plate.format'(o, memory) {
    const asked = plateSent(o)?.plate
    const body = json(o)
    if (o.route !== 'GET /vehicles' || o.status !== 200 || typeof asked !== 'string' || !asked || !Array.isArray(body)) return undefined
    // A plate the service holds, asked for written otherwise, and not found: it matches plates as sent.
    if (body.length === 0 && !memory.plates.has(asked) && memory.platesMatched.has(normalizePlate(asked))) {
      return contradicted('plates matched without regard to case, spaces or hyphens', `${JSON.stringify(asked)} found nothing, where the service holds the plate written otherwise`, 'exact-match')
    }
    // Seen only when the service matched a plate written otherwise (case, spaces, hyphens).
    const otherwise = body.find((item) => isObject(item) && typeof item.plate === 'string' && item.plate !== asked && normalizePlate(item.plate) === normalizePlate(asked))
    if (!otherwise) return undefined
    return confirmed('plates matched without regard to case, spaces or hyphens', `${JSON.stringify(asked)} found ${JSON.stringify((otherwise as { plate: string }).plate)}`)
  },
  'location.id': { notObservable: "The proxy does not know the location's id, and a refused payment does not say in a form relay-mock can read that the location was the reason." },
  'vehicles.several'(o) {
    const body = json(o)
    if (o.route !== 'GET /vehicles' || o.status !== 200 || !Array.isArray(body) || body.length < 2) return undefined
    return confirmed('several active vehicles may share a plate', `${body.length} vehicles for ${JSON.stringify(plateSent(o)?.plate ?? '')}`)
  },
  'query.extra'(o) {
    return leniency(o, 'query.extra', 'extra or repeated parameters ignored')
  },
  'lists.paging'(o) {
    const body = json(o)
    if ((o.route !== 'GET /rental-companies' && o.route !== 'GET /vehicles') || o.status !== 200) return undefined
    const pagingHeader = PAGING_HEADERS.find((name) => header(o.headers as Record<string, string | string[] | undefined>, name) !== undefined)
    const expected = 'a JSON array of every match, no paging'
    if (pagingHeader) return contradicted(expected, `paged (${pagingHeader} header)`, 'paged')
    if (isObject(body) && ('next' in body || 'items' in body || 'data' in body)) return contradicted(expected, `an object {${Object.keys(body).join(', ')}}`, 'paged')
    return Array.isArray(body) ? confirmed(expected, `an array of ${body.length}`) : undefined
  },
  'query.encoding': {
    notObservable: 'Seen only where a plate with a space, sent with `+`, names a vehicle the service holds; neither a lookup that finds nothing nor one that finds it tells which reading found it.',
  },
  'auth.scheme'(o) {
    return leniency(o, 'auth.scheme', 'the scheme read in any case and spacing')
  },
  'request.content-type'(o) {
    return leniency(o, 'request.content-type', 'any JSON media type read')
  },
  ...FORM_CHECKS,
}

/**
 * The check of a leniency (see leniency.ts): a request that used its form and was answered as any other
 * confirms relay-mock's choice; one refused with the status the strict alternative answers contradicts it.
 * Trouble, limits and other refusals tell nothing.
 */
function leniency(o: Observed, id: string, accepted: string): CheckVerdict | undefined {
  const form = o.forms?.find((f) => f.assumption === id)
  if (!form || o.status === 429 || o.status >= 500) return undefined
  const expected = `${accepted} (${form.where}: ${form.sent})`
  if (ok(o.status)) return confirmed(expected, String(o.status))
  // Only the strict alternative's own status: a 400 for a 415's form may be the service refusing something else.
  if (o.status === form.status) return contradicted(expected, String(o.status), form.alternative)
  return undefined
}

/** The lookups whose items are records with a link of their own, `<path>/<id>`. */
const LISTS = new Set(['GET /rental-companies', 'GET /vehicles'])

/**
 * What an answer teaches about later ones in its world: an owner the service does not know (an empty
 * GET /rental-companies), each link a create handed out (its `link` and `Location`), and the link of
 * each record a lookup listed (`/vehicles/<id>`, `/rental-companies/<id>`): a record the service has
 * just shown exists, so a 404 to its link says the link cannot be fetched.
 */
export function learn(o: Observed, memory: Memory): void {
  const body = json(o)
  if (o.route === 'GET /rental-companies' && o.status === 200 && Array.isArray(body) && o.query.kennitala) {
    if (body.length === 0) memory.unknownOwners.add(o.query.kennitala)
    else memory.unknownOwners.delete(o.query.kennitala)
  }
  if (o.route && LISTS.has(o.route) && o.status === 200 && Array.isArray(body)) {
    for (const item of body) if (isObject(item) && typeof item.id === 'string' && /^[\w-]{1,100}$/.test(item.id)) memory.links.add(`${o.path}/${item.id}`)
  }
  const plates = o.route === 'GET /vehicles' && o.status === 200 && Array.isArray(body) ? body.map((item) => (isObject(item) ? item.plate : undefined)) : o.route === 'POST /vehicles' && ok(o.status) ? [plateSent(o)?.plate] : []
  for (const plate of plates) {
    if (typeof plate !== 'string') continue
    memory.plates.add(plate)
    memory.platesMatched.add(normalizePlate(plate))
  }
  if (o.route && CREATES.has(o.route) && ok(o.status)) {
    if (isObject(body) && typeof body.link === 'string') memory.links.add(body.link)
    const link = location(o)
    if (link?.startsWith('/')) memory.links.add(link)
  }
}

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
  if (body === undefined) return [{ kind: 'not-json', message: `${where} answered ${o.status} with a body that is not JSON (${contentType(o) || 'no Content-Type'}); the interface's answers are all JSON (§1).` }]
  if (!ok(o.status) || !o.route) return []
  const found: Finding[] = []
  const route = routeById(o.route)
  if (o.route && CREATES.has(o.route)) {
    const resource = o.route.slice('POST /'.length)
    fields(found, where, body, CREATED_FIELDS)
    if (isObject(body)) {
      idForm(found, where, 'id', body.id)
      if (typeof body.link === 'string' && typeof body.id === 'string' && body.link !== `/${resource}/${body.id}`) {
        found.push({ kind: 'link-form', message: `${where} answered a link ${JSON.stringify(body.link)}, not /${resource}/<id> with its id (§2: link fields are /<resource>/<id>).` })
      }
    }
    rejectedByRelayMock(found, o, route)
    return found
  }
  if (o.route === SIMPLE) {
    if (isObject(body) && body.id !== undefined) idForm(found, where, 'id', body.id)
    else if (!isObject(body) || typeof body.message !== 'string') found.push({ kind: 'field-missing', message: `${where} answered ${o.status} with neither an id nor a message string (§7.1: a failure carries message).` })
    if (isObject(body) && body.id !== undefined) rejectedByRelayMock(found, o, route)
    return found
  }
  const schema = route?.answers[200]?.schema
  const listed = listedFields(o.route)
  if (o.method !== 'GET' || o.status !== 200 || !schema || !listed) return found
  const list = isArraySchema(schema)
  if (list && !Array.isArray(body)) return [{ kind: 'field-type', message: `${where} answered a JSON ${typeof body}, not an array (§4: a JSON array).` }]
  const records = list ? (body as unknown[]) : [body]
  const types = fieldTypes(schema)
  records.forEach((record, i) => {
    const at = list ? `${where} item ${i}` : where
    if (!isObject(record)) return found.push({ kind: 'field-type', message: `${at} is not an object.` })
    fields(found, at, record, types)
    for (const name of ['id', 'vehicleId', 'rentalCompanyId', 'locationId']) if (name in record) idForm(found, at, name, record[name])
  })
  return dedupe(found)
}

/** A create or simple payment the service accepted although relay-mock refuses its body (a schema's 422). */
function rejectedByRelayMock(found: Finding[], o: Observed, route: ReturnType<typeof routeById>): void {
  if (!route?.body || o.body === undefined) return
  const result = validate(route.body, o.body)
  if (!result.success) {
    const fieldsWrong = [...new Set(result.error.issues.map((issue) => issue.path.join('.') || '(body)'))].join(', ')
    found.push({ kind: 'accepted-invalid', message: `${o.route} accepted (${o.status}) a body relay-mock refuses with 422 (${fieldsWrong}): relay-mock is stricter than the service there.` })
  }
}

function fields(found: Finding[], where: string, body: unknown, types: ReadonlyArray<readonly [string, string]>): void {
  if (!isObject(body)) {
    found.push({ kind: 'field-type', message: `${where} answered ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}, not an object.` })
    return
  }
  for (const [name, type] of types) {
    if (!(name in body)) found.push({ kind: 'field-missing', message: `${where} answered without the documented field ${name}.` })
    else if (jsonType(body[name]) !== type) found.push({ kind: 'field-type', message: `${where} answered ${name} as ${jsonType(body[name])}, not ${type}.` })
  }
}

function idForm(found: Finding[], where: string, name: string, value: unknown): void {
  if (typeof value === 'string' && !UUID_PATTERN.test(value)) {
    found.push({ kind: 'id-not-uuid', message: `${where} answered ${name} ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}, not in UUID form (§2: identifiers are UUID strings).` })
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
  return found.filter((finding) => !seen.has(finding.message.replace(/ item \d+/, '')) && seen.add(finding.message.replace(/ item \d+/, '')))
}

/**
 * The ids of the variant cases of `conform` that hold a client to an alternative of an assumption, as a
 * `--case` pattern, and the command that runs them. The one place that knows the cases' id form.
 * @example variantCases('create.status', '200-no-location').command // "relay-mock conform --suite variants --case 'variants/create.status=200-no-location/*'"
 */
export function variantCases(assumptionId: string, alternativeId?: string): { pattern: string; command: string } {
  // The alternatives that refuse a lenient form are varied together, in the strict world.
  const strict = STRICT_VARIANTS[assumptionId] !== undefined && (alternativeId === undefined || STRICT_VARIANTS[assumptionId] === alternativeId)
  const pattern = strict ? `variants/${STRICT}/*` : alternativeId ? `variants/${assumptionId}=${alternativeId}/*` : `variants/${assumptionId}=*`
  return { pattern, command: `relay-mock conform --suite variants --case '${pattern}'` }
}

/** The ledger's ids, for the test that holds ASSUMPTION_CHECKS to it. */
export const LEDGER_IDS: readonly string[] = ASSUMPTIONS.map((entry) => entry.id)
