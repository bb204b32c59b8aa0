// A location client on ky (fetch with retries), as a developer writes it: `node ky.mjs defaults` is ky
// as it comes with only a timeout set; `node ky.mjs recipe` is ky set up as docs/http-libraries.md says.
// The flow is flow.mjs's, the same for every library; only the HTTP layer below differs. In the tests it runs in-process:
// createClient(mode), a client function with a connection pool of its own per case.
//
// ky's defaults: 2 retries (3 attempts) of GET, PUT, HEAD, DELETE, OPTIONS and TRACE, never of POST;
// after 408, 413, 429, 500, 502, 503, 504 or a network error, 0.3 s then 0.6 s apart; the Retry-After of
// a 413, 429 or 503 is waited out however long (maxRetryAfter: Infinity); a timeout is not retried.
import ky, { HTTPError } from 'ky'
import { Agent } from 'undici'
import { libraryClient, requestTimeoutMs, toAnswer } from './flow.mjs'

/** A 2xx whose body is cut off or not JSON: a failed attempt, which the recipe retries for a lookup. */
class UnreadableAnswer extends Error {}

/** Retry-After in ms (seconds, or an HTTP-date), undefined when absent. */
function retryAfterMs(value) {
  if (value === null) return undefined
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : date - Date.now()
}
// ky's maxRetryAfter would retry *early* when told to wait longer; a ceiling gives up instead.
const MAX_RETRY_AFTER_MS = 10_000
const tooLongToWait = (error) =>
  error instanceof HTTPError && (retryAfterMs(error.response.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_MS

const retry = {
  limit: 2,
  statusCodes: [408, 429, 500, 502, 503, 504], // 413 is a refusal, not a hiccup
  afterStatusCodes: [429, 503],
  delay: (attempt) => 600 * 2 ** (attempt - 1), // 0.6 s, 1.2 s: at least 500 ms after a 5xx
}
/**
 * The recipe's retries, by method: ky's shouldRetry sees the error but not the request (a network error
 * carries neither), so each method gets its own options.
 */
const retryFor = {
  // A lookup after a 5xx, no answer, its own timeout, or an unreadable 2xx.
  GET: {
    ...retry,
    methods: ['get'],
    retryOnTimeout: true,
    shouldRetry: ({ error }) => (tooLongToWait(error) ? false : error instanceof UnreadableAnswer ? true : undefined),
  },
  // A POST only where the answer says nothing was done (408, 429, 503): it may have been recorded otherwise.
  POST: {
    ...retry,
    methods: ['post'],
    shouldRetry: ({ error }) =>
      error instanceof HTTPError && [408, 429, 503].includes(error.response.status) && !tooLongToWait(error)
        ? undefined
        : false,
  },
}
const recipe = {
  hooks: {
    afterResponse: [
      async (_request, _options, response) => {
        if (!response.ok) return
        // The whole body, read here, so that a cut-off or non-JSON 2xx counts as a failed attempt.
        const text = await response.text().catch(() => {
          throw new UnreadableAnswer(`the ${response.status} answer was cut off`)
        })
        if (toAnswer(response.status, text).lost)
          throw new UnreadableAnswer(`HTTP ${response.status} with a body that is not JSON`)
      },
    ],
  },
}

/** One case's `send`: ky on fetch, with a connection pool of its own (fetch's dispatcher). */
function connect(mode, env, log) {
  const timeout = requestTimeoutMs(env)
  const baseUrl = env.RELAY_BASE_URL
  const dispatcher = new Agent()
  const api = ky.create({
    headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
    timeout,
    dispatcher,
    ...(mode === 'recipe' ? recipe : {}),
  })

  async function send(method, path, body) {
    let response
    try {
      response = await api(baseUrl + path, {
        method,
        ...(mode === 'recipe' ? { retry: retryFor[method] } : {}),
        ...(body === undefined ? {} : { json: body }),
      })
    } catch (error) {
      if (error instanceof HTTPError) response = error.response
      else {
        const why =
          error instanceof UnreadableAnswer
            ? error.message
            : error.name === 'TimeoutError'
              ? `no answer within ${timeout} ms`
              : `the connection failed (${error.message})`
        log(`${method} ${path} -> ${why}`)
        return { lost: true, why }
      }
    }
    log(`${method} ${path} -> ${response.status}`)
    let text
    try {
      text = await response.text()
    } catch {
      return { lost: true, why: `the ${response.status} answer was cut off` }
    }
    return toAnswer(response.status, text)
  }
  return { send, close: () => dispatcher.destroy() }
}

export const { createClient, main } = libraryClient('ky', connect)
await main(import.meta)
