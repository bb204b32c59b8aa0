// HAR 1.2 in and out: the journal as an HTTP Archive (for browser dev tools and HTTP tools), and a
// HAR captured elsewhere (a proxy, the real service's staging) as journal-like entries the rules read.
import type { Entry, Har, Header, Page, QueryString } from 'har-format'
import { z } from 'zod'
import { statusText } from '../core/status.js'
import { AUTH_VERDICTS, type AuthVerdict, type JournalEntry } from '../core/service/journal.js'
import { maskHeaders, maskQuery, maskSearch } from '../core/mask.js'
import {
  bodyVerdict,
  KNOWN_SLIPS,
  parseBearer,
  parseJsonText,
  routeById,
  routeOf,
  SERVICE_TABLE,
  utf8Bytes,
} from '../core/service/protocol.js'
import { MOCK_DEFAULTS } from '../core/defaults.js'
import { RelayMockError } from '../core/errors.js'
import { faultRecord, visitInputs, type VisitInputs } from '../core/rules/inputs.js'

/**
 * What relay-mock adds to each HAR entry (HAR allows fields that start with `_`), so a round trip keeps the
 * journal's findings. The writer's type is this schema's, and the reader reads entries with it.
 */
export const relayHarFields = z
  .object({
    seq: z.number().int(),
    worldId: z.string().nullable(),
    route: z.string().nullable(),
    auth: z.enum(AUTH_VERDICTS),
    bodyError: z.string().optional(),
    /** Set when `postData.text` is only the start of a long body, whose whole length and SHA-256 follow. */
    bodyTruncated: z.literal(true).optional(),
    bodyBytes: z.number().int().nonnegative().optional(),
    bodySha256: z.string().optional(),
    /** The fault the request met, when one was armed for it. */
    fault: faultRecord.optional(),
    /** `relay-mock proxy`: set when the answer was larger than the proxy reads, passed on whole: `content.text` holds its first bytes. */
    answerTruncated: z.literal(true).optional(),
  })
  .strict()

export type RelayHarFields = z.output<typeof relayHarFields>

export type RelayHarEntry = Entry & { _relay?: RelayHarFields }

/**
 * What relay-mock adds to each HAR page (one page per case): the case's inputs, so that `conform --from`
 * checks every rule. `{ case, flow, visit, token (masked), outcome, outcomes?, client: { exitCode, signal,
 * timedOut, durationMs, report?, reportError? } }`; a part the case did not have is left out.
 */
export type RelayHarPage = Page & { _relay?: VisitInputs }

export interface ToHarOptions {
  /** The base URL the requests were sent to; request URLs in the HAR are absolute under it. */
  baseUrl: string
  /** relay-mock's version, for `log.creator`. */
  version?: string
  /** A comment for the whole log, e.g. the client command. */
  comment?: string
}

export { statusText }

// Masked again on the way out: entries from anywhere (not only the mock's journal) may be exported.
function toHeaders(headers: Record<string, string>): Header[] {
  // A field sent more than once (a proxied Set-Cookie) is journaled one value per line: one header each, as it came.
  return Object.entries(maskHeaders(headers)).flatMap(([name, value]) =>
    value.includes('\n') ? value.split('\n').map((one) => ({ name, value: one })) : [{ name, value }],
  )
}

function toQueryString(search: string): QueryString[] {
  if (search.length <= 1) return []
  return [...new URLSearchParams(search)].map(([name, value]) => ({ name, value }))
}

function harEntry(entry: JournalEntry, base: string): RelayHarEntry {
  const { request, response } = entry
  const requestText = request.bodyText
  const responseText = response.body === undefined ? '' : JSON.stringify(response.body)
  const responseType = response.headers['content-type'] ?? 'application/json'
  const wait = Math.max(0, entry.durationMs)
  const search = maskSearch(request.search)
  return {
    startedDateTime: entry.time,
    time: wait,
    request: {
      method: request.method,
      url: `${base}${request.path}${search}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHeaders(request.headers),
      queryString: toQueryString(search),
      ...(requestText !== undefined
        ? { postData: { mimeType: request.headers['content-type'] ?? '', text: requestText } }
        : {}),
      headersSize: -1,
      bodySize: requestText === undefined ? 0 : (request.bodyBytes ?? utf8Bytes(requestText)),
    },
    response: {
      status: response.status,
      statusText: statusText(response.status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHeaders(response.headers),
      content: {
        size: utf8Bytes(responseText),
        mimeType: responseType,
        text: responseText,
        ...(response.bodyTruncated
          ? { comment: 'larger than the proxy reads: passed on whole as it came, only its first bytes kept here' }
          : {}),
      },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: utf8Bytes(responseText),
    },
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    ...(entry.connection !== undefined ? { connection: entry.connection } : {}),
    _relay: {
      seq: entry.seq,
      worldId: entry.worldId,
      route: entry.route,
      auth: entry.auth,
      ...(request.bodyError !== undefined ? { bodyError: request.bodyError } : {}),
      ...(request.bodyTruncated
        ? { bodyTruncated: true, bodyBytes: request.bodyBytes, bodySha256: request.bodySha256 }
        : {}),
      ...(entry.fault ? { fault: entry.fault } : {}),
      ...(response.bodyTruncated ? { answerTruncated: true } : {}),
    },
  }
}

/**
 * The journal's entries as a HAR 1.2 log, credentials masked (headers and query parameters).
 * @example
 * const har = toHar(world.journal.entries(), { baseUrl: 'http://127.0.0.1:4010', version: '0.1.0' })
 * JSON.stringify(har) // opens in a browser's dev tools (Network → Import HAR)
 */
export function toHar(entries: ReadonlyArray<JournalEntry>, options: ToHarOptions): Har {
  const base = options.baseUrl.replace(/\/+$/, '')
  return {
    log: {
      version: '1.2',
      creator: { name: 'relay-mock', version: options.version ?? '0.0.0' },
      ...(options.comment ? { comment: options.comment } : {}),
      entries: entries.map((entry) => harEntry(entry, base)),
    },
  }
}

export interface FromHarOptions {
  /**
   * The service's base URL in the capture, e.g. `https://staging.relay.example/api`. Entries outside it are
   * left out. Default: inferred from the entries whose path ends in a documented resource.
   */
  baseUrl?: string
}

/**
 * The resources whose paths identify a relay service request, wherever the service is mounted: the first
 * segment of each route's path, and of each path the interface writes by mistake (`rental-comapnies`).
 */
const RESOURCES: ReadonlySet<string> = new Set([
  ...SERVICE_TABLE.map(({ segments }) => segments[0]),
  ...KNOWN_SLIPS.map((slip) => slip.path.split('/')[1]),
])

/** What the mock makes of an Authorization header, short of knowing which tokens are valid. */
function authOf(authorization: string | undefined, status: number): AuthVerdict {
  const bearer = parseBearer(authorization)
  if (bearer.verdict !== 'ok') return bearer.verdict
  return status === 401 ? 'unknown-token' : 'ok'
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/**
 * Per origin, the path prefix under which the service's resources sit (from the entries that name one):
 * `https://staging.example/api/v1`. Origins that never name a resource (a CDN, the page itself) have none.
 */
function inferBases(urls: URL[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>()
  for (const url of urls) {
    const parts = url.pathname.split('/')
    const at = parts.findIndex((part, i) => i > 0 && RESOURCES.has(part))
    if (at === -1) continue
    const prefix = parts.slice(0, at).join('/')
    const byPrefix = counts.get(url.origin) ?? new Map<string, number>()
    byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1)
    counts.set(url.origin, byPrefix)
  }
  return new Map([...counts].map(([origin, byPrefix]) => [origin, [...byPrefix].sort((a, b) => b[1] - a[1])[0][0]]))
}

function parseJson(text: string | undefined): { value?: unknown; problem?: string } {
  return text === undefined || text === '' ? {} : parseJsonText(text)
}

function decodeContent(content: { text?: string; encoding?: string }): string | undefined {
  if (content.text === undefined) return undefined
  if (content.encoding !== 'base64') return content.text
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0)))
  } catch {
    return content.text
  }
}

function isoTime(value: string): string {
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? value : new Date(ms).toISOString()
}

function lowerHeaders(headers: ReadonlyArray<Header> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const { name, value } of headers ?? []) {
    const key = name.toLowerCase()
    // HTTP/2 pseudo-headers (":authority") are how a browser records the request line, not headers a client sent.
    if (key.startsWith(':')) continue
    // Set-Cookie once per cookie, as the journal keeps it (its dates hold commas); any other field as one list.
    out[key] = key in out ? `${out[key]}${key === 'set-cookie' ? '\n' : ', '}${value}` : value
  }
  return out
}

/** One conversation of a capture: a page of the HAR (relay-mock's run export has one per case), else a service address. */
export interface HarConversation {
  id: string
  title?: string
  entries: JournalEntry[]
  /** The case's inputs, from the page's `_relay` (relay-mock's own HAR). */
  inputs?: VisitInputs
}

/** An entry with its `_relay` fields read by the writer's schema; fields that are not valid are refused, naming the first. */
function withRelayFields(entry: RelayHarEntry, at: number): RelayHarEntry {
  if (entry._relay === undefined) return entry
  const parsed = relayHarFields.safeParse(entry._relay)
  if (parsed.success) return { ...entry, _relay: parsed.data }
  const issue = parsed.error.issues[0]
  throw new RelayMockError(
    'HAR_UNREADABLE',
    `Failed to read the HAR entry log.entries[${at}] (${entry.request?.method ?? '?'} ${entry.request?.url ?? '?'}): _relay.${issue.path.join('.')} ${issue.message.toLowerCase()}. Please remove the entry's _relay field (the entry is then judged as a capture from elsewhere) or correct it.`,
  )
}

/** The case inputs on the HAR's pages (`_relay`), by page id; a page whose `_relay` is not valid is refused, naming the field. */
function pageInputs(pages: ReadonlyArray<RelayHarPage>): Map<string, VisitInputs> {
  const found = new Map<string, VisitInputs>()
  for (const page of pages) {
    if (page._relay === undefined) continue
    const parsed = visitInputs.safeParse(page._relay)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new RelayMockError(
        'HAR_UNREADABLE',
        `Failed to read the inputs of the HAR page ${page.id}: _relay.${issue.path.join('.')} ${issue.message.toLowerCase()}. Please remove the page's _relay field (its visits are then checked without their inputs) or correct it.`,
      )
    }
    found.set(page.id, parsed.data)
  }
  return found
}

/**
 * A HAR captured anywhere (relay-mock's own export, a browser, a proxy) as journal entries the rules can
 * read, one list per conversation (the HAR's page, else the service's address),
 * each in the order its requests started. Only the service's requests are kept (not the admin API, not
 * other hosts); credentials (headers, query parameters) are masked on the way in.
 * @example
 * for (const { id, entries } of fromHarConversations(har)) console.log(id, checkVisits(entries).length)
 */
export function fromHarConversations(har: Har, options: FromHarOptions = {}): HarConversation[] {
  const harEntries = (har?.log?.entries ?? []) as RelayHarEntry[]
  const located = harEntries
    .map((entry, at) => ({ entry: withRelayFields(entry, at), url: parseUrl(entry.request?.url ?? '') }))
    .filter((x): x is { entry: RelayHarEntry; url: URL } => x.url !== undefined)
  const given = options.baseUrl ? parseUrl(options.baseUrl) : undefined
  const bases = given
    ? new Map([[given.origin, given.pathname.replace(/\/+$/, '')]])
    : inferBases(located.map((x) => x.url))
  const kept = located
    .filter(({ url }) => bases.has(url.origin) && url.pathname.startsWith(bases.get(url.origin)!))
    .map(({ entry, url }) => ({ entry, url, path: url.pathname.slice(bases.get(url.origin)!.length) || '/' }))
    .filter(({ path }) => !path.startsWith('/__relay') && !path.startsWith('/openapi/'))

  const titles = new Map((har?.log?.pages ?? []).map((page) => [page.id, page.title]))
  const inputs = pageInputs(har?.log?.pages ?? [])
  const groups = new Map<string, typeof kept>()
  for (const item of kept) {
    // Not by world: a request that carried no token has no world, yet belongs to the conversation it was part of.
    const key = item.entry.pageref ?? `${item.url.origin}${bases.get(item.url.origin)}`
    groups.set(key, [...(groups.get(key) ?? []), item])
  }
  let index = 0
  return [...groups].map(([id, items]) => ({
    id,
    ...(titles.has(id) ? { title: titles.get(id) } : {}),
    ...(inputs.has(id) ? { inputs: inputs.get(id) } : {}),
    entries: items
      .sort((a, b) => (Date.parse(a.entry.startedDateTime) || 0) - (Date.parse(b.entry.startedDateTime) || 0))
      .map(({ entry, url, path }) => toJournalEntry(entry, url, path, ++index)),
  }))
}

/**
 * Every conversation of a HAR as one list of journal entries (see fromHarConversations).
 * @example evaluate({ flow: 'advanced', requests: fromHar(JSON.parse(readFileSync('capture.har', 'utf8'))) })
 */
export function fromHar(har: Har, options: FromHarOptions = {}): JournalEntry[] {
  return fromHarConversations(har, options).flatMap((conversation) => conversation.entries)
}

/**
 * Whether a HAR entry's `postData.text` holds only the start of the body: relay-mock's own export says so
 * (`_relay.bodyTruncated`); a capture from elsewhere shows it by a `bodySize` beyond its text's bytes (or
 * a size with no text at all).
 */
function truncationOf(
  entry: RelayHarEntry,
): Pick<JournalEntry['request'], 'bodyTruncated' | 'bodyBytes' | 'bodySha256'> | undefined {
  const relay = entry._relay
  if (relay)
    return relay.bodyTruncated
      ? { bodyTruncated: true, bodyBytes: relay.bodyBytes, bodySha256: relay.bodySha256 }
      : undefined
  const size = entry.request.bodySize
  const text = entry.request.postData?.text ?? ''
  return typeof size === 'number' && size > utf8Bytes(text) ? { bodyTruncated: true, bodyBytes: size } : undefined
}

function toJournalEntry(entry: RelayHarEntry, url: URL, path: string, index: number): JournalEntry {
  const method = entry.request.method.toUpperCase()
  // Masking is idempotent, so relay-mock's own (already masked) exports pass through unchanged.
  const headers = maskHeaders(lowerHeaders(entry.request.headers))
  const authorization = headers.authorization
  const raw: Record<string, string> = {}
  for (const [name, value] of url.searchParams) raw[name] = value
  const query = maskQuery(raw)
  const bodyText = entry.request.postData?.text
  const relay = entry._relay
  const truncated = truncationOf(entry)
  const route = relay ? relay.route : routeOf(method, path)
  // The body as the mock reads it. relay-mock's own export carries the mock's verdict (under its own
  // limit, on the whole of a long body): it stands. A capture from elsewhere is judged here, under the
  // mock's default limit; of a body it kept only the start of, only what a start shows.
  const read = bodyVerdict(
    { method, headers, body: bodyText, ...(truncated ? { bodyBytes: truncated.bodyBytes } : {}) },
    routeById(route),
    relay ? Infinity : MOCK_DEFAULTS.bodyLimit,
  )
  const bodyError = relay ? relay.bodyError : read && 'problem' in read ? read.problem : undefined
  const parsed: { value?: unknown } = bodyError === undefined && read && 'value' in read ? read : {}
  const responseText = decodeContent(entry.response?.content ?? {})
  const responseJson = parseJson(responseText)
  const status = entry.response?.status ?? 0
  return {
    seq: relay?.seq ?? index,
    time: isoTime(entry.startedDateTime),
    durationMs: Math.max(0, entry.time ?? 0),
    worldId: relay?.worldId ?? null,
    request: {
      method,
      path,
      query,
      search: maskSearch(url.search),
      headers,
      ...(bodyText !== undefined && bodyText !== '' ? { bodyText } : {}),
      ...truncated,
      ...(parsed.value !== undefined ? { body: parsed.value } : {}),
      ...(bodyError !== undefined ? { bodyError } : {}),
    },
    response: {
      status,
      headers: maskHeaders(lowerHeaders(entry.response?.headers)),
      body: responseJson.problem === undefined ? responseJson.value : responseText,
      ...(relay?.answerTruncated ? { bodyTruncated: true as const } : {}),
    },
    route,
    auth: relay?.auth ?? authOf(authorization, status),
    ...(relay?.fault ? { fault: relay.fault } : {}),
    ...(typeof entry.connection === 'string' && entry.connection !== '' ? { connection: entry.connection } : {}),
  }
}
