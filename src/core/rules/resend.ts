// Which attempts at a request the client's HTTP library sent by itself, and what stops it. Several
// libraries send a request again on their own, at once and on a new connection, when the attempt before
// was lost; the client's own loop sees one failed attempt where the service saw two:
// - libcurl (PHP's curl functions, Guzzle, the `curl` command): any request, a POST too, when a reused
//   connection dies before the answer's first byte (a reset, an early close); once;
// - Ruby's Net::HTTP: an idempotent request (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) after a reset, an
//   early close or its own read timeout, on any connection; `max_retries` times (1 by default);
// - Go's net/http: a GET (or a request with an Idempotency-Key header) when a reused connection fails
//   before the answer; once;
// - java.net.http: a GET when a reused connection closes before the answer; once;
// - urllib3's `Retry`: an idempotent request after a connection or read error, its own timeout included,
//   on any connection, as many times as its counts allow (requests' default adapter has none);
// - Faraday's retry middleware (1.x): an idempotent request after a timeout;
// - axios-retry: any request after a network error.
// Node's http and fetch send nothing again by themselves. The rules read the timing (at once, on a new
// connection, sooner than any back-off the client keeps) and the library from the User-Agent where it
// tells; resilience.no-resend, bounded-retries and deadline name the library and the setting that stops it.
import type { JournalEntry } from '../service/journal.js'
import { ms, named, waitBetween } from './facts.js'

/** An attempt sent this soon after the one before failed was sent at once: as an HTTP library resends, even on a busy machine. */
const AT_ONCE_MS = 100
/**
 * The shortest wait between attempts that is a back-off of the client's own. A client whose own loop
 * retries sooner (an "at once" in a busy process takes tens of milliseconds) retries as quickly as an
 * HTTP library resends, and nothing tells the two apart.
 */
const OWN_BACKOFF_MS = 200

/** How an attempt was lost such that a library sends it again: the connection reset, closed before the answer, or the client's own timeout. */
export type LostBy = 'reset' | 'closed' | 'timeout'

/** How `entry` was lost, when a library could take it for leave to resend; undefined when an answer came. */
function lostBy(entry: JournalEntry): LostBy | undefined {
  if (entry.fault?.kind === 'reset') return 'reset'
  if (entry.fault?.kind === 'hang') return 'timeout'
  return entry.response.status === 0 ? 'closed' : undefined
}

/**
 * True when `entry` came on a connection that an earlier request of `requests` came on: a kept-alive
 * connection. False when the journal does not know the connections (an in-process mock, a capture without them).
 */
function onKeptAliveConnection(requests: ReadonlyArray<JournalEntry>, entry: JournalEntry): boolean {
  if (entry.connection === undefined) return false
  for (const earlier of requests) {
    if (earlier === entry) return false
    if (earlier.connection === entry.connection) return true
  }
  return false
}

/**
 * The hung requests the client gave up on by itself, a request of its following: proof that it keeps a
 * timeout (one it was killed waiting on is not among them).
 */
export function hangsGivenUp(requests: ReadonlyArray<JournalEntry>): JournalEntry[] {
  return requests.filter((entry) => entry.fault?.kind === 'hang' && requests.some((later) => later.seq > entry.seq))
}

/** An HTTP library that sends a request again by itself: which requests, after what, and what stops it. */
interface Resender {
  /** The User-Agent it sends unless told otherwise. */
  agent: RegExp
  /** The methods it resends; undefined: any. */
  methods?: ReadonlySet<string>
  /** It resends a request of any other method too when the request carries an Idempotency-Key header. */
  keyedToo?: true
  after: ReadonlyArray<LostBy>
  /** Only a request that came on a reused connection. */
  reusedOnly: boolean
  /** Named only where its User-Agent says so (a retry add-on, not what a client's HTTP layer does unasked). */
  byAgentOnly?: true
  /** What it does and the setting that stops it, as a sentence. */
  advice: string
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE'])

/** The libraries the rules name, each with what it resends and the setting that stops it (docs/rules.md lists them). */
export const RESENDERS: ReadonlyArray<Resender & { name: string }> = [
  {
    name: 'libcurl',
    agent: /^curl\/|^GuzzleHttp\//,
    after: ['reset', 'closed'],
    reusedOnly: true,
    advice:
      "libcurl (under PHP's curl functions, Guzzle and the `curl` command) sends any request again, a POST too, when a reused connection dies before the answer: set CURLOPT_FORBID_REUSE and CURLOPT_FRESH_CONNECT to true (Guzzle: the request option `'curl' => [CURLOPT_FORBID_REUSE => true, CURLOPT_FRESH_CONNECT => true]`; PHP's curl: `curl_setopt($ch, CURLOPT_FORBID_REUSE, true)`); the `curl` command has neither: run one `curl` per request, or send `Connection: close` on the request before",
  },
  {
    name: 'Net::HTTP',
    agent: /^Ruby$/,
    methods: IDEMPOTENT,
    after: ['reset', 'closed', 'timeout'],
    reusedOnly: false,
    advice:
      "Ruby's Net::HTTP sends a GET (any idempotent request) again after a reset, an early close or its own read timeout, on any connection (`max_retries` is 1): set `http.max_retries = 0` on each Net::HTTP object (Faraday's Net::HTTP adapter already does)",
  },
  {
    name: 'Faraday',
    agent: /^Faraday v/,
    methods: new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']),
    after: ['timeout'],
    reusedOnly: false,
    byAgentOnly: true,
    advice:
      "Faraday's retry middleware sends an idempotent request again after a timeout, at once unless given an `interval` (its Net::HTTP adapter sets `max_retries` to 0): its retries are attempts too (`max: 2` makes 3 in all)",
  },
  {
    name: 'net/http',
    agent: /^Go-http-client\//,
    methods: new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']),
    keyedToo: true,
    after: ['reset', 'closed'],
    reusedOnly: true,
    advice:
      "Go's net/http resends a GET (or a request with an Idempotency-Key header) when a reused connection fails before its answer, and has no switch for it: count each connection the request takes as an attempt (httptrace.ClientTrace's GotConn) or set Transport.DisableKeepAlives",
  },
  {
    name: 'java.net.http',
    agent: /^Java-http-client\//,
    methods: new Set(['GET', 'HEAD']),
    after: ['reset', 'closed'],
    reusedOnly: true,
    advice:
      'java.net.http resends a GET when a reused connection closes before its answer: set the system properties jdk.httpclient.disableRetryConnect=true and jdk.httpclient.redirects.retrylimit=1',
  },
  {
    name: 'urllib3',
    agent: /^python-(urllib3|requests)\//,
    methods: IDEMPOTENT,
    after: ['reset', 'closed', 'timeout'],
    reusedOnly: false,
    advice:
      "urllib3's Retry resends an idempotent request after a connection or read error, its own timeout included: its connect and read counts are attempts too (Retry(total=2) makes 3 in all, retries=False none)",
  },
  {
    name: 'axios-retry',
    agent: /^axios\//,
    after: ['reset', 'closed'],
    reusedOnly: false,
    byAgentOnly: true,
    advice:
      'axios-retry resends any request after a network error, a POST too (its default retryCondition): its retries are attempts too (retries: 2 makes 3 in all), and a POST needs a retryCondition that refuses it',
  },
]

/** Node's http and fetch (undici): they send nothing again by themselves. */
const NODE_AGENT = /^(node|undici)$/

/** The libraries whose own resend fits `next` after `prev` (lost as `how`), narrowed by its User-Agent where that names one. */
function resendersOf(
  requests: ReadonlyArray<JournalEntry>,
  prev: JournalEntry,
  next: JournalEntry,
  how: LostBy,
): Resender[] {
  const agent = next.request.headers['user-agent'] ?? ''
  const reused = onKeptAliveConnection(requests, prev)
  const idempotencyKey = 'idempotency-key' in next.request.headers || 'x-idempotency-key' in next.request.headers
  const fits = (library: Resender & { name: string }) =>
    library.after.includes(how) &&
    (!library.reusedOnly || reused) &&
    (library.methods === undefined || library.methods.has(next.request.method) || (library.keyedToo && idempotencyKey))
  if (NODE_AGENT.test(agent)) return []
  const named = RESENDERS.find((library) => library.agent.test(agent))
  if (named) return fits(named) ? [named] : []
  return RESENDERS.filter((library) => !library.byAgentOnly && fits(library))
}

/** A later attempt that came as an HTTP library resends: at once after the one before was lost, on a new connection. */
export interface Resend {
  entry: JournalEntry
  prev: JournalEntry
  how: LostBy
  /** The libraries whose own resend it fits. */
  by: Resender[]
}

/**
 * The attempts of a group (see `attempts`) sent as an HTTP library resends, whoever sent them: after the
 * one before was lost (a reset, an early close, the client's own timeout) and was not itself such a resend
 * (a library resends an attempt once), on a new connection, sooner than `withinMs`, where a library of
 * RESENDERS does so. The client's own loop may retry that way too: libraryResends tells them apart where
 * the client's own retries wait.
 */
export function resendsLike(
  requests: ReadonlyArray<JournalEntry>,
  group: ReadonlyArray<JournalEntry>,
  withinMs = AT_ONCE_MS,
): Resend[] {
  const like: Resend[] = []
  for (let i = 1; i < group.length; i++) {
    const prev = group[i - 1]
    const next = group[i]
    const how = lostBy(prev)
    if (how === undefined || like.at(-1)?.entry === prev) continue
    const newConnection = next.connection !== undefined && next.connection !== prev.connection
    if (!newConnection || waitBetween(prev, next) >= withinMs) continue
    const by = resendersOf(requests, prev, next, how)
    if (by.length > 0) like.push({ entry: next, prev, how, by })
  }
  return like
}

/**
 * The attempts of one request that the client's HTTP library most likely sent by itself, not the client's
 * own loop: each came as a library resends (resendsLike), in less than half the shortest wait of the
 * client's own retries (each a back-off: OWN_BACKOFF_MS or more). Where the client made no retry of its own,
 * only one sent at once after a reused connection was lost (after a fresh connection's loss Net::HTTP's
 * resend and the client's own quick retry look alike). Empty when nothing tells them apart.
 * @example libraryResends(requests, group).length // 1: Go's Transport resent the GET once
 */
export function libraryResends(requests: ReadonlyArray<JournalEntry>, group: ReadonlyArray<JournalEntry>): Resend[] {
  const quick = resendsLike(requests, group, OWN_BACKOFF_MS)
  const waitOf = (entry: JournalEntry) => waitBetween(group[group.indexOf(entry) - 1], entry)
  const own = group.slice(1).filter((entry) => !quick.some((resend) => resend.entry === entry))
  const backOff = own.length > 0 ? Math.min(...own.map(waitOf)) : undefined
  if (backOff === undefined)
    return quick.filter((resend) => waitOf(resend.entry) < AT_ONCE_MS && onKeptAliveConnection(requests, resend.prev))
  if (backOff < OWN_BACKOFF_MS) return []
  return quick.filter((resend) => waitOf(resend.entry) < backOff / 2)
}

/** What the libraries of `resends` do and the settings that stop them, each once, as one sentence. */
export function howToStop(resends: ReadonlyArray<Resend>): string {
  const libraries = [...new Set(resends.flatMap((resend) => resend.by))]
  return libraries.map((library) => library.advice).join('; ')
}

/** How an attempt was lost, after `was`/`got`: `was reset`. */
const LOST_WORDS: Record<LostBy, string> = {
  reset: 'was reset',
  closed: 'was closed before its answer',
  timeout: 'got no answer and the client gave up at its timeout',
}

/** How the attempt before `resend` was lost, as a clause: `the kept-alive connection it came on was reset`. */
export function lossOf(requests: ReadonlyArray<JournalEntry>, resend: Resend): string {
  if (resend.how === 'timeout') return `it got no answer and the client gave up after ${ms(resend.prev.durationMs)}`
  return `the ${onKeptAliveConnection(requests, resend.prev) ? 'kept-alive ' : ''}connection it came on ${LOST_WORDS[resend.how]}`
}

/**
 * `GET /vehicles (request 3 of 5) [seq 3] went 2 ms after GET /vehicles (request 2 of 5) [seq 2], which came on
 * a kept-alive connection, was reset`: when each resend went, after what, on a new connection.
 */
export function sentAfterLoss(requests: ReadonlyArray<JournalEntry>, resends: ReadonlyArray<Resend>): string {
  const waitOf = (resend: Resend) => Math.max(0, waitBetween(resend.prev, resend.entry))
  const lost = (resend: Resend) =>
    `which ${onKeptAliveConnection(requests, resend.prev) ? 'came on a kept-alive connection, ' : ''}${LOST_WORDS[resend.how]}`
  if (resends.length > 1) {
    const hows = [...new Set(resends.map((resend) => LOST_WORDS[resend.how]))]
    return `${resends.map((resend) => named(requests, resend.entry)).join(' and ')} each went within ${ms(Math.max(...resends.map(waitOf)))} after the attempt before them ${hows.join(' or ')}`
  }
  const [first] = resends
  return `${named(requests, first.entry)} went ${ms(waitOf(first))} after ${named(requests, first.prev)}, ${lost(first)}`
}
