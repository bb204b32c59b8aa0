// A case's calls as the rules read them: the documented endpoints, the calls to one, the wait between
// two, and which calls resend one another.
import type { JournalEntry } from '../../service/journal.js'
import { serviceRoutes } from '../../service/handlers/index.js'
import { isRecord } from '../../exchange/answer.js'
import { bodyOf, isOk } from '../../exchange/entry.js'
import { documentedParameters } from '../../exchange/request.js'
import type { Flow } from '../types.js'

/** The endpoints the interface documents (not the mock's extra link routes). */
export const DOCUMENTED_ROUTES: ReadonlySet<string> = new Set(
  serviceRoutes
    .filter((route) => route.integration === 'advanced' || route.integration === 'simple')
    .map((route) => route.id),
)

/** The documented endpoints of one flow, in the interface's order. */
export function routesOf(flow: Flow): string[] {
  return serviceRoutes.filter((route) => route.integration === flow).map((route) => route.id)
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

/**
 * The calls a client made, each as its route (or method and path), a call sent again in a row counted once:
 * the order of the flow, as the fidelity rules and a variant's judging read it (a retry is the resilience rules').
 */
export function callSequence(requests: ReadonlyArray<JournalEntry>): string[] {
  const sequence: string[] = []
  for (const entry of requests) {
    const call = entry.route ?? `${entry.request.method} ${entry.request.path}`
    if (sequence.at(-1) !== call) sequence.push(call)
  }
  return sequence
}

/** The first documented call after `entry`, if any. */
export function callAfter(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): JournalEntry | undefined {
  const from = requests.indexOf(entry)
  return requests.slice(from + 1).find((next) => next.route !== null && DOCUMENTED_ROUTES.has(next.route))
}

export function callsTo(requests: ReadonlyArray<JournalEntry>, route: string): JournalEntry[] {
  return requests.filter((entry) => entry.route === route)
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
  if (a.request.bodySha256 !== undefined || b.request.bodySha256 !== undefined)
    return a.request.bodySha256 === b.request.bodySha256
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
