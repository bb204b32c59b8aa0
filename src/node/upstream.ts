// The proxy's Node side: asks the upstream (http or https) with node:http's client over a keep-alive
// agent, and says what went wrong when it could not. node:http rather than fetch: its errors carry the
// system's code (ECONNREFUSED, ENOTFOUND, a TLS code, an HTTP parse error) for the 502's sentence, a
// private CA is an agent option rather than a second HTTP client package, and a kept-alive connection
// costs no web-stream layer per request.
import http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import zlib from 'node:zlib'
import { RelayMockError } from '../core/errors.js'
import type { Upstream, UpstreamRequest, UpstreamResult, UpstreamTroubleKind } from '../core/upstream.js'

export interface ForwarderOptions {
  /** The upstream's base URL: `http://` or `https://`, with a path prefix if the service has one. */
  baseUrl: string
  /** PEM text of the CA (or CAs) that signed the upstream's certificate, besides Node's own. */
  ca?: string
  /** How long one request may take, from sent to its answer's end. Default 30 s. */
  timeoutMs?: number
  /** The largest answer body read, in bytes; beyond it the request is a 502. Default 1 MiB, the service's own body limit. */
  bodyLimit?: number
}

/** The upstream as the proxy uses it, and `close()` to drop its kept-alive connections. */
export interface Forwarder extends Pick<Upstream, 'baseUrl' | 'forward'> {
  close(): void
}

/** How long the proxy waits for the upstream by default: beyond any sound client's own timeout. */
export const UPSTREAM_TIMEOUT_MS = 30_000

/**
 * The forwarding transport of `relay-mock proxy`.
 * @example const upstream = createForwarder({ baseUrl: 'https://staging.example' }); await upstream.forward({ method: 'GET', url: '/vehicles?plate=AB1', headers: {} })
 */
export function createForwarder({ baseUrl, ca, timeoutMs = UPSTREAM_TIMEOUT_MS, bodyLimit = 1024 * 1024 }: ForwarderOptions): Forwarder {
  const base = new URL(baseUrl)
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new RelayMockError('BAD_OPTION', `The upstream ${baseUrl} is not an http:// or https:// URL. Please give the real service's base URL, e.g. https://staging.example.com.`)
  }
  const secure = base.protocol === 'https:'
  const prefix = base.pathname.replace(/\/+$/, '')
  // Keep-alive, so that a request reuses a connection rather than paying a TCP (and TLS) handshake. A
  // private CA is added to Node's own roots, not put in their place. No Nagle delay on a small request;
  // the connection used last goes first (lifo), so that few stay warm.
  const agent = secure ? new https.Agent({ keepAlive: true, noDelay: true, maxSockets: 256, scheduling: 'lifo', ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) }) : new http.Agent({ keepAlive: true, noDelay: true, maxSockets: 256, scheduling: 'lifo' })
  const client = secure ? https : http

  function attempt(request: UpstreamRequest, retried: boolean): Promise<UpstreamResult> {
    return new Promise((resolve) => {
      const started = performance.now()
      let settled = false
      const settle = (result: UpstreamResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(result)
      }
      const headers: Record<string, string | string[]> = { ...request.headers, 'accept-encoding': 'identity' }
      const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8')
      if (body) headers['content-length'] = String(body.length)
      const outgoing = client.request({ protocol: base.protocol, hostname: base.hostname, port: base.port, method: request.method, path: `${prefix}${request.url}`, headers, agent })
      const timer = setTimeout(() => {
        outgoing.destroy()
        settle({ trouble: { kind: 'timeout', detail: `no whole answer within ${timeoutMs} ms (--upstream-timeout)` } })
      }, timeoutMs)
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return
        // A kept-alive connection the upstream had closed meanwhile: a lookup is safe to send again, once.
        if (!retried && (outgoing as http.ClientRequest & { reusedSocket?: boolean }).reusedSocket && error.code === 'ECONNRESET' && (request.method === 'GET' || request.method === 'HEAD')) {
          clearTimeout(timer)
          settled = true
          void attempt(request, true).then(resolve)
          return
        }
        settle({ trouble: { kind: troubleOf(error), detail: describe(error) } })
      })
      outgoing.on('response', (incoming) => {
        const chunks: Buffer[] = []
        let size = 0
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > bodyLimit) {
            // Settled first: destroying the answer reports it as broken off.
            settle({ trouble: { kind: 'too-large', detail: `its body was over ${bodyLimit} bytes` } })
            incoming.destroy()
            outgoing.destroy()
            return
          }
          chunks.push(chunk)
        })
        incoming.on('error', (error: NodeJS.ErrnoException) => settle({ trouble: { kind: 'reset', detail: `the answer's body broke off: ${describe(error)}` } }))
        incoming.on('aborted', () => settle({ trouble: { kind: 'reset', detail: "the connection closed before the answer's body was whole" } }))
        incoming.on('end', () => {
          if (!incoming.complete) return settle({ trouble: { kind: 'reset', detail: "the connection closed before the answer's body was whole" } })
          let raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
          const encoding = String(incoming.headers['content-encoding'] ?? '').trim().toLowerCase()
          try {
            raw = decoded(raw, encoding, bodyLimit)
          } catch (error) {
            return settle({ trouble: { kind: 'not-http', detail: `its ${encoding} body could not be decoded: ${describe(error as Error)}` } })
          }
          settle({ answer: { status: incoming.statusCode ?? 0, headers: incoming.headers, text: raw.toString('utf8'), durationMs: Math.round((performance.now() - started) * 1000) / 1000 } })
        })
      })
      outgoing.end(body)
    })
  }

  return {
    baseUrl: base.href.replace(/\/$/, ''),
    forward: (request) => attempt(request, false),
    close: () => agent.destroy(),
  }
}

/** A body the upstream encoded although asked for identity, decoded (within the limit: a small bomb is refused). */
function decoded(raw: Buffer, encoding: string, limit: number): Buffer {
  if (encoding === '' || encoding === 'identity') return raw
  const options = { maxOutputLength: limit }
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(raw, options)
  if (encoding === 'deflate') return zlib.inflateSync(raw, options)
  if (encoding === 'br') return zlib.brotliDecompressSync(raw, options)
  throw new Error(`the content encoding ${encoding} is not one relay-mock reads`)
}

/** The kind of trouble a client error is, by its system code. */
export function troubleOf(error: NodeJS.ErrnoException): UpstreamTroubleKind {
  const code = error.code ?? ''
  if (code === 'ECONNREFUSED') return 'refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns'
  if (code.startsWith('HPE_')) return 'not-http'
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'reset'
  if (code === 'ETIMEDOUT') return 'timeout'
  if (/^ERR_(TLS|SSL)|CERT|^UNABLE_TO|^DEPTH_ZERO|^SELF_SIGNED|^EPROTO$/.test(code) || /\bSSL\b|TLS/i.test(error.message)) return 'tls'
  return 'failed'
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message
}
