// The pipeline's last step: a request and its answer made into a journal entry, recorded in the whole
// journal and its world's, and told to the dev tools. It runs on every request, so an entry shares what
// it holds the same as the last one (its headers, a bodiless request part, the response part) instead
// of keeping a copy: a client asks the same lookup again and again.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { isoOf } from './clock.js'
import { FAULT_KINDS, type ArmedFault, type TransportFault } from './faults.js'
import { tell, type AuthVerdict, type Journal, type JournalEntry, type UpstreamNote } from './journal.js'
import { maskHeader, maskHeaders, maskQuery, maskSearch, SECRET_HEADERS } from '../mask.js'
import type { Reply } from './problems.js'
import { bodyVerdict, header, utf8Bytes } from './protocol.js'
import { ownPrefix } from '../text.js'
import { JSON_HEADERS, textOf, withoutBody } from './response.js'
import type { Route } from './route.js'
import type { RelayRequest, RelayResponse, RelayServiceSettings, ServiceExtension } from './service.js'
import type { World } from './world.js'
import type { BodyStream, Upstream, UpstreamResult } from './upstream.js'
import type { Worlds } from './worlds.js'

/**
 * What the pipeline learnt of a request before its answer: its journal entry is made of it.
 * @example const arrival: Arrival = { request, started: performance.now(), arrivedMs: Date.now(), path: '/vehicles', search: '', query: {}, world: undefined, auth: 'missing', route: undefined, parsedBody: undefined, bodyError: undefined }
 */
export interface Arrival {
  request: RelayRequest
  /** performance.now() when it arrived, for durationMs. */
  started: number
  /** When it arrived, in milliseconds since the epoch (the journal dates it with isoOf). */
  arrivedMs: number
  path: string
  search: string
  query: Record<string, string>
  world: World | undefined
  auth: AuthVerdict
  route: Route | undefined
  parsedBody: unknown
  bodyError: string | undefined
  /** Set by the proxy (`relay-mock proxy`): the upstream's part. Its answer's headers are then passed as they came. */
  upstream?: UpstreamNote
  /** Set by the proxy: the upstream's answer, larger than the body limit, to pass on as it comes (the reply holds its first bytes). */
  passedOn?: BodyStream
  /**
   * Set by the proxy: the upstream whose `observe` is told of the entry once it is recorded, with
   * `upstreamResult`. The upstream itself, not a closure made per request: with such a closure, each
   * request's arrival and the upstream's answer outlived V8's young-generation collections (see
   * docs/real-service.md, "Speed").
   */
  observedBy?: Pick<Upstream, 'observe'> | undefined
  /** Set by the proxy with `observe`: what the upstream answered, or its trouble; undefined when nothing was forwarded. */
  upstreamResult?: UpstreamResult | undefined
}

/**
 * The function that journals a request with its answer, tells the dev tools, and answers (with `text`,
 * the reply's, when it is at hand).
 * @example
 * const record = createRecorder({ settings, journal, worlds, extensions })
 * const response = record(arrival, { status: 200, body: [] }, undefined)
 */
export function createRecorder({
  settings,
  journal,
  worlds,
  extensions,
}: {
  settings: RelayServiceSettings
  journal: Journal
  worlds: Worlds
  extensions: ReadonlyArray<ServiceExtension>
}) {
  const byToken = worlds.byToken
  let seq = 0
  // This service's last entry's parts: the next entry shares those it holds the same as.
  const last: LastParts = { request: undefined, response: undefined, headers: undefined }

  return function recordAndAnswer(
    arrival: Arrival,
    reply: Reply,
    fault: ArmedFault | undefined,
    replyText = textOf(reply),
  ): RelayResponse {
    const { request, path, search, world, route, started } = arrival
    let { parsedBody, bodyError } = arrival
    // A body the route reads, refused before it was reached (a wrong token, path or method), is judged for
    // the journal as the route would have: its value, or why not (the journal may keep only a long body's
    // prefix, so the verdict on the whole is kept with it). A body the route ignores (a GET's) is not, nor
    // one still to come (Expect: 100-continue refused before it was sent).
    if (!request.bodyPending && parsedBody === undefined && bodyError === undefined) {
      const read = bodyVerdict(request, route, settings.bodyLimit)
      if (read && 'value' in read) parsedBody = read.value
      else if (read && 'problem' in read) bodyError = read.problem
    }
    const transport = fault && isTransportFault(fault.kind) ? fault.kind : undefined
    let text = replyText
    // Most answers have no headers of their own: they share one object rather than each keep a copy in the journal.
    // A proxied answer's headers are the upstream's (or the proxy's problem's), as they came.
    const proxied = arrival.upstream !== undefined
    // (A proxied reply's headers are its own object, never changed: kept as they are.)
    let headers: RelayResponse['headers'] = proxied
      ? (reply.headers ?? {})
      : reply.body === undefined
        ? { ...reply.headers }
        : reply.headers
          ? { ...JSON_HEADERS, ...reply.headers }
          : JSON_HEADERS
    if (request.method === 'HEAD' && !proxied)
      ({ headers, text } = withoutBody({ status: reply.status, headers, text }))
    const kept = journalBody(request.body, settings.journalBodyBytes)
    if (kept?.bodyTruncated) parsedBody = undefined
    const requestHeaders = journalHeaders(last, request.headers)
    const journaled = requestPart(last, arrival, requestHeaders.headers, kept, parsedBody, bodyError)
    const response = responsePart(last, reply, journalAnswerHeaders(headers), request.method, transport)
    const entry: JournalEntry = {
      seq: ++seq,
      time: isoOf(arrival.arrivedMs),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      worldId: world?.id ?? null,
      request: journaled,
      response: arrival.passedOn ? { ...response, bodyTruncated: true } : response,
      route: route?.id ?? null,
      auth: arrival.auth,
    }
    if (fault) entry.fault = { kind: fault.kind, mode: fault.mode, applied: FAULT_KINDS[fault.kind].applied }
    if (arrival.upstream) entry.upstream = arrival.upstream
    if (request.connection !== undefined) entry.connection = request.connection
    // What the entry holds, about: its texts (the parsed body is as large as the text it came from). A
    // mock's answer points at records its store holds; a proxied one is the upstream's JSON, parsed into
    // objects of its own, which take about twice its text.
    const size =
      ENTRY_OVERHEAD +
      path.length +
      2 * search.length +
      requestHeaders.bytes +
      2 * (kept?.bodyText?.length ?? 0) +
      (proxied ? 2 : 1) * text.length
    journal.record(entry, size)
    const owner = world && byToken.get(world.token) === world ? world : undefined
    owner?.journal.record(entry, size)
    for (const extension of extensions) tell('a dev tool', entry, extension.onRecord, owner)
    // An observer that fails (the ledger, the recording) is a bug of its own: the upstream's answer still goes to the client.
    if (arrival.observedBy?.observe) tell('an upstream observer', entry, observeEntry, arrival)
    if (arrival.passedOn) return { status: reply.status, headers, text, passedOn: arrival.passedOn }
    if (!transport) return { status: reply.status, headers, text }
    const answer: RelayResponse = { status: reply.status, headers, text, fault: transport }
    if (transport === 'hang')
      answer.onClosed = () => void (entry.durationMs = Math.round((performance.now() - started) * 1000) / 1000)
    return answer
  }
}

/** Tells the upstream's observer of an entry with the upstream's answer: one function for every request, not a closure per request. */
function observeEntry(entry: JournalEntry, arrival: Arrival): void {
  arrival.observedBy?.observe?.({ entry, upstream: arrival.upstreamResult })
}

/** A body as the journal keeps it (see journalBody). */
type KeptBody = Pick<JournalEntry['request'], 'bodyText' | 'bodyTruncated' | 'bodyBytes' | 'bodySha256'>

/** An entry's fixed fields (seq, time, route, status…), about, in bytes. */
const ENTRY_OVERHEAD = 256

/**
 * What a recorder keeps of its last entry, for the next to share: its request part without a body, its
 * response part, and its request's headers as sent and as kept (see journalHeaders). One service's own:
 * two services in a process share nothing.
 */
interface LastParts {
  request: JournalEntry['request'] | undefined
  response: JournalEntry['response'] | undefined
  headers:
    | {
        names: string[]
        values: Array<string | string[] | undefined>
        kept: { headers: Record<string, string>; bytes: number }
      }
    | undefined
}

/**
 * The entry's request part. A request part without a body that holds the same as the last entry's is
 * that entry's, frozen: a client asks the same lookup again and again, and its entries then keep no
 * request part of their own.
 */
function requestPart(
  lastParts: LastParts,
  arrival: Arrival,
  headers: Record<string, string>,
  kept: KeptBody | undefined,
  parsedBody: unknown,
  bodyError: string | undefined,
): JournalEntry['request'] {
  const { request, path } = arrival
  const masked = maskQuery(arrival.query)
  const maskedSearch = maskSearch(arrival.search)
  const bodiless = kept === undefined && parsedBody === undefined && bodyError === undefined
  const last = lastParts.request
  if (
    bodiless &&
    last !== undefined &&
    last.method === request.method &&
    last.path === path &&
    last.query === masked &&
    last.search === maskedSearch &&
    last.headers === headers
  ) {
    return shared(last)
  }
  const journaled: JournalEntry['request'] = {
    method: request.method,
    path,
    query: masked,
    search: maskedSearch,
    headers,
  }
  if (bodiless) lastParts.request = journaled
  if (kept) Object.assign(journaled, kept)
  if (parsedBody !== undefined) journaled.body = parsedBody
  if (bodyError !== undefined) journaled.bodyError = bodyError
  return journaled
}

/** The entry's response part: the last entry's, frozen, when it holds the same (see requestPart). */
function responsePart(
  lastParts: LastParts,
  reply: Reply,
  headers: Record<string, string>,
  method: string,
  transport: TransportFault | undefined,
): JournalEntry['response'] {
  // No status line was sent for a reset or a hang: HAR's convention for no answer is status 0.
  if (transport === 'reset' || transport === 'hang') return { status: 0, headers: {}, body: null }
  const maskedHeaders = headers === JSON_HEADERS ? JSON_HEADERS : maskHeaders(headers)
  const body = method === 'HEAD' ? undefined : reply.body
  const last = lastParts.response
  return last !== undefined && last.status === reply.status && last.headers === maskedHeaders && last.body === body
    ? shared(last)
    : (lastParts.response = { status: reply.status, headers: maskedHeaders, body })
}

/** A part of the last entry that the next one holds the same as: frozen from now on, as two entries share it. */
function shared<T extends object>(part: T): T {
  return Object.isFrozen(part) ? part : Object.freeze(part)
}

function isTransportFault(kind: string): kind is TransportFault {
  return kind === 'reset' || kind === 'hang' || kind === 'truncated'
}

/** A client sends the same credentials on every request: mask each value once. */
const maskedValues = new Map<string, string>()
function masked(name: string, value: string): string {
  const key = `${name}:${value}`
  let result = maskedValues.get(key)
  if (result === undefined) {
    result = maskHeader(name, value)
    if (maskedValues.size < 1000) maskedValues.set(key, result)
  }
  return result
}

/**
 * The headers as the journal keeps them (credentials masked), and about how many bytes they hold. A
 * client sends the same headers request after request: when every name and value is the last request's,
 * its entry shares that object (entries are never changed) instead of a copy, which saves a copy, the
 * masking and memory.
 */
function journalHeaders(
  lastParts: LastParts,
  headers: RelayRequest['headers'],
): { headers: Record<string, string>; bytes: number } {
  const lastHeaders = lastParts.headers
  if (lastHeaders !== undefined && sameHeaders(headers, lastHeaders.names, lastHeaders.values)) return lastHeaders.kept
  const out: Record<string, string> = {}
  const names: string[] = []
  const values: Array<string | string[] | undefined> = []
  let bytes = 0
  for (const name in headers) {
    names.push(name)
    values.push(headers[name])
    const value = header(headers, name)
    if (value === undefined) continue
    out[name] = SECRET_HEADERS.has(name) ? masked(name, value) : value
    bytes += name.length + value.length + 8
  }
  const kept = { headers: Object.freeze(out), bytes }
  lastParts.headers = { names, values, kept }
  return kept
}

function sameHeaders(
  headers: RelayRequest['headers'],
  names: string[],
  values: Array<string | string[] | undefined>,
): boolean {
  let i = 0
  for (const name in headers) {
    // A repeated header is an array: a new one each request, so it never matches, and is copied.
    if (names[i] !== name || values[i] !== headers[name] || Array.isArray(values[i])) return false
    i++
  }
  return i === names.length
}

/**
 * The body as the journal keeps it: whole up to `keep` bytes, else its prefix, its length and its SHA-256.
 * The prefix is a copy: a slice would keep the whole body alive as long as the entry.
 */
function journalBody(body: string | undefined, keep: number): KeptBody | undefined {
  if (body === undefined || body === '') return undefined
  if (body.length <= keep / 3) return { bodyText: body }
  const bytes = utf8Bytes(body)
  if (bytes <= keep) return { bodyText: body }
  return {
    bodyText: ownPrefix(body, keep),
    bodyTruncated: true,
    bodyBytes: bytes,
    bodySha256: bytesToHex(sha256(utf8ToBytes(body))),
  }
}

/**
 * An answer's headers as the journal keeps them: one text per field, a field sent more than once (a
 * proxied Set-Cookie) with its values on lines of their own, as no header value can hold a line break.
 */
function journalAnswerHeaders(headers: RelayResponse['headers']): Record<string, string> {
  let out: Record<string, string> | undefined
  for (const name in headers) {
    const value = headers[name]
    if (typeof value === 'string') continue
    out ??= { ...(headers as Record<string, string>) }
    out[name] = value.join('\n')
  }
  return out ?? (headers as Record<string, string>)
}
