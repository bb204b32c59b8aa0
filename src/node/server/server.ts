// The Node edge of the mock: turns an IncomingMessage into a RelayRequest, asks the mock, and
// writes the answer back. No Fetch objects on this path: a direct dispatch is several times
// cheaper than going through Request/Response and web streams.
import http from 'node:http'
import type { Duplex } from 'node:stream'
import type { RelayService, RelayRequest, RelayResponse } from '../../core/service/mock.js'
import { toProblem } from '../../core/service/problems.js'
import { allowOf, SERVICE_TABLE } from '../../core/service/protocol.js'
import type { World } from '../../core/service/world.js'
import { createBatchedWriter, lastResort, writeAnswer } from './answers.js'
import { createConnectionOrder } from './connection-order.js'

export { BROKEN_CONNECTION_BACKLOG } from './connection-order.js'
export { close, listen, reservePort, ReservedPort } from './listening.js'

export interface ServerOptions {
  /** Bind this listener to one world: requests on it belong to that world, whatever their token. */
  world?: World
}

/**
 * An HTTP server answering with the mock.
 * @example
 * const server = createServer(await createRelayService())
 * const baseUrl = await listen(server, { port: 4010 })
 */
export function createServer(mock: RelayService, options: ServerOptions = {}): http.Server {
  // Each connection's id, for the journal: a request on a connection that carried one before came on a
  // kept-alive connection, which is what an HTTP library's own silent resend follows (see resilience.bounded-retries).
  const connections = new WeakMap<object, string>()
  let connectionCount = 0
  const connectionOf = (socket: object): string => {
    let id = connections.get(socket)
    if (id === undefined) connections.set(socket, (id = String(++connectionCount)))
    return id
  }
  const relayRequest = (req: http.IncomingMessage): RelayRequest => {
    const request: RelayRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      connection: connectionOf(req.socket),
    }
    if (options.world) request.world = options.world
    return request
  }
  const handle = createRequestHandler(mock, relayRequest)
  const inOrder = createConnectionOrder()
  const server = http.createServer((req, res) => inOrder(req.socket, (done) => handle(req, res, done)))
  // Expect: 100-continue is granted only when the pipeline's checks that need no body pass (the path,
  // the token, the declared length and type); a refusal is sent at once and the body is never read.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    inOrder(req.socket, (done) => {
      void mock.preflight(relayRequest(req)).then(
        (refusal) => {
          if (!refusal) {
            res.writeContinue()
            handle(req, res, done)
            return
          }
          // The unread body would be taken for the next request: this connection ends with the answer.
          writeAnswer(res, { ...refusal, headers: { ...refusal.headers, connection: 'close' } })
          done()
        },
        (error: Error) => {
          lastResort(res, error)
          done()
        },
      )
    })
  })
  // CONNECT never reaches 'request' (Node hands it the raw socket), and a method Node's parser does not
  // know is a parse error: both get the JSON 405 every other method the service lacks gets.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) =>
    refuseRaw(socket, `${req.method} is not a method the service answers.`),
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'HPE_INVALID_METHOD') refuseRaw(socket, "The request's method is not one the service answers.")
    else if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
  })
  return server
}

/** What answers one request: reads its body, if it has one, asks the mock, sends the answer, then calls `done`. */
type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse, done: (broken?: boolean) => void) => void

function createRequestHandler(
  mock: RelayService,
  relayRequest: (req: http.IncomingMessage) => RelayRequest,
): RequestHandler {
  const limit = mock.settings.bodyLimit
  const writeSoon = createBatchedWriter()
  return (req, res, done) => {
    const respond = (body: string | undefined, tooLarge: boolean) => {
      const request = relayRequest(req)
      if (body !== undefined) request.body = body
      if (tooLarge) request.bodyTooLarge = true
      let answer: RelayResponse | Promise<RelayResponse>
      try {
        answer = mock.answer(request)
      } catch (error) {
        // Never expected (the pipeline does not throw): still an answer, and the connection's next request
        // goes on. Caught where the pipeline is called: from a body's 'end' listener a throw would end the process.
        lastResort(res, error)
        return done()
      }
      // Most answers are ready at once: sent in this turn, not a microtask later.
      if (!(answer instanceof Promise)) return send(answer)
      answer.then(send, (error: unknown) => {
        lastResort(res, error)
        done()
      })
    }
    // A broken answer too goes out in its turn: a reset must not destroy the answers queued before it.
    // After one (a reset, a hang, a cut answer) the connection handles nothing more, as a service that
    // broke it would not: a request pipelined behind it is neither answered nor journaled.
    const send = (answer: RelayResponse) => {
      writeSoon(req, res, answer)
      done(answer.fault !== undefined)
    }
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3): answer it at
    // once rather than a tick later on 'end'. Node discards the empty stream when the answer is sent.
    const length = req.headers['content-length']
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) {
      respond(undefined, false)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('error', () => {
      res.destroy()
      done()
    })
    req.on('end', () => {
      const body =
        size > 0 && !tooLarge
          ? chunks.length === 1
            ? chunks[0].toString('utf8')
            : Buffer.concat(chunks).toString('utf8')
          : undefined
      respond(body, tooLarge)
    })
  }
}

/** What a request that never named a path may use: the methods of the service's routes, as `Allow` lists them. */
const ALLOW = allowOf(SERVICE_TABLE.map((compiled) => compiled.route.method))

/** A JSON 405 written straight to a socket that never became a request. */
function refuseRaw(socket: Duplex, sentence: string): void {
  if (!socket.writable) return
  const { body } = toProblem(405, `${sentence} Please use GET or POST as the endpoint documents.`)
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/problem+json\r\nallow: ${ALLOW}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  )
}
