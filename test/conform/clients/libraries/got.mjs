// A location client on got, as a developer writes it: `node got.mjs defaults` is got as it comes with
// only a timeout set; `node got.mjs recipe` is got set up as docs/http-libraries.md says. The flow is
// flow.mjs's, the same for every library; only the HTTP layer below differs. In the tests it runs
// in-process: createClient(mode), a client function with a connection pool of its own per case.
//
// got's defaults: 2 retries (3 attempts) of GET, PUT, HEAD, DELETE, OPTIONS and TRACE, never of POST;
// after 408, 413, 429, 500, 502, 503, 504, 521, 522, 524 or a network error (ETIMEDOUT, ECONNRESET...),
// 1 s then 2 s apart (plus up to 100 ms of noise); a Retry-After is waited out unless it is longer than
// the request timeout, when got gives up instead.
import http from 'node:http'
import got, { HTTPError } from 'got'
import { libraryClient, requestTimeoutMs, toAnswer } from './flow.mjs'

const recipe = {
  retry: {
    limit: 2,
    methods: ['GET', 'POST'],
    statusCodes: [408, 429, 500, 502, 503, 504], // 413 is a refusal, not a hiccup
    // A Retry-After longer than this gives up at once (got's default ceiling is the request timeout).
    maxRetryAfter: 10_000,
    calculateDelay: ({ error, computedValue }) => {
      // A POST only where the answer says nothing was done: it may have been recorded otherwise.
      if (error.options.method === 'POST' && ![408, 429, 503].includes(error.response?.statusCode)) return 0
      return computedValue // got's own: 0 (no retry), the Retry-After, or 1 s, 2 s
    },
  },
  hooks: {
    afterResponse: [
      (response, retryWithMergedOptions) => {
        // A 2xx whose body is not JSON (a proxy's page) tells the client nothing: a lookup goes again.
        const unreadable =
          response.statusCode >= 200 && response.statusCode < 300 && toAnswer(response.statusCode, response.body).lost
        if (unreadable && response.request.options.method === 'GET' && response.retryCount < 2)
          return retryWithMergedOptions({})
        return response
      },
    ],
  },
}

/** One case's `send`: got with a connection pool of its own (an http.Agent as Node's global one is set up). */
function connect(mode, env, log) {
  const timeout = requestTimeoutMs(env)
  const baseUrl = env.RELAY_BASE_URL
  const agent = new http.Agent({ keepAlive: true })
  const client = got.extend({
    headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
    timeout: { request: timeout },
    agent: { http: agent },
    ...(mode === 'recipe' ? recipe : {}),
  })

  async function send(method, path, body) {
    let response
    try {
      response = await client(baseUrl + path, { method, ...(body === undefined ? {} : { json: body }) })
    } catch (error) {
      if (error instanceof HTTPError) response = error.response
      else {
        const why =
          error.code === 'ETIMEDOUT'
            ? `no answer within ${timeout} ms`
            : `the connection failed (${error.code ?? error.name}: ${error.message})`
        log(`${method} ${path} -> ${why}`)
        return { lost: true, why }
      }
    }
    log(`${method} ${path} -> ${response.statusCode}`)
    return toAnswer(response.statusCode, response.body)
  }
  return { send, close: () => agent.destroy() }
}

export const { createClient, main } = libraryClient('got', connect)
await main(import.meta)
