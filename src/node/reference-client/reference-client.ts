// The project's own reference client, in-process: both flows exactly as the interface says
// (client-flow.ts), over real HTTP with fetch, and resilient the way the conformance rules ask: every
// request has a timeout (RELAY_REQUEST_TIMEOUT_MS), a 503 or 429 is retried after its Retry-After, a
// lookup after a lost answer or a 5xx (500 ms later), at most 3 attempts in all; a POST whose answer was
// lost is never sent again blind, and a payment whose answer was lost is reported `unknown`. `relay-mock
// demo` runs it; tests use it as the known-good client.
import type { ClientReport } from '../../core/rules/types.js'
import { runFlow, toAnswer, withRetries, type Answer, type FlowRequest } from './client-flow.js'
import type { ClientFunction, ClientVisit, RelayEnv } from '../runner/contract.js'

/** The query as the interface writes it: `name=value`, the value percent-encoded. */
const queryString = (query: FlowRequest['query']) =>
  query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')

/** One request with `fetch`, within `timeoutMs`, ended early when `signal` aborts. */
async function sendWithFetch(
  fetch: typeof globalThis.fetch,
  env: RelayEnv,
  timeoutMs: number,
  signal: AbortSignal,
  request: FlowRequest,
): Promise<Answer> {
  const { method, path, query, body } = request
  const headers: Record<string, string> = { authorization: `Bearer ${env.RELAY_API_TOKEN}` }
  if (body) headers['content-type'] = 'application/json'
  // One controller for the run's signal and the timeout (Node 20's AbortSignal.any may lose a
  // composed signal to garbage collection, and with it the timeout).
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  )
  const stop = () => controller.abort(signal.reason)
  signal.addEventListener('abort', stop, { once: true })
  try {
    const url = `${env.RELAY_BASE_URL}${path}${query.length > 0 ? `?${queryString(query)}` : ''}`
    const response = await fetch(url, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      signal: controller.signal,
    })
    return toAnswer(response.status, await response.text(), response.headers.get('retry-after'))
  } catch (error) {
    const err = error as Error
    return {
      lost: true,
      why: err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `the connection failed (${err.message})`,
    }
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', stop)
  }
}

/**
 * The reference client: `retries` is how many more times it tries a request that failed in a way
 * worth retrying (default 2: 3 attempts in all); `fetch` is what it sends with (a test's client that
 * reads the answers otherwise wraps it).
 * @example await runConformance({ client: createReferenceClient({ retries: 1 }) })
 */
export function createReferenceClient({
  retries = 2,
  fetch = globalThis.fetch,
}: { retries?: number; fetch?: typeof globalThis.fetch } = {}): ClientFunction {
  return async function referenceClient(visit: ClientVisit, env: RelayEnv, { signal }): Promise<ClientReport> {
    const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) > 0 ? Number(env.RELAY_REQUEST_TIMEOUT_MS) : 5000
    const send = (request: FlowRequest) => sendWithFetch(fetch, env, timeoutMs, signal, request)
    return runFlow(visit, withRetries(send, { attempts: retries + 1, signal }))
  }
}

/**
 * Reports one visit's payment with the flow `visit.flow` and returns the outcome; never throws on
 * an answer of the service (the customer's payment completes whatever it says).
 * @example await runConformance({ client: referenceClient })
 */
export const referenceClient: ClientFunction = createReferenceClient()
