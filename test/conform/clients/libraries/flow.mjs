// The visit a location reports, for the library clients beside it (ky.mjs, got.mjs, axios-retry.mjs):
// both flows as the interface text tells them, whatever HTTP library carries the requests. The flow is
// the reference client's (src/node/reference-client/client-flow.ts, as built in dist/: these clients also run as plain
// processes); each library file hands runVisit one function, `send(method, path, body)`, that makes a
// request with that library (and its retries) and says what it came to, so two library clients differ
// only in their HTTP layer. No retries are added here: what a library does again is the library's.
//
// A library client runs in-process (its createClient(mode) is a runConformance client function, with
// a connection pool of its own per case) or as a real process: `node <library>.mjs defaults|recipe`.
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { runFlow, toAnswer as answerOf } from '../../../../dist/src/node/reference-client/client-flow.js'

/**
 * What one request came to, from its status and body text: a 2xx whose body is not JSON (a proxy's
 * page) tells the client nothing, as good as no answer; any other body that is not JSON is only unread.
 * @example toAnswer(201, '{"id":"p1"}') // { lost: false, status: 201, body: { id: 'p1' } }
 */
export const toAnswer = (status, text) => answerOf(status, text, undefined)

/** The request timeout the runner asks for (RELAY_REQUEST_TIMEOUT_MS), 5 s otherwise. */
export function requestTimeoutMs(env) {
  const ms = Number(env.RELAY_REQUEST_TIMEOUT_MS || 5000)
  if (!Number.isInteger(ms) || ms <= 0)
    throw new Error('RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds')
  return ms
}

/** The modes of a library client: `defaults` (the library as it comes) or `recipe` (docs/http-libraries.md). */
const MODES = ['defaults', 'recipe']

/** The flow's request as a library sends it: the path with its query, percent-encoded. */
const pathOf = ({ path, query }) =>
  query.length === 0
    ? path
    : `${path}?${query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`

/** Runs the visit of RELAY_VISIT with `send`; resolves with the outcome, whatever the service answered. */
export function runVisit(send, env) {
  return runFlow(JSON.parse(env.RELAY_VISIT), (request) => send(request.method, pathOf(request), request.body))
}

/**
 * A library's client, from `connect(mode, env, log)`, which makes that library's `send` for one case
 * (with a connection pool of its own, closed by `close`).
 * - `createClient(mode)`: a runConformance client function, run in-process; what it would print is dropped.
 * - `main(meta)`: when the file is run as a process (`node ky.mjs recipe`), runs the visit of the RELAY_*
 *   variables, writes the outcome to RELAY_RESULT_FILE and exits 0 whatever the service answered (the
 *   customer's payment completes).
 */
export function libraryClient(name, connect) {
  const checkMode = (mode) => {
    if (!MODES.includes(mode)) throw new Error(`Expected the mode "defaults" or "recipe", got "${mode}"`)
    return mode
  }
  return {
    createClient(mode) {
      checkMode(mode)
      const client = async (_visit, env) => {
        const { send, close } = connect(mode, env, () => {})
        try {
          return await runVisit(send, env)
        } finally {
          await close()
        }
      }
      Object.defineProperty(client, 'name', { value: `${name} ${mode}` })
      return client
    },
    async main(meta) {
      if (meta.url !== pathToFileURL(process.argv[1] ?? '').href) return
      let mode, connection
      try {
        mode = checkMode(process.argv[2] ?? 'defaults')
        connection = connect(mode, process.env, (line) => console.error(line))
      } catch (error) {
        console.error(error.message)
        process.exit(2)
      }
      const result = await runVisit(connection.send, process.env)
      console.error(`outcome: ${JSON.stringify(result)}`)
      if (process.env.RELAY_RESULT_FILE) writeFileSync(process.env.RELAY_RESULT_FILE, JSON.stringify(result))
      process.exit(0)
    },
  }
}
