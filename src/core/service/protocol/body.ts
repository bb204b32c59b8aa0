// A request's body: whether the service reads it, its content type and charset, its size within the
// limit, and its JSON; the refusals (400, 413, 415) when it cannot be read.
import { toProblem, type Reply } from '../problems.js'
import { readingOnce } from '../../once.js'
import type { Route } from '../route.js'
import { header, type Headers } from './headers.js'

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
  return (
    CONTENT_METHODS.has(request.method) &&
    (request.bodyTooLarge === true ||
      (request.bodyBytes ?? 0) > 0 ||
      (request.body !== undefined && /\S/.test(request.body)))
  )
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
    return {
      status: 400,
      problem:
        'The body is empty; the service expects a JSON object with the documented fields, sent with Content-Type: application/json.',
    }
  }
  const wrongType = contentTypeProblem(header(request.headers, 'content-type'))
  if (wrongType) return { status: 415, problem: wrongType }
  // A start that nests too deep nests too deep whole: the nesting is judged on a prefix too.
  if (request.body && nestsDeeperThan(request.body, MAX_DEPTH)) {
    return {
      status: 400,
      problem: `The body nests deeper than ${MAX_DEPTH} levels; the service's bodies nest two. Please send a JSON object with the documented fields.`,
    }
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
export function readJsonBody(
  request: BodyRequest,
  route: Route | undefined,
  limit: number,
): { value: unknown } | { reply: Reply } | undefined {
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
 * An answer's body as a JSON value, parsed once: the `json` its reader already holds (`null`: it is not
 * JSON, or was passed on as it came), else its text parsed; undefined when it is empty or not JSON.
 * @example jsonOf({ text: '[1]' }) // [1]
 */
export function jsonOf(answer: { text: string; json?: { value: unknown } | null }): unknown {
  if (answer.json !== undefined) return answer.json?.value
  if (answer.text === '') return undefined
  const read = parseJsonText(answer.text)
  return 'value' in read ? read.value : undefined
}

/**
 * The refusal a body still to come (`Expect: 100-continue`) earns from its headers alone, before a byte
 * of it is read, where the route reads it (see readsBody; its declared length stands in for it): a
 * declared Content-Length over the limit (413), or a type that is not JSON in UTF-8 (415), in
 * readJsonBody's order and with its words. What `Expect: 100-continue` is granted on, by the service's
 * routes and the dev tools' alike.
 * @example pendingBodyRefusal({ method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': '2' } }, routeById('POST /vehicles'), 1024)?.status // 415
 */
export function pendingBodyRefusal(
  request: { method: string; headers: Headers },
  route: Route | undefined,
  limit: number,
): Reply | undefined {
  const coming: BodyRequest = {
    method: request.method,
    headers: request.headers,
    bodyBytes: Number(header(request.headers, 'content-length')) || 0,
  }
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
      if (c === 92)
        i++ // a backslash escapes the next character
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
