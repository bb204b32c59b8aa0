// How a rule's sentences name what happened: a request by its place in the visit, a value shown short,
// what an answer said and how a request was lost.
import type { JournalEntry } from '../../service/journal.js'
import { parseJsonText } from '../../service/protocol.js'
import { clipJson } from '../../text.js'
import { answerLost } from '../../exchange/entry.js'
import { valueAt } from './calls.js'

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
  if (
    request.body !== undefined ||
    ((request.bodyText === undefined || request.bodyText === '') && !request.bodyTruncated)
  )
    return undefined
  const where = `Could not read the body of ${at(requests, entry)}`
  if (request.bodyError !== undefined) return `${where} (see http.json-body): ${request.bodyError}`
  if (request.bodyTruncated) {
    return `${where}: it is ${request.bodyBytes ?? 'more'} bytes, and the journal kept only its first ${request.bodyText?.length ?? 0} characters (journalBodyBytes, or what the capture held), so its fields are not checked.`
  }
  const read = parseJsonText(request.bodyText!)
  return 'value' in read ? undefined : `${where} (see http.json-body): ${read.problem}`
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

/**
 * What to do about a value of the visit that did not reach the service whole in a query: it needs
 * percent-encoding (anything but ASCII letters, digits and `-._~`) and arrived otherwise, or not at all.
 * Undefined when the value needs no encoding (its loss is a plain mistake, not a matter of carrying it).
 * @example notCarried('plate', 'ÞÓR 12') // 'The plate `ÞÓR 12` never reached the service: percent-encode query values (plate=%C3%9E%C3%93R%2012).'
 */
export function notCarried(name: string, value: string, arrived?: string): string | undefined {
  if (/^[A-Za-z0-9._~-]*$/.test(value)) return undefined
  const how = `percent-encode query values, in UTF-8 (${name}=${encodeURIComponent(value)})`
  return arrived === undefined
    ? `The ${name} \`${value}\` never reached the service: ${how}.`
    : `The ${name} \`${value}\` reached the service as \`${arrived}\`: ${how}.`
}

/**
 * What to do about a text of the visit that reached the service in a body with bytes that were not
 * UTF-8 (the service reads each such byte as U+FFFD); undefined when it arrived readable.
 * @example notUtf8('plate', 'ÞÓR 12', '\uFFFD\uFFFDR 12') // 'the plate `ÞÓR 12` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8'
 */
export function notUtf8(name: string, value: string, arrived: string): string | undefined {
  return arrived.includes('\uFFFD') && !value.includes('\uFFFD')
    ? `the ${name} \`${value}\` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8`
    : undefined
}

/** `request 3 (seq 12)`: how a message names one request of a case. */
export function named(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): string {
  return `${at(requests, entry)} [seq ${entry.seq}]`
}

/** `1.0 s` or `340 ms`. */
export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`
}
