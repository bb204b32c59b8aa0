// The protocol of the relay service, each rule of HTTP written once: which endpoint a method and path
// name (with the interface's two slips taught), Bearer parsing, the content type and charset of a body,
// and reading a body within its limits. The mock answers with these, the HAR reader names routes with
// them, and the rules judge clients with them, so a request the mock accepts never breaks an `http.*`
// or `auth.*` rule, and the reverse.
import { serviceRoutes, type ServiceRouteId } from './handlers/index.js'
import { toProblem, type Reply } from './problems.js'
import { FAULT_STEPS, RATE_LIMITED_AHEAD, RETRY_AFTER_SECONDS, type FaultKind } from './faults.js'
import { readingOnce } from '../once.js'
import { editDistance } from '../text.js'
import { TOKEN_CHARACTERS } from './token.js'
import { MASK_MARK } from '../mask.js'
import type { Answer, Route } from './route.js'
import { problem, proxyPage } from './schemas.js'

/** Header names in lower case, as Node gives them. */
export type Headers = Record<string, string | string[] | undefined>

/** One slip of the interface's text: a request it writes by mistake, the endpoint it means, and what the mock says. */
export interface Slip {
  /** The method written by mistake; undefined when the path is wrong whatever the method. */
  method?: string
  /** The path as the interface writes it. */
  path: string
  /** The endpoint the interface means, as the route table names it. */
  meant: ServiceRouteId
  /** The mock's answer to the slip: what was wrong, and what to send. */
  message: string
}

/**
 * The interface's two slips, taught rather than hidden: the mock answers them (404, 405) with their
 * message, the HAR reader finds the service's requests by them, and the live page starts a visit at them.
 * @example KNOWN_SLIPS.find((slip) => slip.path === '/rental-comapnies')?.meant // 'GET /rental-companies'
 */
export const KNOWN_SLIPS: ReadonlyArray<Slip> = Object.freeze([
  {
    path: '/rental-comapnies',
    meant: 'GET /rental-companies',
    message:
      'The path is misspelled: use /rental-companies (the interface\'s request listing spells it "rental-comapnies" by mistake; its client code uses /rental-companies).',
  },
  {
    method: 'GET',
    path: '/payment',
    meant: 'POST /payment',
    message:
      'GET /payment is not an endpoint: the simple payment is POST /payment with a JSON body (the interface\'s request listing shows GET by mistake; its client code sends POST).',
  },
])

export interface CompiledRoute {
  route: Route
  segments: string[]
}

export function compileRoutes(routes: ReadonlyArray<Route>): CompiledRoute[] {
  return routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }))
}

type Match = { route: Route; params: Record<string, string> }

/** Every route of a table that a path's segments match, in the table's order, with their parameters. */
function matchesOf(compiled: ReadonlyArray<CompiledRoute>, parts: string[]): Match[] {
  const matches: Match[] = []
  for (const candidate of compiled) {
    const params = matchPath(candidate, parts)
    if (params) matches.push({ route: candidate.route, params })
  }
  return matches
}

const staticIndexes = new WeakMap<ReadonlyArray<CompiledRoute>, Map<string, readonly Match[]>>()

/**
 * The matches of each path a table names without parameters (`/vehicles`), found once per table:
 * what nearly every request asks for, resolved without splitting its path. Frozen: requests share them.
 */
function staticMatches(compiled: ReadonlyArray<CompiledRoute>): Map<string, readonly Match[]> {
  let index = staticIndexes.get(compiled)
  if (!index) {
    index = new Map()
    for (const { route } of compiled) {
      if (route.path.includes(':') || index.has(route.path)) continue
      const matches = matchesOf(compiled, route.path.split('/').slice(1))
      for (const match of matches) Object.freeze(Object.freeze(match).params)
      index.set(route.path, Object.freeze(matches))
    }
    staticIndexes.set(compiled, index)
  }
  return index
}

function matchPath(compiled: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (compiled.segments.length !== parts.length) return undefined
  let params: Record<string, string> | undefined
  for (let i = 0; i < parts.length; i++) {
    const segment = compiled.segments[i]
    if (segment.startsWith(':')) {
      // `/vehicles/` is a trailing slash, not a vehicle with an empty id.
      if (parts[i] === '') return undefined
      ;(params ??= {})[segment.slice(1)] = safeDecode(parts[i])
    } else if (segment !== parts[i]) return undefined
  }
  return params ?? {}
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A header's value, repeated values joined as HTTP joins them; names in lower case. */
export function header(headers: Headers | undefined, name: string): string | undefined {
  const value = headers?.[name]
  return Array.isArray(value) ? value.join(', ') : value
}


/**
 * The hop-by-hop headers of RFC 9110 7.6.1 (and the ones older proxies still send): they describe one
 * connection, so a proxy never forwards them; the names a `Connection` header lists are dropped too.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
])

/**
 * The headers a proxy forwards: every one but the hop-by-hop ones and those `Connection` names, and
 * none of `drop` (the proxy sets `host`, `content-length` and the like itself).
 * @example endToEnd({ connection: 'close, x-trace', 'x-trace': '1', accept: '*\/*' }) // { accept: '*\/*' }
 */
export function endToEnd(headers: Headers, drop: ReadonlySet<string> = NO_NAMES): Record<string, string | string[]> {
  const connection = header(headers, 'connection')
  // Most say only keep-alive or close, which name no header of their own.
  const named = connection === undefined || PLAIN_CONNECTION.test(connection) ? NO_NAMES : new Set(connection.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean))
  const out: Record<string, string | string[]> = {}
  for (const name in headers) {
    const value = headers[name]
    const lower = name.toLowerCase()
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower) || drop.has(lower)) continue
    out[lower] = value
  }
  return out
}

const NO_NAMES: ReadonlySet<string> = new Set()
const PLAIN_CONNECTION = /^\s*(?:keep-alive|close)\s*$/i

/** The service's own route table, compiled once. */
export const SERVICE_TABLE: ReadonlyArray<CompiledRoute> = compileRoutes(serviceRoutes)

/**
 * The documented endpoint a method and path name, e.g. `GET /vehicles`; null when none does.
 * @example routeOf('GET', '/vehicles') // 'GET /vehicles'
 */
export function routeOf(method: string, path: string, table: ReadonlyArray<CompiledRoute> = SERVICE_TABLE): string | null {
  const parts = path.split('/').slice(1)
  const lookup = method === 'HEAD' ? 'GET' : method
  for (const candidate of table) {
    if (candidate.route.method === lookup && matchPath(candidate, parts)) return method === 'HEAD' ? headOf(candidate.route).id : candidate.route.id
  }
  return null
}

/** The order `Allow` lists methods in: the reading ones first, OPTIONS last. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']

/**
 * The `Allow` header of a path whose routes answer `methods`: HEAD wherever GET is (RFC 9110 9.3.2),
 * and OPTIONS, which every known path answers.
 * @example allowOf(['POST', 'GET']) // 'GET, HEAD, POST, OPTIONS'
 */
export function allowOf(methods: Iterable<string>): string {
  const all = new Set(methods)
  if (all.has('GET')) all.add('HEAD')
  all.add('OPTIONS')
  return [...all].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(', ')
}

const heads = new WeakMap<Route, Route>()

/**
 * A GET route as HEAD answers it: the same schemas and handler (the pipeline then sends the headers
 * without the body), under an id of its own, so that the journal, the rules and the armed faults never
 * take a HEAD for the GET a flow expects.
 * @example headOf(vehiclesGet).id // 'HEAD /vehicles'
 */
export function headOf(route: Route): Route {
  let head = heads.get(route)
  if (!head) {
    head = { ...route, method: 'HEAD' as Route['method'], id: `HEAD ${route.path}` }
    heads.set(route, head)
  }
  return head
}

/**
 * The query string's parameters; a repeated name keeps its last value, as the service reads it. A string
 * with nothing to decode (the usual `?plate=AB123`) is split by hand: URLSearchParams costs more than
 * the rest of a lookup.
 * @example parseQuery('?plate=AB123&x=1') // { plate: 'AB123', x: '1' }
 */
export function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {}
  if (search.length <= 1) return query
  if (search.includes('%') || search.includes('+')) {
    for (const [k, v] of new URLSearchParams(search)) query[k] = v
    return query
  }
  let at = 1
  while (at <= search.length) {
    let end = search.indexOf('&', at)
    if (end === -1) end = search.length
    if (end > at) {
      const eq = search.indexOf('=', at)
      if (eq === -1 || eq > end) query[search.slice(at, end)] = ''
      else query[search.slice(at, eq)] = search.slice(eq + 1, end)
    }
    at = end + 1
  }
  return query
}

/**
 * parseQuery, frozen, answering the same object again for the same query string as last time: a client
 * repeats its lookups, and their journal entries share the one reading.
 */
export const parseQueryOnce: (search: string) => Readonly<Record<string, string>> = readingOnce((search) => Object.freeze(parseQuery(search)))

/** What an Authorization header says: no header, not `Bearer <token>`, or a token. */
export type BearerVerdict = { verdict: 'missing' } | { verdict: 'malformed' } | { verdict: 'ok'; token: string }

/**
 * Reads `Authorization: Bearer <token>` (the scheme in any case, one token, no other parameters).
 * @example parseBearer('Bearer abc') // { verdict: 'ok', token: 'abc' }
 */
export function parseBearer(authorization: string | undefined): BearerVerdict {
  if (authorization === undefined || authorization === '') return { verdict: 'missing' }
  return readBearer(authorization)
}

// The token's characters are token.ts's, which the command line's --token check shares. A token as the
// journal keeps it (masked: `…cdef`, or `…` for a short one) is read as a token too: the rules read the
// journal's headers with this function, and a client that sends a masked token has sent a token that
// names no world (401), not a malformed header.
const bearerPattern = new RegExp(`^Bearer +(${MASK_MARK}(?:${TOKEN_CHARACTERS})?|${TOKEN_CHARACTERS})\\s*$`, 'i')

const readBearer = readingOnce((authorization): BearerVerdict => {
  const match = bearerPattern.exec(authorization)
  return Object.freeze(match ? { verdict: 'ok', token: match[1] } : { verdict: 'malformed' })
})

/**
 * Why a body's Content-Type is not one the service reads, or undefined when it is: JSON
 * (`application/json`, or a `+json` type such as `application/vnd.relay+json`), in UTF-8 (no charset,
 * or `charset=utf-8`). The sentence says what was sent and what to send.
 * @example contentTypeProblem('text/plain') // 'The body is sent as text/plain; the service reads only JSON. ...'
 */
export function contentTypeProblem(type: string | undefined): string | undefined {
  if (!type) return 'The request has a body but no Content-Type header. Please send Content-Type: application/json.'
  return judgeContentType(type)
}

const judgeContentType = readingOnce((type): string | undefined => {
  const [media, ...parameters] = type.split(';')
  if (!/^\s*application\/(?:[\w.+-]+\+)?json\s*$/i.test(media)) {
    return `The body is sent as ${type}; the service reads only JSON. Please send the header Content-Type: application/json.`
  }
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim())
    if (name.toLowerCase() === 'charset' && !/^"?utf-?8"?$/i.test(value)) {
      return `The body is sent in the charset ${value || '(empty)'}; JSON is UTF-8 (RFC 8259). Please send Content-Type: application/json (or application/json; charset=utf-8) and UTF-8 bytes.`
    }
  }
  return undefined
})

/** A request's body as a transport hands it over. */
export interface BodyInput {
  headers: Headers
  body?: string
  /** Set by a transport that stopped reading a body beyond the limit. */
  bodyTooLarge?: boolean
  /**
   * The whole body's size in bytes when `body` holds only its start (a journal or a capture that kept a
   * prefix). Only what a start shows is then judged: the size, the type, the nesting; never whether the
   * rest is JSON.
   */
  bodyBytes?: number
}

/** A request as far as reading its body goes: its method, its headers and its body. */
export interface BodyRequest extends BodyInput {
  method: string
}

/**
 * What the service makes of a body it reads: the value; a start of it that shows nothing wrong (see
 * `bodyBytes`); or the refusal, its status and the sentence that says what was wrong and what to send.
 */
export type BodyVerdict = { value: unknown } | { partial: true } | { status: 400 | 413 | 415; problem: string }

/**
 * The methods whose content has a meaning of its own (RFC 9110 9.3.3, 9.3.4; RFC 5789): a body sent
 * with them is read where no schema asks for one. A GET's, HEAD's, DELETE's or OPTIONS' body has none
 * (RFC 9110 9.3.1), so the service ignores it, as a careful real service does.
 */
const CONTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH'])

/**
 * Whether the service reads a request's body, the one answer of the mock, its journal, the HAR reader
 * and `http.json-body`: always where the route's schema asks for a body (even when none came: that
 * is the empty-body refusal); where it asks for none, a body sent with POST, PUT or PATCH (a dev tool's
 * optional `{"scenario": ...}`, or a body sent to a path no route answers, judged as the client meant
 * it). Any other body is ignored, never refused: a GET's.
 * @example readsBody({ method: 'GET', headers: {}, body: 'x' }, routeById('GET /vehicles')) // false
 */
export function readsBody(request: BodyRequest, route: Route | undefined): boolean {
  if (route?.body) return true
  return CONTENT_METHODS.has(request.method) && (request.bodyTooLarge === true || (request.bodyBytes ?? 0) > 0 || (request.body !== undefined && /\S/.test(request.body)))
}

/**
 * The service's verdict on a request's body (within `limit` bytes), or undefined when it reads none (see
 * readsBody): the one reading behind the mock's 400, 413 and 415, the journal's `bodyError`, the HAR
 * reader, and `http.json-body`. The checks come in the mock's order: size, presence, type, nesting, JSON.
 * @example bodyVerdict({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }, routeById('POST /vehicles'), 1024) // { status: 415, problem: 'The body is sent as text/plain; ...' }
 */
export function bodyVerdict(request: BodyRequest, route: Route | undefined, limit: number): BodyVerdict | undefined {
  if (!readsBody(request, route)) return undefined
  const tooLarge = sizeProblem(request, limit)
  if (tooLarge) return { status: 413, problem: tooLarge }
  const partial = request.bodyBytes !== undefined
  if (!partial && (!request.body || !/\S/.test(request.body))) {
    return { status: 400, problem: 'The body is empty; the service expects a JSON object with the documented fields, sent with Content-Type: application/json.' }
  }
  const wrongType = contentTypeProblem(header(request.headers, 'content-type'))
  if (wrongType) return { status: 415, problem: wrongType }
  // A start that nests too deep nests too deep whole: the nesting is judged on a prefix too.
  if (request.body && nestsDeeperThan(request.body, MAX_DEPTH)) {
    return { status: 400, problem: `The body nests deeper than ${MAX_DEPTH} levels; the service's bodies nest two. Please send a JSON object with the documented fields.` }
  }
  if (partial) return { partial: true }
  const read = parseJsonText(request.body!)
  return 'value' in read ? read : { status: 400, problem: `${read.problem} Please send a JSON object.` }
}

/**
 * Why the service refuses a request's body, as the sentence its refusal says; undefined when it reads
 * the body (or reads none, see readsBody). bodyVerdict's sentence alone.
 * @example bodyProblem({ method: 'POST', headers: { 'content-type': 'application/json' } }, routeById('POST /vehicles'), 1024) // 'The body is empty; ...'
 */
export function bodyProblem(request: BodyRequest, route: Route | undefined, limit: number): string | undefined {
  const verdict = bodyVerdict(request, route, limit)
  return verdict && 'problem' in verdict ? verdict.problem : undefined
}

/**
 * Reads a request's body as `route` reads it, within the limit (in bytes): undefined when it reads none
 * (see readsBody), else the value (undefined for an optional body not sent), or the refusal (413, 400,
 * 415) that says why. The service's routes and the dev tools' read their bodies with it.
 * @example readJsonBody({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, routeById('POST /vehicles'), 1024) // { value: {} }
 */
export function readJsonBody(request: BodyRequest, route: Route | undefined, limit: number): { value: unknown } | { reply: Reply } | undefined {
  const verdict = bodyVerdict(request, route, limit)
  if (verdict === undefined || 'value' in verdict) return verdict
  // A transport hands over whole bodies: `partial` is a journal's or a capture's, never a request's.
  if ('partial' in verdict) return { value: undefined }
  return { reply: toProblem(verdict.status, verdict.problem) }
}

/**
 * A body's text read as JSON, the one way the mock, the HAR reader and the rules read it: the value, or
 * the sentence that says why it is not JSON.
 * @example parseJsonText('{plate: 1}') // { problem: 'The body is not valid JSON (Expected property name ... at position 1).' }
 */
export function parseJsonText(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { problem: `The body is not valid JSON (${(error as Error).message}).` }
  }
}

/**
 * The refusal a body still to come (`Expect: 100-continue`) earns from its headers alone, before a byte
 * of it is read, where the route reads it (see readsBody; its declared length stands in for it): a
 * declared Content-Length over the limit (413), or a type that is not JSON in UTF-8 (415), in
 * readJsonBody's order and with its words. What `Expect: 100-continue` is granted on, by the service's
 * routes and the dev tools' alike.
 * @example pendingBodyRefusal({ method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': '2' } }, routeById('POST /vehicles'), 1024)?.status // 415
 */
export function pendingBodyRefusal(request: { method: string; headers: Headers }, route: Route | undefined, limit: number): Reply | undefined {
  const coming: BodyRequest = { method: request.method, headers: request.headers, bodyBytes: Number(header(request.headers, 'content-length')) || 0 }
  if (!readsBody(coming, route)) return undefined
  return sizeRefusal({ headers: request.headers }, limit) ?? typeRefusal(request.headers)
}

function sizeRefusal(request: BodyInput, limit: number): Reply | undefined {
  const problem = sizeProblem(request, limit)
  return problem ? toProblem(413, problem) : undefined
}

function sizeProblem(request: BodyInput, limit: number): string | undefined {
  const declared = Number(header(request.headers, 'content-length'))
  // The limit is in bytes, as the Node server counts it: a string's length counts UTF-16 units.
  const body = request.body
  const whole = request.bodyBytes ?? (body && body.length > limit / 3 ? utf8Bytes(body) : 0)
  if (request.bodyTooLarge || declared > limit || whole > limit) {
    return `The body is larger than the ${limit} bytes the service accepts. Please send only the documented fields.`
  }
  return undefined
}

function typeRefusal(headers: Headers): Reply | undefined {
  const problem = contentTypeProblem(header(headers, 'content-type'))
  return problem ? toProblem(415, problem) : undefined
}

/**
 * The route a method and path reach, or the protocol's own answer: 204 with `Allow` for OPTIONS on a
 * known path, 405 with `Allow` for a method the path lacks, 404 (with the nearest path) for an unknown
 * path, whatever the method. HEAD reaches the path's GET route (see headOf).
 * @example resolveRoute(SERVICE_TABLE, 'OPTIONS', '/vehicles') // { reply: { status: 204, headers: { allow: 'GET, HEAD, POST, OPTIONS' } } }
 */
export function resolveRoute(
  compiled: ReadonlyArray<CompiledRoute>,
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { reply: Reply } {
  const lookup = method === 'HEAD' ? 'GET' : method
  const matches = staticMatches(compiled).get(path) ?? matchesOf(compiled, path.split('/').slice(1))
  // A static path's match is answered as it is (frozen, shared): no object is made for a lookup.
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i]
    if (match.route.method === lookup) return method === 'HEAD' ? { route: headOf(match.route), params: match.params } : match
  }
  const allowed = matches.map((match) => match.route.method)
  if (allowed.length === 0) return { reply: notFound(compiled, path) }
  // OPTIONS describes the path, not a world: it needs no token, and its answer has no body.
  if (method === 'OPTIONS') return { reply: { status: 204, body: undefined, headers: { allow: allowOf(allowed) } } }
  return { reply: methodNotAllowed(method, path, allowed) }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): Reply {
  const allow = allowOf(allowed)
  const slip = KNOWN_SLIPS.find((known) => known.method === method && known.path === path)
  return toProblem(405, slip?.message ?? `${method} ${path} is not an endpoint; ${path} answers ${allow}.`, undefined, { allow })
}

function notFound(compiled: ReadonlyArray<CompiledRoute>, path: string): Reply {
  const trimmed = withoutTrailingSlash(path)
  const slip = KNOWN_SLIPS.find((known) => known.method === undefined && (known.path === path || known.path === trimmed))
  if (slip) return toProblem(404, slip.message)
  const known = [...new Set(compiled.map((c) => c.route.path))]
  if (trimmed !== path && compiled.some((c) => matchPath(c, trimmed.split('/').slice(1)))) {
    return toProblem(404, `No endpoint has the path ${path}: drop the trailing slash (${trimmed}).`)
  }
  const near = nearestPath(compiled, trimmed)
  const hint = near ? ` Did you mean ${near}?` : ''
  const list = known.filter((p) => !p.includes(':')).join(', ')
  return toProblem(404, `No endpoint has the path ${path}.${hint} The service's paths are ${list} (and each link, e.g. /vehicles/<id>).`)
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/** The table's path nearest to `path` (a link's `/:id` left off), when at most 3 edits away: the 404's "Did you mean". */
function nearestPath(compiled: ReadonlyArray<CompiledRoute>, path: string): string | undefined {
  const near = [...new Set(compiled.map((c) => c.route.path))]
    .map((candidate) => ({ candidate, distance: editDistance(path, candidate.replace(/\/:id$/, '')) }))
    .sort((a, b) => a.distance - b.distance)[0]
  return near && near.distance <= 3 ? near.candidate : undefined
}

/**
 * The path of the table a request's path names or most likely means, as the mock's 404 teaches it:
 * its own route's, the same without a trailing slash, the path a known slip means, or the nearest
 * (at most 3 edits away); undefined when none is near. What the live page starts a visit by.
 * @example meantPath('/rental-comapnies') // '/rental-companies'
 */
export function meantPath(path: string, table: ReadonlyArray<CompiledRoute> = SERVICE_TABLE): string | undefined {
  const trimmed = withoutTrailingSlash(path)
  const parts = trimmed.split('/').slice(1)
  const own = table.find((candidate) => matchPath(candidate, parts))
  if (own) return own.route.path
  const slip = KNOWN_SLIPS.find((known) => known.path === trimmed)
  if (slip) return routeById(slip.meant)?.path
  return nearestPath(table, trimmed)
}

/**
 * The route of the service's table an endpoint's name gives (`POST /vehicles`, `HEAD /vehicles` too);
 * undefined for null (a request no route answered) or a name the table does not have.
 * @example routeById('POST /vehicles')?.body !== undefined // true: it reads a body
 */
export function routeById(id: string | null): Route | undefined {
  return id === null ? undefined : routesById.get(id)
}

const routesById: ReadonlyMap<string, Route> = new Map(
  SERVICE_TABLE.flatMap(({ route }) => (route.method === 'GET' ? [route, headOf(route)] : [route]).map((each) => [each.id, each] as const)),
)

/** The service's bodies nest two levels; JSON nested thousands deep only overflows stacks (JSON.stringify's, in the journal). */
const MAX_DEPTH = 64

/** True when `text` opens more than `max` arrays or objects inside one another (outside strings). */
function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false
  // Fewer brackets than the depth cannot nest that deep: counted natively, without reading strings.
  let brackets = 0
  for (const open of ['{', '[']) {
    for (let at = text.indexOf(open); at !== -1 && brackets <= max; at = text.indexOf(open, at + 1)) brackets++
  }
  if (brackets <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** The UTF-8 length of a string, without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // 2 bytes below U+0800, 3 above; a surrogate pair (2 units) is 4 bytes.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2
  }
  return bytes
}

/** The media type of a problem answer (RFC 9457). */
export const PROBLEM_JSON = 'application/problem+json'

/**
 * A documented answer with its status: the pipeline gives several answers of one status (a 401 of two
 * shapes). `fault`: the answer is sent only when that fault is armed (relay-mock's test tool, not a
 * claim about the service).
 */
export type PipelineAnswer = Answer & { status: number; fault?: FaultKind }

/**
 * Every answer the pipeline itself can give a route beyond its handler's (the route table's `answers`):
 * the token check, the body's reading, the query's and body's schemas, and the faults a world may arm,
 * each (status, media type) it sends. The OpenAPI documents list these with the handler's answers, so
 * they say all a client may get. The faults that break the transport (reset, hang, truncated) send no
 * answer to list; `slow` sends the handler's, late.
 * @example pipelineAnswers(postVehicles).map((a) => a.status) // [401, 400, 413, 415, 422, 401, 429, 503, 500, 201]
 */
export function pipelineAnswers(route: Route): PipelineAnswer[] {
  const asProblem = (status: number, description: string, headers?: Record<string, string>): PipelineAnswer => ({ status, description, schema: problem, mediaType: PROBLEM_JSON, headers })
  // Refusals before the handler take the route's own shape where it has one (the simple endpoint's).
  const refusal = (status: number, description: string, headers?: Record<string, string>): PipelineAnswer =>
    route.refuse ? { status, description, schema: route.refusal ?? problem, mediaType: 'application/json', headers } : asProblem(status, description, headers)
  const challenge = { 'WWW-Authenticate': 'Bearer realm="relay" (for a revoked token also error="invalid_token")' }
  const answers = [asProblem(401, 'The Authorization header is missing, is not `Bearer <token>`, names no token, or the token was revoked', challenge)]
  if (route.body) {
    answers.push(refusal(400, 'The body is empty, is not JSON, or nests deeper than 64 levels'))
    answers.push(refusal(413, 'The body is larger than the limit (1 MiB by default)'))
    answers.push(refusal(415, 'The body is not sent as JSON in UTF-8 (`Content-Type: application/json`)'))
  }
  if (route.body || route.query) answers.push(refusal(422, 'A field is missing or invalid: `errors` names each, with what was expected'))
  if ((Object.values(FAULT_STEPS) as string[]).includes(route.id)) {
    // What the mock sends when a fault is armed on this route (see FAULT_KINDS).
    answers.push({ ...refusal(401, 'The token was revoked (relay-mock: the fault token-revoked)', challenge), fault: 'token-revoked' })
    answers.push({ ...refusal(429, 'Too many requests (relay-mock: the fault rate-limited); nothing was applied', { 'Retry-After': `an HTTP-date ${RATE_LIMITED_AHEAD}` }), fault: 'rate-limited' })
    answers.push({ ...refusal(503, 'Unavailable just now (relay-mock: the fault unavailable); nothing was applied', { 'Retry-After': `seconds (${RETRY_AFTER_SECONDS})` }), fault: 'unavailable' })
    answers.push({ ...asProblem(500, 'The service failed after applying the request (relay-mock: the fault server-error): do not resend a POST blind'), fault: 'server-error' })
    // garbage lets the handler answer, then sends its status with a proxy's page instead of its body.
    for (const status of Object.keys(route.answers)) {
      answers.push({ status: Number(status), description: "A proxy's HTML error page in place of the answer, after the request was applied (relay-mock: the fault garbage)", schema: proxyPage, mediaType: 'text/html', fault: 'garbage' })
    }
  }
  return answers
}

/**
 * The answers the pipeline gives a path rather than an operation: a method the path lacks, and a path
 * no operation has. The OpenAPI documents list them under `components.responses`.
 * @example PATH_ANSWERS.MethodNotAllowed.status // 405
 */
export const PATH_ANSWERS = {
  MethodNotAllowed: {
    status: 405,
    description: 'The path has no operation for this method (e.g. `GET /payment`): `Allow` lists the methods it answers',
    schema: problem,
    mediaType: PROBLEM_JSON,
    headers: { Allow: "The path's methods, HEAD wherever GET is, and OPTIONS" },
  },
  UnknownPath: {
    status: 404,
    description: 'No operation has this path, whatever the method: the message names the nearest path',
    schema: problem,
    mediaType: PROBLEM_JSON,
  },
} as const satisfies Record<string, PipelineAnswer>
