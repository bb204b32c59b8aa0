// What rules read from a case's journal: the calls, their bodies, and the facts the mock's own
// answers establish (the company found, the vehicles listed, the vehicle created, the payment
// recorded). Deriving facts from the answers, not from the case's inputs, lets the rules that
// need no visit run live on the serve page too.
import type { JournalEntry } from '../service/journal.js'
import { parseJsonText } from '../service/protocol.js'
import { clipJson } from '../text.js'
import { serviceRoutes } from '../service/handlers/index.js'
import { isRecord } from '../exchange/answer.js'
import { answerLost, bodyOf, isAmbiguous, isFailure, isOk } from '../exchange/entry.js'
import { documentedParameters } from '../exchange/request.js'
import type { Flow, Outcome, RuleOutcome } from './types.js'

/** The endpoints the interface documents (not the mock's extra link routes). */
export const DOCUMENTED_ROUTES: ReadonlySet<string> = new Set(
  serviceRoutes.filter((route) => route.integration === 'advanced' || route.integration === 'simple').map((route) => route.id),
)

/** The documented endpoints of one flow, in the interface's order. */
export function routesOf(flow: Flow): string[] {
  return serviceRoutes.filter((route) => route.integration === flow).map((route) => route.id)
}

export function pass(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'passed', message, ...extra }
}

export function fail(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'failed', message, ...extra }
}

export function skip(message: string): RuleOutcome {
  return { status: 'skipped', message }
}

/** Safe, but not the best the interface allows: a pass unless the run is `--strict`. */
export function warn(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'warning', message, ...extra }
}

/** `POST /payments (request 3 of 4)`: which request, by method, path and position in the case. */
export function at(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): string {
  const position = requests.indexOf(entry) + 1
  return `${entry.request.method} ${entry.request.path}${entry.request.search} (request ${position} of ${requests.length})`
}

/** A short list of requests: `GET /vehicles (request 2 of 3), POST /payments (request 3 of 3)`. */
export function list(requests: ReadonlyArray<JournalEntry>, entries: ReadonlyArray<JournalEntry>, limit = 4): string {
  const shown = entries.slice(0, limit).map((entry) => at(requests, entry))
  return entries.length > limit ? `${shown.join(', ')} and ${entries.length - limit} more` : shown.join(', ')
}

/**
 * A value as the client sent it (or as expected), short enough for a message and cut only between whole
 * values: `"2490"` (a string) reads differently from `2490`.
 */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  return clipJson(value, 200)
}

/**
 * Why the rules cannot read the fields of a request's body, as a sentence, or undefined when they can (or it
 * has none): it is not JSON the service reads (http.json-body names that), or the journal kept only the
 * prefix of a long one, which the service read whole (a check of its fields would be a guess).
 */
export function bodyUnreadable(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): string | undefined {
  const { request } = entry
  // A capture may keep a body's size without its text: a body all the same, of unknown fields.
  if (request.body !== undefined || ((request.bodyText === undefined || request.bodyText === '') && !request.bodyTruncated)) return undefined
  const where = `Could not read the body of ${at(requests, entry)}`
  if (request.bodyError !== undefined) return `${where} (see http.json-body): ${request.bodyError}`
  if (request.bodyTruncated) {
    return `${where}: it is ${request.bodyBytes ?? 'more'} bytes, and the journal kept only its first ${request.bodyText?.length ?? 0} characters (journalBodyBytes, or what the capture held), so its fields are not checked.`
  }
  const read = parseJsonText(request.bodyText!)
  return 'value' in read ? undefined : `${where} (see http.json-body): ${read.problem}`
}

/** The value at a dotted path of a body, e.g. `amount.currency`. */
export function valueAt(body: unknown, path: string): unknown {
  let current = body
  for (const key of path.split('.')) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

/** How the client lost the answer, in a few words: `the connection was reset`. */
export function howLost(entry: JournalEntry): string {
  switch (entry.fault?.kind) {
    case 'reset':
      return 'the connection was reset (no answer)'
    case 'hang':
      return `no answer came (the client gave up after ${Math.round(entry.durationMs)} ms)`
    case 'truncated':
      return `the ${entry.response.status} answer was cut off halfway`
    case 'garbage':
      return `the ${entry.response.status} answer was a proxy's HTML page, not JSON`
    default:
      return entry.response.status === 0 ? 'no answer came' : `it answered ${entry.response.status}`
  }
}

/** What the client saw, in a few words: `answered 503`, or how the answer was lost. */
export function whatItGot(entry: JournalEntry): string {
  return answerLost(entry) ? howLost(entry) : `it answered ${entry.response.status}`
}

/** What the journal's times may lose between two requests on a busy machine (its clock, a late timer). */
export const CLOCK_SLACK_MS = 50

/**
 * True when `next` was sent before `prev`'s answer went out: the client had given up on `prev` at its
 * own timeout (on a machine too busy to answer in time) and never read that answer, so the answer's
 * status and Retry-After cannot be held against the retry.
 */
export function sentBeforeAnswer(prev: JournalEntry, next: JournalEntry): boolean {
  return waitBetween(prev, next) < -CLOCK_SLACK_MS
}

/** How long the client waited between the end of `prev` (its answer, or its giving up) and sending `next`, in ms. */
export function waitBetween(prev: JournalEntry, next: JournalEntry): number {
  return Date.parse(next.time) - (Date.parse(prev.time) + prev.durationMs)
}

/** The requests to documented endpoints: the calls the flow's order is judged on (http.known-endpoint judges the rest). */
export function calls(requests: ReadonlyArray<JournalEntry>): JournalEntry[] {
  return requests.filter((entry) => entry.route !== null && DOCUMENTED_ROUTES.has(entry.route))
}

/** The first documented call after `entry`, if any. */
export function callAfter(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): JournalEntry | undefined {
  const from = requests.indexOf(entry)
  return requests.slice(from + 1).find((next) => next.route !== null && DOCUMENTED_ROUTES.has(next.route))
}

export function callsTo(requests: ReadonlyArray<JournalEntry>, route: string): JournalEntry[] {
  return requests.filter((entry) => entry.route === route)
}

/** A lookup the mock answered with a list (200 and a JSON array). */
export interface ListAnswer {
  entry: JournalEntry
  items: Record<string, unknown>[]
}

/** The first call to `route` that the mock answered with a list. */
export function firstList(requests: ReadonlyArray<JournalEntry>, route: 'GET /rental-companies' | 'GET /vehicles'): ListAnswer | undefined {
  for (const entry of requests) {
    if (entry.route === route && entry.response.status === 200 && !answerLost(entry) && Array.isArray(entry.response.body)) {
      return { entry, items: entry.response.body as Record<string, unknown>[] }
    }
  }
  return undefined
}

/** The company lookup's answer: `found` with the first company, `empty`, or `none` (not made, or refused). */
export function companyFacts(requests: ReadonlyArray<JournalEntry>):
  | { kind: 'found'; entry: JournalEntry; company: Record<string, unknown>; count: number }
  | { kind: 'empty'; entry: JournalEntry }
  | { kind: 'none'; why: string } {
  const answer = firstList(requests, 'GET /rental-companies')
  if (answer) {
    return answer.items.length > 0
      ? { kind: 'found', entry: answer.entry, company: answer.items[0], count: answer.items.length }
      : { kind: 'empty', entry: answer.entry }
  }
  const tried = callsTo(requests, 'GET /rental-companies')[0]
  return {
    kind: 'none',
    why: tried
      ? `the company lookup ${at(requests, tried)} was refused (${tried.response.status}), so no company was found`
      : 'the client made no company lookup (GET /rental-companies), so no company was found',
  }
}

/** The vehicle lookup's answer: `found` with the listed vehicles, `empty`, or `none`. */
export function vehicleFacts(requests: ReadonlyArray<JournalEntry>):
  | { kind: 'found'; entry: JournalEntry; vehicles: Record<string, unknown>[] }
  | { kind: 'empty'; entry: JournalEntry }
  | { kind: 'none'; why: string } {
  const answer = firstList(requests, 'GET /vehicles')
  if (answer) return answer.items.length > 0 ? { kind: 'found', entry: answer.entry, vehicles: answer.items } : { kind: 'empty', entry: answer.entry }
  const tried = callsTo(requests, 'GET /vehicles')[0]
  return {
    kind: 'none',
    why: tried ? `the vehicle lookup ${at(requests, tried)} was refused (${tried.response.status})` : 'the client made no vehicle lookup (GET /vehicles)',
  }
}

/** The id the mock answered a creation with (`{id, link}`), when it created the record. */
export function createdId(entry: JournalEntry): string | undefined {
  if (!isOk(entry)) return undefined
  const id = valueAt(entry.response.body, 'id')
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** The vehicle the mock created after an empty vehicle list, and the request that created it. */
export function createdVehicle(requests: ReadonlyArray<JournalEntry>): { entry: JournalEntry; id: string } | undefined {
  const vehicles = vehicleFacts(requests)
  if (vehicles.kind !== 'empty') return undefined
  const from = requests.indexOf(vehicles.entry)
  const after = requests.slice(from + 1)
  for (const [i, entry] of after.entries()) {
    if (entry.route !== 'POST /vehicles') continue
    const id = createdId(entry)
    if (id) return { entry, id }
    // The answer was lost: the lookup that followed shows whether (and as what) it was created.
    if (isAmbiguous(entry)) {
      const lookup = after.slice(i + 1).find((next) => next.route !== null && DOCUMENTED_ROUTES.has(next.route))
      const listed = lookup?.route === 'GET /vehicles' && isOk(lookup) && Array.isArray(lookup.response.body) ? valueAt(lookup.response.body[0], 'id') : undefined
      if (lookup && typeof listed === 'string') return { entry: lookup, id: listed }
    }
  }
  return undefined
}

/** The mock's own explanation of a refusal: its `message`, and the fields it named. */
export function mockSaid(entry: JournalEntry): string | undefined {
  const message = valueAt(entry.response.body, 'message')
  return typeof message === 'string' ? message : undefined
}

/** The per-field problems the mock found in a body (a 422 with `errors`), as one sentence. */
export function fieldProblems(entry: JournalEntry): string | undefined {
  const errors = valueAt(entry.response.body, 'errors')
  if (!Array.isArray(errors) || errors.length === 0) return undefined
  return errors
    .map((error) => {
      const e = error as Record<string, unknown>
      return `${String(e.field)} ${String(e.problem)} (sent ${show(e.received)}; expected ${String(e.expected)})`
    })
    .join('; ')
}

/** What really happened to the visit's payment, judged from the mock's answers alone. */
export function whatHappened(flow: Flow, requests: ReadonlyArray<JournalEntry>): { outcome: Outcome; paymentIds: string[]; why: string } {
  const route = flow === 'advanced' ? 'POST /payments' : 'POST /payment'
  const payments = callsTo(requests, route)
  const paid: { entry: JournalEntry; id: string }[] = []
  for (const entry of payments) {
    // The simple endpoint's rule: an answer with `id` means accepted, whatever the HTTP status. Only an
    // answer the client received whole gave it an id.
    const id = flow === 'simple' ? (answerLost(entry) ? undefined : valueAt(entry.response.body, 'id')) : createdId(entry)
    if (typeof id === 'string' && id !== '') paid.push({ entry, id })
  }
  if (paid.length > 0) {
    const ids = paid.map((p) => p.id)
    const last = paid[paid.length - 1]
    return { outcome: 'paid', paymentIds: ids, why: `${at(requests, last.entry)} was answered with the payment id ${last.id}${ids.length > 1 ? ` (${ids.length} payments were recorded)` : ''}` }
  }
  if (flow === 'advanced') {
    const company = companyFacts(requests)
    if (company.kind === 'empty') {
      return { outcome: 'skipped', paymentIds: [], why: `${at(requests, company.entry)} answered [] (the owner is not part of the service)` }
    }
  }
  const last = payments.at(-1)
  if (last && isAmbiguous(last)) {
    const why = answerLost(last)
      ? `the answer to ${at(requests, last)} was lost (${howLost(last)}), so the client cannot know whether the payment was recorded`
      : `${at(requests, last)} was answered ${last.response.status}, which does not say whether the payment was recorded`
    return { outcome: 'unknown', paymentIds: [], why }
  }
  // Rejected: no payment was made and the client can know it. The service refused the payment (a 503 or
  // 429 among them: nothing was done), or the visit stopped before it (a lookup or a creation failed, the
  // token was refused): the client contract's outcomes, in the README.
  if (last) return { outcome: 'rejected', paymentIds: [], why: `${at(requests, last)} was answered ${last.response.status} without an id${mockSaid(last) ? `: "${mockSaid(last)}"` : ''}, so no payment was made` }
  const stopped = requests.filter((entry) => !isOk(entry)).at(-1)
  if (stopped) {
    const how = isFailure(stopped) ? `failed (${whatItGot(stopped)})` : `was refused (${stopped.response.status})`
    return { outcome: 'rejected', paymentIds: [], why: `${at(requests, stopped)} ${how} and the visit stopped before any payment was sent, so no payment was made` }
  }
  return { outcome: 'rejected', paymentIds: [], why: 'no payment was sent, so none was made' }
}

/**
 * The first request whose body has problems: the rule's own (`problemsOf`), else the field errors
 * the mock answered; undefined when every body is right.
 * @example firstFaultyBody(callsTo(requests, 'POST /payment'), (body) => problemsOf(body, visit))
 */
export function firstFaultyBody(
  entries: readonly JournalEntry[],
  problemsOf: (body: unknown) => string[],
): { entry: JournalEntry; problems: string[] } | undefined {
  for (const entry of entries) {
    const problems = problemsOf(bodyOf(entry))
    if (problems.length === 0) {
      const mock = fieldProblems(entry)
      if (mock) problems.push(`the mock refused it: ${mock}`)
    }
    if (problems.length > 0) return { entry, problems }
  }
  return undefined
}

/**
 * The same request sent again, as the service reads it: the same endpoint, the same values of the query
 * parameters it documents and the same parsed body. What means nothing to the service does not make a
 * new request: a parameter it does not read (a cache-buster), the order of the parameters or of a
 * body's keys, whitespace in the body, the headers (a token, a User-Agent, a request id).
 * @example sameRequest(get('/vehicles?plate=AB123&_=1'), get('/vehicles?_=2&plate=AB123')) // true
 */
export function sameRequest(a: JournalEntry, b: JournalEntry): boolean {
  if (a.route !== b.route || a.request.method !== b.request.method) return false
  // Not an endpoint of the table (no query it documents): the path says which resource.
  if (a.route === null && a.request.path !== b.request.path) return false
  for (const name of documentedParameters(a.route)) {
    if (a.request.query[name] !== b.request.query[name]) return false
  }
  return sameBody(a, b)
}

/** The same body, as JSON values (key order and whitespace aside); a body the journal could not parse, by its text or digest. */
function sameBody(a: JournalEntry, b: JournalEntry): boolean {
  const [x, y] = [bodyOf(a), bodyOf(b)]
  if (x !== undefined || y !== undefined) return sameJson(x, y)
  if (a.request.bodySha256 !== undefined || b.request.bodySha256 !== undefined) return a.request.bodySha256 === b.request.bodySha256
  return (a.request.bodyText ?? '') === (b.request.bodyText ?? '')
}

/** Equal JSON values: objects compared key by key whatever their order. */
function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true
  if (Array.isArray(x) || Array.isArray(y)) {
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((item, i) => sameJson(item, y[i]))
  }
  if (!isRecord(x) || !isRecord(y)) return false
  const keys = Object.keys(x)
  return keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && sameJson(x[key], y[key]))
}

/**
 * The attempts at each request: a request and the same request sent again right after it (the next
 * documented call), while the attempt before did not succeed. Once an attempt succeeds, or the client
 * makes another call, the next attempt is a new request.
 * @example attempts(requests).filter((group) => group.length > 3) // requests tried more than 3 times
 */
export function attempts(requests: ReadonlyArray<JournalEntry>): JournalEntry[][] {
  const groups: JournalEntry[][] = []
  for (const entry of calls(requests)) {
    const group = groups.at(-1)
    const last = group?.at(-1)
    if (group && last && !isOk(last) && sameRequest(last, entry)) group.push(entry)
    else groups.push([entry])
  }
  return groups
}

/**
 * What to do about a value of the visit that did not reach the service whole in a query: it needs
 * percent-encoding (anything but ASCII letters, digits and `-._~`) and arrived otherwise, or not at all.
 * Undefined when the value needs no encoding (its loss is a plain mistake, not a matter of carrying it).
 * @example notCarried('plate', 'ÞÓR 12') // 'The plate `ÞÓR 12` never reached the service: percent-encode query values (plate=%C3%9E%C3%93R%2012).'
 */
export function notCarried(name: string, value: string, arrived?: string): string | undefined {
  if (/^[A-Za-z0-9._~-]*$/.test(value)) return undefined
  const how = `percent-encode query values, in UTF-8 (${name}=${encodeURIComponent(value)})`
  return arrived === undefined ? `The ${name} \`${value}\` never reached the service: ${how}.` : `The ${name} \`${value}\` reached the service as \`${arrived}\`: ${how}.`
}

/**
 * What to do about a text of the visit that reached the service in a body with bytes that were not
 * UTF-8 (the service reads each such byte as U+FFFD); undefined when it arrived readable.
 * @example notUtf8('plate', 'ÞÓR 12', '\uFFFD\uFFFDR 12') // 'the plate `ÞÓR 12` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8'
 */
export function notUtf8(name: string, value: string, arrived: string): string | undefined {
  return arrived.includes('\uFFFD') && !value.includes('\uFFFD') ? `the ${name} \`${value}\` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8` : undefined
}

/** `request 3 (seq 12)`: how a message names one request of a case. */
export function named(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): string {
  return `${at(requests, entry)} [seq ${entry.seq}]`
}

/** `1.0 s` or `340 ms`. */
export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`
}
