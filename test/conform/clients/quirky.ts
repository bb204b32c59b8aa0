// A location client with habits real clients have, chosen by option: a cache-buster on every lookup
// (`&_=1795791066550`, fresh each attempt), the query's parameters and the body's keys in another order
// and layout each attempt, a User-Agent that changes each attempt, as many attempts as asked, and
// (its one defect when asked) a plate pasted into the query unencoded. Over node:http, so what it
// sends is what it wrote: nothing percent-encodes the path behind its back. Otherwise it is the
// reference flow (src/node/reference-client/client-flow.ts) with its retries: only the transport below is its own.
import http from 'node:http'
import {
  isRecord,
  runFlow,
  toAnswer,
  withRetries,
  type Answer,
  type FlowRequest,
} from '../../../src/node/reference-client/client-flow.js'
import type { ClientFunction, RelayEnv } from '../../../src/node/runner/contract.js'

export interface Quirks {
  /** Adds `_=<a fresh number>` to every query, first. */
  cacheBuster?: boolean
  /** Turns the body's keys around and indents it differently on every other attempt. */
  shuffle?: boolean
  /** Attempts at a request in all (default 3). */
  attempts?: number
  /** The defect: `plate=${plate}` as it comes, not percent-encoded. */
  pastePlate?: boolean
  /** The defect: the JSON body's bytes in Latin-1 (one byte a letter), not UTF-8. */
  latin1Body?: boolean
}

/** A JSON value with its objects' keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (!isRecord(value)) return value
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversed(item)]),
  )
}

let stamp = 1_795_791_066_550

/** The request's query and body as the quirks write them on the `n`th request of a visit. */
function written(quirks: Quirks, { query, body }: FlowRequest, n: number) {
  const pairs = quirks.cacheBuster ? [['_', String(stamp++)], ...query] : query
  const search = pairs
    .map(([name, value]) => `${name}=${quirks.pastePlate && name === 'plate' ? value : encodeURIComponent(value)}`)
    .join('&')
  const text =
    body === undefined
      ? undefined
      : quirks.shuffle && n % 2 === 0
        ? JSON.stringify(reversed(body), null, 2)
        : JSON.stringify(body)
  return { search, text }
}

/** The quirks' transport: one request over node:http, the path as written. */
function quirkySend(quirks: Quirks, env: RelayEnv, timeoutMs: number) {
  let sent = 0
  return (request: FlowRequest) =>
    new Promise<Answer>((resolve) => {
      const n = ++sent
      const { method, path } = request
      const { search, text } = written(quirks, request, n)
      const headers: Record<string, string> = {
        authorization: `Bearer ${env.RELAY_API_TOKEN}`,
        'user-agent': `quirky/1.${n}`,
      }
      if (text !== undefined) headers['content-type'] = 'application/json'
      let outgoing: http.ClientRequest
      try {
        // The path as written: a URL string would be percent-encoded by the URL parser on the way.
        const base = new URL(env.RELAY_BASE_URL)
        const target = `${base.pathname.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}`
        outgoing = http.request({
          host: base.hostname,
          port: base.port,
          path: target,
          method,
          headers,
          timeout: timeoutMs,
        })
      } catch (error) {
        // Node refuses a path with a space in it: the request never leaves.
        throw new Error(`${method} ${path}: ${(error as Error).message}`, { cause: error })
      }
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)))
      outgoing.on('error', (error) => resolve({ lost: true, why: error.message }))
      outgoing.on('response', (response) => {
        let raw = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (raw += chunk))
        response.on('error', (error) => resolve({ lost: true, why: error.message }))
        response.on('end', () => resolve(toAnswer(response.statusCode ?? 0, raw, response.headers['retry-after'])))
      })
      outgoing.end(text === undefined ? undefined : Buffer.from(text, quirks.latin1Body ? 'latin1' : 'utf8'))
    })
}

export function createQuirkyClient(quirks: Quirks = {}): ClientFunction {
  return async function quirkyClient(visit, env) {
    const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) || 5000
    return runFlow(visit, withRetries(quirkySend(quirks, env, timeoutMs), { attempts: quirks.attempts ?? 3 }))
  }
}
