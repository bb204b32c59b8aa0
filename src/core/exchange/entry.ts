// A journal entry read as an exchange: its request (request.ts) with the body parsed, and its answer's
// class (answer.ts) with what the journal adds: the faults that lose an answer, and when it was sent.
import type { JournalEntry } from '../service/journal.js'
import type { FaultKind } from '../service/faults.js'
import { parseJsonText } from '../service/protocol.js'
import { leavesWriteUnknown, parseRetryAfter, statusClass, type RetryAfter, type StatusClass } from './answer.js'
import type { RequestSent } from './request.js'

/** The faults after which the client had no answer it could read: the connection reset, a hang, a truncated or garbled 2xx. */
const LOSING_FAULTS: ReadonlySet<FaultKind> = new Set<FaultKind>(['reset', 'hang', 'truncated', 'garbage'])

/**
 * The parsed JSON body of a request, whatever its Content-Type (http.json-body judges that); undefined
 * when it has none or it cannot be read (see facts.ts's bodyUnreadable).
 */
export function bodyOf(entry: JournalEntry): unknown {
  const { request } = entry
  if (request.body !== undefined) return request.body
  if (request.bodyText === undefined || request.bodyError !== undefined || request.bodyTruncated) return undefined
  const read = parseJsonText(request.bodyText)
  return 'value' in read ? read.value : undefined
}

/**
 * The request of an entry as request.ts reads it, its body parsed (bodyOf).
 * @example plateSent(requestOf(entry))?.plate // 'AB123'
 */
export function requestOf(entry: JournalEntry): RequestSent {
  return { route: entry.route, query: entry.request.query, body: bodyOf(entry) }
}

/**
 * True when the client got no answer it could read: the connection was reset, the request hung until
 * the client gave up, or a 2xx came truncated or as a proxy's HTML page (status 0 is no answer at all).
 */
export function answerLost(entry: JournalEntry): boolean {
  return entry.response.status === 0 || (entry.fault !== undefined && LOSING_FAULTS.has(entry.fault.kind))
}

/**
 * The class of the entry's answer, as the client saw it.
 * @example classOf(entry) // 'ambiguous' for a 502; 'lost' for a reset connection
 */
export function classOf(entry: JournalEntry): StatusClass {
  return statusClass(entry.response.status, answerLost(entry))
}

/** A 2xx the client received whole (a truncated body or a proxy's page is no answer it can read). */
export function isOk(entry: JournalEntry): boolean {
  return classOf(entry) === 'success'
}

/**
 * True when the client cannot tell whether the request changed the world: no readable answer, or a
 * 500, 502 or 504 (a 503 or 429 says nothing was done, and a 4xx is a refusal).
 */
export function isAmbiguous(entry: JournalEntry): boolean {
  return leavesWriteUnknown(entry.response.status, answerLost(entry))
}

/**
 * True when the service failed the call: a 5xx, or no answer the client could read. A client may
 * retry a lookup after one; a POST only where the answer says nothing was done (503).
 */
export function isFailure(entry: JournalEntry): boolean {
  return (entry.response.status >= 500 && entry.response.status < 600) || answerLost(entry)
}

/**
 * The wait the answer's Retry-After asks for, in ms, from the moment the answer was sent; undefined when
 * there is none. An HTTP-date has one-second resolution: `dateForm` says so, for the tolerance.
 * @example retryAfterMs(entry) // { ms: 1000, text: '1', dateForm: false }
 */
export function retryAfterMs(entry: JournalEntry): RetryAfter | undefined {
  return parseRetryAfter(entry.response.headers['retry-after'], Date.parse(entry.time) + entry.durationMs)
}

/**
 * The wait a 503 or a 429 told the client to keep before it comes back (its Retry-After); undefined for any
 * other answer, or one without the header. Elsewhere the header asks nothing of a client.
 * @example waitAskedFor(entry) // { ms: 2000, text: '2', dateForm: false }
 */
export function waitAskedFor(entry: JournalEntry): RetryAfter | undefined {
  return entry.response.status === 503 || entry.response.status === 429 ? retryAfterMs(entry) : undefined
}
