// The proxy's Node side: asks the upstream (http or https) over a pool of kept-alive connections, and
// says what went wrong when it could not. undici's Pool rather than node:http's client: on this path it
// costs about a third less per request (no ClientRequest, agent queue or IncomingMessage stream per
// request), which is most of what a proxy adds to a request besides its two socket writes; its errors
// carry the system's code (ECONNREFUSED, ENOTFOUND, a TLS code, an HTTP parse error) for the 502's
// sentence; a private CA is a connect option.
import { Readable } from 'node:stream'
import tls from 'node:tls'
import zlib from 'node:zlib'
import { Pool, type Dispatcher } from 'undici'
import { RelayMockError } from '../../core/errors.js'
import type {
  BodyStream,
  Upstream,
  UpstreamRequest,
  UpstreamResult,
  UpstreamTroubleKind,
} from '../../core/service/upstream.js'

export interface ForwarderOptions {
  /** The upstream's base URL: `http://` or `https://`, with a path prefix if the service has one. */
  baseUrl: string
  /** PEM text of the CA (or CAs) that signed the upstream's certificate, besides Node's own. */
  ca?: string
  /** How long one request may take, from sent to its answer's end. Default 30 s. */
  timeoutMs?: number
  /** The largest answer body read, in bytes; a larger one is passed on as it comes, its first bytes journaled and nothing checked past them (an encoded one is a 502). Default 1 MiB, serve's body limit. */
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
export function createForwarder({
  baseUrl,
  ca,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
  bodyLimit = 1024 * 1024,
}: ForwarderOptions): Forwarder {
  const base = new URL(baseUrl)
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new RelayMockError(
      'BAD_OPTION',
      `The upstream ${baseUrl} is not an http:// or https:// URL. Please give the real service's base URL, e.g. https://staging.example.com.`,
    )
  }
  const prefix = base.pathname.replace(/\/+$/, '')
  // Kept-alive connections, so that a request reuses one rather than paying a TCP (and TLS) handshake;
  // one request at a time on each (no pipelining: a slow answer must not hold up another client's).
  // A private CA is added to Node's own roots, not put in their place.
  const pool = new Pool(base.origin, {
    connections: 256,
    pipelining: 1,
    connect: { timeout: timeoutMs, noDelay: true, ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) },
    headersTimeout: 0,
    bodyTimeout: 0,
  })

  const limits: Limits = { timeoutMs, bodyLimit }
  const attempt = (request: UpstreamRequest, retried: boolean): Promise<UpstreamResult> =>
    new Promise((resolve) => {
      let settled = false
      let controller: Dispatcher.DispatchController | undefined
      const settle = (result: UpstreamResult): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(result)
      }
      const timer = setTimeout(() => {
        settle({ trouble: { kind: 'timeout', detail: `no whole answer within ${timeoutMs} ms (--upstream-timeout)` } })
        controller?.abort(new Error('timed out'))
      }, timeoutMs)
      const options: Dispatcher.DispatchOptions = {
        method: request.method,
        path: `${prefix}${request.url}`,
        headers: { ...request.headers, 'accept-encoding': 'identity' },
      }
      if (request.body !== undefined) options.body = request.body
      pool.dispatch(
        options,
        answerReader({
          limits,
          started: performance.now(),
          isSettled: () => settled,
          settle,
          onController: (started) => (controller = started),
          // Broken off before any answer (most often a kept-alive connection the upstream had closed
          // meanwhile): a lookup is safe to send again, once.
          retry:
            !retried && (request.method === 'GET' || request.method === 'HEAD')
              ? () => {
                  clearTimeout(timer)
                  settled = true
                  void attempt(request, true).then(resolve)
                }
              : undefined,
        }),
      )
    })

  return {
    baseUrl: base.href.replace(/\/$/, ''),
    forward: (request) => attempt(request, false),
    close: () => void pool.destroy().catch(() => undefined),
  }
}

interface Limits {
  timeoutMs: number
  bodyLimit: number
}

/** What reading one attempt's answer needs of the attempt. */
interface Attempt {
  limits: Limits
  /** When the request was sent (performance.now()). */
  started: number
  isSettled(): boolean
  settle: (result: UpstreamResult) => void
  /** Hands on the request's controller, for the attempt's timer to abort. */
  onController(controller: Dispatcher.DispatchController): void
  /** Sends the request again, its result settling this attempt; undefined when it may not be. */
  retry?: () => void
}

/**
 * Reads the upstream's answer into a result: whole when it is within the body limit (decoded if the
 * upstream encoded it), passed on as it comes when it is larger, or the trouble that broke it off.
 */
function answerReader(attempt: Attempt): Dispatcher.DispatchHandler {
  const { limits, settle } = attempt
  let answered = false
  let status = 0
  let headers: Record<string, string | string[] | undefined> = {}
  const chunks: Buffer[] = []
  let size = 0
  let passedOn: PassedOn | undefined
  const durationMs = (): number => Math.round((performance.now() - attempt.started) * 1000) / 1000
  const encodingOf = (): string =>
    String(headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase()
  return {
    onRequestStart(controller) {
      attempt.onController(controller)
      if (attempt.isSettled()) controller.abort(new Error('timed out'))
    },
    onResponseStart(_controller, statusCode, answerHeaders) {
      answered = true
      status = statusCode
      headers = answerHeaders
    },
    onResponseData(active, chunk) {
      if (passedOn) {
        if (!passedOn.push(chunk)) active.pause()
        return
      }
      size += chunk.length
      chunks.push(chunk)
      if (size <= limits.bodyLimit) return
      const encoding = encodingOf()
      if (encoding !== '' && encoding !== 'identity') {
        // Encoded, its size once decoded is unknown: not passed on, as it cannot be journaled.
        settle({ trouble: { kind: 'too-large', detail: `its ${encoding} body was over ${limits.bodyLimit} bytes` } })
        active.abort(new Error('too large'))
        return
      }
      // Larger than the proxy reads: passed on to the client as it comes, with the first bytes journaled.
      passedOn = passOn(active, chunks, limits.timeoutMs)
      const head = Buffer.concat(chunks).subarray(0, limits.bodyLimit)
      // The stream holds what was read until the client takes it: not this list too.
      chunks.length = 0
      settle({ answer: { status, headers, text: head.toString('utf8'), durationMs: durationMs(), passedOn } })
    },
    onResponseEnd() {
      if (passedOn) {
        passedOn.whole = true
        return void passedOn.push(null)
      }
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
      const encoding = encodingOf()
      let text: string
      try {
        text = decoded(raw, encoding, limits.bodyLimit).toString('utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          return settle({
            trouble: { kind: 'too-large', detail: `its ${encoding} body was over ${limits.bodyLimit} bytes decoded` },
          })
        return settle({
          trouble: {
            kind: 'not-http',
            detail: `its ${encoding} body could not be decoded: ${describe(error as Error)}`,
          },
        })
      }
      settle({ answer: { status, headers, text, durationMs: durationMs() } })
    },
    onResponseError(_controller, error: NodeJS.ErrnoException) {
      // Broken off while passed on: the client's answer breaks off too, as the upstream's did.
      if (passedOn) return void passedOn.destroy(error)
      if (attempt.isSettled()) return
      const kind = troubleOf(error)
      if (attempt.retry && !answered && kind === 'reset') return attempt.retry()
      settle({ trouble: { kind, detail: describe(error) } })
    },
  }
}

/** A body passed on as it comes (see UpstreamAnswer.passedOn): a Readable fed by the upstream's answer, pausing it while the client is slow. */
type PassedOn = Readable & BodyStream & { whole?: true }

function passOn(controller: Dispatcher.DispatchController, read: Buffer[], stallMs: number): PassedOn {
  // A body that stops moving for as long as the upstream may take to answer (the upstream stalled, or
  // the client stopped reading) is broken off, so that neither holds a connection of the pool for good.
  const stalled = setTimeout(
    () => stream.destroy(new Error(`the body passed on moved no byte in ${stallMs} ms (--upstream-timeout)`)),
    stallMs,
  )
  const stream = new Readable({
    read() {
      stalled.refresh()
      controller.resume()
    },
    destroy(error, callback) {
      clearTimeout(stalled)
      // The client went away, or the proxy dropped it (a fault): the upstream's answer is broken off.
      if (!stream.whole && !controller.aborted) controller.abort(error ?? new Error('passed-on body dropped'))
      callback(error)
    },
  }) as PassedOn
  // Broken off before the server pipes it (a delayed answer): the pipe reads the error then, and nothing is thrown meanwhile.
  stream.on('error', () => undefined)
  stream.cancel = () => void stream.destroy()
  for (const chunk of read) stream.push(chunk)
  return stream
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
  if (code.startsWith('HPE_') || error.name === 'HTTPParserError') return 'not-http'
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNABORTED' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
  )
    return 'reset'
  if (
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  )
    return 'timeout'
  if (
    /^ERR_(TLS|SSL)|CERT|^UNABLE_TO|^DEPTH_ZERO|^SELF_SIGNED|^EPROTO$/.test(code) ||
    /\bSSL\b|TLS/i.test(error.message)
  )
    return 'tls'
  return 'failed'
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message
}
