// A location client on axios with axios-retry, as a developer writes it: `node axios-retry.mjs defaults`
// is `axiosRetry(client)` as it comes with only a timeout set; `node axios-retry.mjs recipe` is axios-retry
// set up as docs/http-libraries.md says. The flow is flow.mjs's, the same for every library; only the
// HTTP layer below differs. In the tests it runs in-process: createClient(mode), a client function with a
// connection pool of its own per case.
//
// axios-retry's defaults: 3 retries (4 attempts), at once (no delay, but a Retry-After is waited out);
// its retryCondition, isNetworkOrIdempotentRequestError, retries a 429 or 5xx of an idempotent method
// (GET, HEAD, OPTIONS, PUT, DELETE) and a network error (a reset, a refused connection) of ANY method:
// a POST whose connection was reset after the service recorded it is sent again. A timeout is not
// retried, and the request timeout shrinks with each attempt (shouldResetTimeout: false).
import http from 'node:http'
import axios from 'axios'
import axiosRetry, { exponentialDelay, isNetworkOrIdempotentRequestError, retryAfter } from 'axios-retry'
import { libraryClient, requestTimeoutMs, toAnswer } from './flow.mjs'

const MAX_RETRY_AFTER_MS = 10_000
/**
 * A body cut off halfway: axios rejects with the response's head (status, headers) and no data, and
 * axios-retry's conditions see a response, so no network error: never retried at its defaults.
 */
const cutOff = (error) => error.response !== undefined && error.response.data === undefined
/** A 2xx whose body is cut off (no data) or not JSON (a proxy's page): a failed attempt, which a lookup may retry. */
const unreadable = (response) =>
  response.status >= 200 &&
  response.status < 300 &&
  (response.data === undefined || toAnswer(response.status, response.data).lost)

/** One case's `send`: axios with axios-retry, and a connection pool of its own (an http.Agent as Node's global one is set up). */
function connect(mode, env, log) {
  const timeout = requestTimeoutMs(env)
  const httpAgent = new http.Agent({ keepAlive: true })
  const client = axios.create({
    baseURL: env.RELAY_BASE_URL,
    timeout,
    headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
    // The body as text: the flow parses it, so that a 2xx that is not JSON is seen for what it is.
    responseType: 'text',
    httpAgent,
  })

  if (mode === 'recipe') {
    axiosRetry(client, {
      retries: 2,
      // A lookup after a network error, a timeout, a 429, a 5xx or an unreadable 2xx; a POST only where
      // the answer says nothing was done (429, 503): otherwise it may have been recorded.
      retryCondition: (error) => {
        if (retryAfter(error) > MAX_RETRY_AFTER_MS) return false
        if (error.config?.method === 'get') {
          return (
            isNetworkOrIdempotentRequestError(error) ||
            error.code === 'ECONNABORTED' ||
            cutOff(error) ||
            (error.response !== undefined && unreadable(error.response))
          )
        }
        return [429, 503].includes(error.response?.status)
      },
      // 600 ms, 1.2 s (plus up to 20 %), or the Retry-After when longer.
      retryDelay: (retryCount, error) => exponentialDelay(retryCount, error, 300),
      shouldResetTimeout: true, // each attempt gets the whole timeout
      // Every answer goes through retryCondition unless it is a readable 2xx.
      validateResponse: (response) => response.status >= 200 && response.status < 300 && !unreadable(response),
    })
  } else {
    axiosRetry(client)
  }

  async function send(method, path, body) {
    let response
    try {
      response = await client.request({ method, url: path, ...(body === undefined ? {} : { data: body }) })
    } catch (error) {
      if (error.response && !cutOff(error)) response = error.response
      else {
        const why =
          error.code === 'ECONNABORTED'
            ? `no answer within ${timeout} ms`
            : cutOff(error)
              ? `the ${error.response.status} answer was cut off (${error.code}: ${error.message})`
              : `the connection failed (${error.code ?? error.name}: ${error.message})`
        log(`${method} ${path} -> ${why}`)
        return { lost: true, why }
      }
    }
    log(`${method} ${path} -> ${response.status}`)
    return toAnswer(response.status, response.data)
  }
  return { send, close: () => httpAgent.destroy() }
}

export const { createClient, main } = libraryClient('axios-retry', connect)
await main(import.meta)
