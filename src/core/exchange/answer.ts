// What an answer says, whoever holds it (a journal entry, an upstream's answer, a client's own reading):
// its status class, whether it leaves a write unknown, the wait its Retry-After asks for, and whether a
// JSON value is a record. Plain values in, plain values out: it imports none of the core's folders, so
// that the service (calibration) reads it too.

/**
 * What an answer tells the client of its request: `success` (a 2xx), `lost` (no answer it could read),
 * `ambiguous` (a 500, 502 or 504: the request may or may not have been done) or `refusal` (anything
 * else: a 4xx, or a 503 or 429, which say nothing was done).
 */
export type StatusClass = 'success' | 'refusal' | 'lost' | 'ambiguous'

/** The statuses after which a client cannot tell whether its request was done. */
const WRITE_UNKNOWN: ReadonlySet<number> = new Set([500, 502, 504])

/**
 * True for a 2xx: a status, or an OpenAPI document's response key (`201`, `2XX`).
 * @example isSuccess(201) // true; isSuccess('2XX') // true; isSuccess('default') // false
 */
export function isSuccess(status: number | string): boolean {
  return typeof status === 'string' ? status.startsWith('2') : status >= 200 && status < 300
}

/**
 * The class of an answer with `status`; `lost` when the client could not read it (status 0 is no answer at all).
 * @example statusClass(201) // 'success'; statusClass(502) // 'ambiguous'; statusClass(503) // 'refusal'; statusClass(200, true) // 'lost'
 */
export function statusClass(status: number, lost = false): StatusClass {
  if (lost || status === 0) return 'lost'
  if (isSuccess(status)) return 'success'
  return WRITE_UNKNOWN.has(status) ? 'ambiguous' : 'refusal'
}

/**
 * True when a write's fate is unknown after this answer: none the client could read, or a 500, 502 or 504.
 * @example leavesWriteUnknown(504) // true; leavesWriteUnknown(503) // false
 */
export function leavesWriteUnknown(status: number, lost = false): boolean {
  const kind = statusClass(status, lost)
  return kind === 'lost' || kind === 'ambiguous'
}

/** The wait a Retry-After asks for, and the header's form: an HTTP-date has one-second resolution. */
export interface RetryAfter {
  ms: number
  text: string
  dateForm: boolean
}

/**
 * The wait a Retry-After header asks for, in ms from `answeredAt` (ms since the epoch: when the answer was
 * sent, or now): seconds, or an HTTP-date (never less than 0); undefined when absent or unreadable.
 * @example parseRetryAfter('2', 0) // { ms: 2000, text: '2', dateForm: false }
 */
export function parseRetryAfter(text: string | null | undefined, answeredAt: number): RetryAfter | undefined {
  if (text === null || text === undefined) return undefined
  if (/^\s*\d+\s*$/.test(text)) return { ms: Number(text) * 1000, text, dateForm: false }
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return { ms: Math.max(0, date - answeredAt), text, dateForm: true }
}

/**
 * True for a JSON object (not null, not an array): a record whose fields can be read.
 * @example isRecord({ id: '7' }) // true; isRecord([]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
