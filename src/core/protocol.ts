// The protocol of the relay service, each rule of HTTP written once: which endpoint a method and path
// name (with the interface's two slips taught), Bearer parsing, the content type and charset of a body,
// and reading a body within its limits. The mock answers with these, the HAR reader names routes with
// them, and the rules judge clients with them, so a request the mock accepts never breaks an `http.*`
// or `auth.*` rule, and the reverse.
import { serviceRoutes } from './handlers/index.js'
import { toProblem, type Reply } from './problems.js'
import { FAULT_STEPS, RETRY_AFTER_DATE_AHEAD_S, RETRY_AFTER_SECONDS } from './faults.js'
import { readingOnce } from './once.js'
import type { Answer, Route } from './route.js'
import { problem, proxyPage } from './schemas.js'

/** Header names in lower case, as Node gives them. */
export type Headers = Record<string, string | string[] | undefined>

/** The slips the interface itself makes, taught rather than hidden. */
const KNOWN_SLIPS: Record<string, string> = {
  '/rental-comapnies':
    'The path is misspelled: use /rental-companies (the interface\'s request listing spells it "rental-comapnies" by mistake; its client code uses /rental-companies).',
}

export interface CompiledRoute {
  route: Route<any, any>
  segments: string[]
}

export function compileRoutes(routes: ReadonlyArray<Route<any, any>>): CompiledRoute[] {
  return routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }))
}

type Match = { route: Route<any, any>; params: Record<string, string> }

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

const heads = new WeakMap<Route<any, any>, Route<any, any>>()

/**
 * A GET route as HEAD answers it: the same schemas and handler (the pipeline then sends the headers
 * without the body), under an id of its own, so that the journal, the rules and the armed faults never
 * take a HEAD for the GET a flow expects.
 * @example headOf(vehiclesGet).id // 'HEAD /vehicles'
 */
export function headOf(route: Route<any, any>): Route<any, any> {
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

const readBearer = readingOnce((authorization): BearerVerdict => {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization)
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
}

/**
 * Reads a JSON body within the limit (in bytes): the value, or the refusal (413, 400, 415) that says why.
 * @example readJsonBody({ headers: { 'content-type': 'application/json' }, body: '{}' }, 1024) // { value: {} }
 */
export function readJsonBody(request: BodyInput, limit: number): { value: unknown } | { reply: Reply } {
  const tooLarge = sizeRefusal(request, limit)
  if (tooLarge) return { reply: tooLarge }
  if (!request.body || !/\S/.test(request.body)) {
    return { reply: toProblem(400, 'The body is empty; the service expects a JSON object with the documented fields, sent with Content-Type: application/json.') }
  }
  const wrongType = typeRefusal(request.headers)
  if (wrongType) return { reply: wrongType }
  if (nestsDeeperThan(request.body, MAX_DEPTH)) {
    return { reply: toProblem(400, `The body nests deeper than ${MAX_DEPTH} levels; the service's bodies nest two. Please send a JSON object with the documented fields.`) }
  }
  const read = parseJsonText(request.body)
  return 'value' in read ? read : { reply: toProblem(400, `${read.problem} Please send a JSON object.`) }
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
 * The refusal a body earns from its headers alone, before a byte of it is read: a declared
 * Content-Length over the limit (413), or a type that is not JSON in UTF-8 (415), in readJsonBody's
 * order and with its words. What `Expect: 100-continue` is granted on.
 * @example bodyHeadersRefusal({ 'content-type': 'text/plain', 'content-length': '2' }, 1024)?.status // 415
 */
export function bodyHeadersRefusal(headers: Headers, limit: number): Reply | undefined {
  return sizeRefusal({ headers }, limit) ?? typeRefusal(headers)
}

function sizeRefusal(request: BodyInput, limit: number): Reply | undefined {
  const declared = Number(header(request.headers, 'content-length'))
  // The limit is in bytes, as the Node server counts it: a string's length counts UTF-16 units.
  if (request.bodyTooLarge || declared > limit || (request.body && request.body.length > limit / 3 && utf8Bytes(request.body) > limit)) {
    return toProblem(413, `The body is larger than the ${limit} bytes the service accepts. Please send only the documented fields.`)
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
): { route: Route<any, any>; params: Record<string, string> } | { reply: Reply } {
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
  const message =
    path === '/payment' && method === 'GET'
      ? 'GET /payment is not an endpoint: the simple payment is POST /payment with a JSON body (the interface\'s request listing shows GET by mistake; its client code sends POST).'
      : `${method} ${path} is not an endpoint; ${path} answers ${allow}.`
  return toProblem(405, message, undefined, { allow })
}

function notFound(compiled: ReadonlyArray<CompiledRoute>, path: string): Reply {
  const slip = KNOWN_SLIPS[path] ?? KNOWN_SLIPS[path.replace(/\/+$/, '')]
  if (slip) return toProblem(404, slip)
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  const known = [...new Set(compiled.map((c) => c.route.path))]
  if (trimmed !== path && compiled.some((c) => matchPath(c, trimmed.split('/').slice(1)))) {
    return toProblem(404, `No endpoint has the path ${path}: drop the trailing slash (${trimmed}).`)
  }
  const near = known
    .map((candidate) => ({ candidate, distance: editDistance(trimmed, candidate.replace(/\/:id$/, '')) }))
    .sort((a, b) => a.distance - b.distance)[0]
  const hint = near && near.distance <= 3 ? ` Did you mean ${near.candidate}?` : ''
  const list = known.filter((p) => !p.includes(':')).join(', ')
  return toProblem(404, `No endpoint has the path ${path}.${hint} The service's paths are ${list} (and each link, e.g. /vehicles/<id>).`)
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]
}

/** The service's bodies nest two levels; JSON nested thousands deep only overflows stacks (JSON.stringify's, in the journal). */
export const MAX_DEPTH = 64

/** True when `text` opens more than `max` arrays or objects inside one another (outside strings). */
export function nestsDeeperThan(text: string, max: number): boolean {
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

/** A documented answer with its status: the pipeline gives several answers of one status (a 401 of two shapes). */
export type PipelineAnswer = Answer & { status: number }

/**
 * Every answer the pipeline itself can give a route beyond its handler's (the route table's `answers`):
 * the token check, the body's reading, the query's and body's schemas, and the faults a world may arm,
 * each (status, media type) it sends. The OpenAPI documents list these with the handler's answers, so
 * they say all a client may get. The faults that break the transport (reset, hang, truncated) send no
 * answer to list; `slow` sends the handler's, late.
 * @example pipelineAnswers(postVehicles).map((a) => a.status) // [401, 400, 413, 415, 422, 401, 429, 503, 500, 201]
 */
export function pipelineAnswers(route: Route<any, any>): PipelineAnswer[] {
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
    answers.push(refusal(401, 'The token was revoked (relay-mock: the fault token-revoked)', challenge))
    answers.push(refusal(429, 'Too many requests (relay-mock: the fault rate-limited); nothing was applied', { 'Retry-After': `an HTTP-date ${RETRY_AFTER_DATE_AHEAD_S} s ahead or more` }))
    answers.push(refusal(503, 'Unavailable just now (relay-mock: the fault unavailable); nothing was applied', { 'Retry-After': `seconds (${RETRY_AFTER_SECONDS})` }))
    answers.push(asProblem(500, 'The service failed after applying the request (relay-mock: the fault server-error): do not resend a POST blind'))
    // garbage lets the handler answer, then sends its status with a proxy's page instead of its body.
    for (const status of Object.keys(route.answers)) {
      answers.push({ status: Number(status), description: "A proxy's HTML error page in place of the answer, after the request was applied (relay-mock: the fault garbage)", schema: proxyPage, mediaType: 'text/html' })
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
