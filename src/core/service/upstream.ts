// What a proxying service (`relay-mock proxy`) asks of its transport, as types: the request it sends on,
// the upstream's answer or its trouble, and the observers told of each. Apart from forward.ts (the
// pipeline's step) so that the service's options name them without importing the pipeline's parts.
import type { JournalEntry } from './journal.js'

/** A request as the proxy sends it on: the path and query as the client sent them, end-to-end headers only. */
export interface UpstreamRequest {
  method: string
  /** Path and query string, e.g. `/vehicles?plate=AB123`, joined to the upstream's base URL. */
  url: string
  headers: Record<string, string | string[]>
  body?: string
}

/** The upstream's answer, whole: its status, its headers (names in lower case) and its body as text. */
export interface UpstreamAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The body read as JSON, once it has been (`null`: it is not JSON), so that it is parsed once for the client and the checks alike. */
  json?: { value: unknown } | null
  /** How long the upstream took, from the request sent to the body's end (to the limit's, for a body passed on as it comes). */
  durationMs: number
  /**
   * Set when the body is larger than the proxy reads (its body limit): the whole body, raw, as it comes
   * (the part already read first), to be passed on to the client as it is. `text` then holds only the
   * body's first bytes, for the journal; nothing is checked past them.
   */
  passedOn?: BodyStream
}

/** A body passed on as it comes, never held whole. `cancel()` drops it and breaks off the upstream's answer. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  cancel(): void
}

/** What went wrong on the way to the upstream, by kind: each is a 502 (a 504 for `timeout`) to the client. */
export const UPSTREAM_TROUBLES = {
  refused: 'the upstream refused the connection (nothing listens there)',
  dns: "the upstream's host name did not resolve",
  tls: 'the TLS handshake with the upstream failed',
  timeout: 'the upstream did not answer in time',
  reset: 'the upstream closed or reset the connection before its answer was whole',
  'not-http': 'the upstream answered something that is not HTTP',
  'too-large': "the upstream's answer was larger than the body limit",
  failed: 'the request to the upstream failed',
} as const

export type UpstreamTroubleKind = keyof typeof UPSTREAM_TROUBLES

export interface UpstreamTrouble {
  kind: UpstreamTroubleKind
  /** The transport's own words (the system error's code and message). */
  detail: string
}

export type UpstreamResult = { answer: UpstreamAnswer } | { trouble: UpstreamTrouble }

/** A request journaled with the upstream's answer to it, for whoever checks answers (the assumption ledger). */
export interface UpstreamObservation {
  /** The journal's entry (credentials masked): seq, request, the answer the client got, route, world. */
  entry: JournalEntry
  /** What the upstream answered, before any fault broke it; or its trouble; undefined when nothing was forwarded. */
  upstream: UpstreamResult | undefined
}

/**
 * Where a proxying service sends the service's requests: its base URL and the transport that asks it.
 * @example createRelayService({ tokens: [], upstream: { baseUrl: 'https://staging.example', forward } })
 */
export interface Upstream {
  /** The upstream's base URL, as the banner and the 502's show it. */
  baseUrl: string
  /** Sends one request and resolves with the answer or the trouble; never rejects. */
  forward(request: UpstreamRequest): Promise<UpstreamResult>
  /** Told of each request on the service's paths once journaled, with what the upstream answered. */
  observe?(observation: UpstreamObservation): void
}

/** What the journal keeps of the upstream's part in an answer. */
export interface UpstreamNote {
  /** The upstream's status; null when it gave none (trouble) or was not asked (a fault that forwards nothing, a refusal of the proxy's). */
  status: number | null
  /** What went wrong on the way, when something did. */
  trouble?: UpstreamTrouble
  durationMs?: number
}
