// The Node edge of the mock: turns an IncomingMessage into a RelayRequest, asks the mock, and
// writes the answer back. No Fetch objects on this path: a direct dispatch is several times
// cheaper than going through Request/Response and web streams.
import http from 'node:http'
import net, { type AddressInfo, type Socket } from 'node:net'
import { pipeline, type Duplex } from 'node:stream'
import { describeError } from '../../core/errors.js'
import { RelayMockError, type RelayService, type RelayRequest, type RelayResponse } from '../../core/service/mock.js'
import { toProblem } from '../../core/service/problems.js'
import { allowOf, SERVICE_TABLE } from '../../core/service/protocol.js'
import type { World } from '../../core/service/world.js'

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

/** How many requests a broken connection takes in before it is closed (see createConnectionOrder). */
export const BROKEN_CONNECTION_BACKLOG = 64

/** A request's turn on its connection: `done()` when its answer is made, `done(true)` when that answer broke the connection. */
type Turn = (done: (broken?: boolean) => void) => void

/**
 * Handles a connection's requests one after another, in the order they were sent, as a service that
 * reads one request at a time does. Node reads pipelined requests at once (HTTP/1.1 lets a client send
 * the next before the last is answered): a lookup sent right after a create would otherwise be answered
 * while the create's body is still being read, from the world before it. A request answered in the turn
 * it was read (most lookups) costs nothing here; one that waits (a body, latency, a fault) holds those
 * behind it until its answer is made. The answers' order on the wire is Node's to keep, and it does.
 *
 * After an answer that broke the connection (a reset, a hang, a cut answer) the connection handles
 * nothing more: what was waiting behind it and what comes after is dropped unhandled. Node still reads
 * what a client pipelines behind a hang, and with no answer ever written nothing slows the client down,
 * so a connection that sends more than BROKEN_CONNECTION_BACKLOG requests behind its broken answer is
 * closed, as a real server's full receive window would have stopped the client long before.
 */
function createConnectionOrder(): (socket: Socket, task: Turn) => void {
  /** The requests waiting behind one still being handled, by connection. */
  const waiting = new WeakMap<Socket, Turn[]>()
  /** The connections that a broken answer ended, with how many requests came after it. */
  const broken = new WeakMap<Socket, number>()
  const dropped = (socket: Socket, count = 1): void => {
    const before = broken.get(socket) ?? 0
    broken.set(socket, before + count)
    if (before > BROKEN_CONNECTION_BACKLOG || before + count <= BROKEN_CONNECTION_BACKLOG) return
    // Reads no more at once, and closes once the broken answer is carried out: closed now, the connection
    // lost the answers made before it in this turn, and a reset came as a plain end.
    socket.pause()
    afterTurnsAnswers(() => socket.destroy())
  }
  const start = (socket: Socket, task: Turn): void => {
    let settled = false
    let returned = false
    const done = (breaks = false) => {
      if (settled) return
      settled = true
      if (breaks) return breakOff(socket)
      // Finished within the call: the loop below goes on with the next.
      if (returned) next(socket)
    }
    task(done)
    returned = true
    if (!settled && !waiting.has(socket)) waiting.set(socket, [])
  }
  const breakOff = (socket: Socket): void => {
    const behind = waiting.get(socket)
    waiting.delete(socket)
    broken.set(socket, 0)
    if (behind) dropped(socket, behind.length)
  }
  const next = (socket: Socket): void => {
    const queue = waiting.get(socket)
    if (!queue) return
    waiting.delete(socket)
    while (queue.length > 0) {
      start(socket, queue.shift()!)
      if (broken.has(socket)) return dropped(socket, queue.length)
      // The one started waits in turn: those after it wait behind it.
      const behind = waiting.get(socket)
      if (behind) return void behind.push(...queue)
    }
  }
  return (socket, task) => {
    if (broken.has(socket)) return dropped(socket)
    const queue = waiting.get(socket)
    if (queue) queue.push(task)
    else start(socket, task)
  }
}

/** The pipeline never throws; this is the last guard so that no request goes unanswered (nor a throw ends the process). */
function lastResort(res: http.ServerResponse, error: unknown): void {
  // Failed halfway through an answer: nothing whole can be sent any more.
  if (res.headersSent) return void res.destroy()
  res.writeHead(500, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ message: `The mock failed: ${describeError(error)}` }))
}

/**
 * Writes answers at the end of this turn of the event loop, all together, instead of each as soon as it
 * is made. Every write to a client that waits is a system call that wakes the client's thread; on a
 * machine with few cores (a CI runner's two), a server that wakes its clients between one request and
 * the next pays that wake-up on nearly every answer, and it can cost as much as the answer itself.
 * Written one after another, the answers to the requests read in one turn wake their clients once.
 * An answer waits at most for the requests read in the same turn (setImmediate runs right after the
 * loop's poll for input), and a connection's answers keep their order.
 */
function createBatchedWriter(): (req: http.IncomingMessage, res: http.ServerResponse, answer: RelayResponse) => void {
  let queue: Array<{ req: http.IncomingMessage; res: http.ServerResponse; answer: RelayResponse }> = []
  const flush = () => {
    const batch = queue
    queue = []
    for (const { req, res, answer } of batch) {
      try {
        if (answer.fault) breakAnswer(req, res, answer)
        else writeAnswer(res, answer)
      } catch (error) {
        lastResort(res, error)
      }
    }
  }
  return (req, res, answer) => {
    if (queue.push({ req, res, answer }) === 1) setImmediate(flush)
  }
}

/**
 * Runs `then` once this turn's answers are written and carried out: those made before the call and later
 * in the same turn are written in this turn's check phase (createBatchedWriter), a reset among them goes
 * in the next turn's (breakAnswer), and `then` runs after it there.
 */
function afterTurnsAnswers(then: () => void): void {
  setImmediate(() => setImmediate(then))
}

function writeAnswer(res: http.ServerResponse, answer: RelayResponse): void {
  if (answer.passedOn) return passOn(res, answer, answer.passedOn)
  // A HEAD's answer names the length of the body GET would send; a 204 names none (RFC 9110 8.6).
  const length =
    answer.status === 204 ? undefined : (answer.headers['content-length'] ?? Buffer.byteLength(answer.text))
  res.writeHead(answer.status, length === undefined ? answer.headers : { ...answer.headers, 'content-length': length })
  res.end(answer.text)
}

/**
 * Sends a body as it comes (a proxied answer larger than the body limit): at the client's pace, and if
 * either side breaks off, so does the other (the client sees the upstream's answer broken off; a client
 * gone breaks off the upstream's answer).
 */
function passOn(res: http.ServerResponse, answer: RelayResponse, body: AsyncIterable<Uint8Array>): void {
  res.writeHead(answer.status, answer.headers)
  pipeline(body, res, (error) => {
    if (error) res.destroy()
  })
}

/** Carries out a fault that is no answer, or a broken one: what a real network does to a client. */
function breakAnswer(req: http.IncomingMessage, res: http.ServerResponse, answer: RelayResponse): void {
  const socket = req.socket
  switch (answer.fault) {
    case 'reset':
      // An RST, not a FIN: the client sees ECONNRESET with no status line. A turn later, once Node has
      // finished with the answers sent before it on this connection (pipelined): reset at once, while the
      // last one's bookkeeping is still under way, the socket was closed with a FIN instead.
      setImmediate(() => {
        // Only a TCP socket can be reset (a server on a Unix socket or a pipe cannot): closed, the client still sees no answer.
        try {
          socket.resetAndDestroy()
        } catch {
          socket.destroy()
        }
      })
      return
    case 'hang':
      // Nothing is written; the socket stays open until the client gives up (or the server closes).
      socket.setTimeout(0)
      res.once('close', () => answer.onClosed?.())
      return
    case 'truncated': {
      const body = Buffer.from(answer.text, 'utf8')
      res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length })
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy())
      return
    }
    default:
      writeAnswer(res, answer)
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

/**
 * Starts listening; resolves with the base URL. Port 0 picks a free port. Given `reserved` (reservePort),
 * it takes that socket over, with whatever connected meanwhile, instead of opening another.
 * @example await listen(server, { reserved: await reservePort('127.0.0.1', 4010) })
 */
export function listen(
  server: http.Server,
  { port = 4010, host = '127.0.0.1', reserved }: { port?: number; host?: string; reserved?: ReservedPort } = {},
): Promise<string> {
  const where = reserved ? `${reserved.host}:${reserved.port}` : `${host}:${port}`
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      if (error.code === 'EADDRINUSE') {
        reject(
          new RelayMockError(
            'PORT_IN_USE',
            `Failed to listen on ${where}: the port is in use. Please stop what uses it or pass another --port (0 picks a free one).`,
          ),
        )
      } else if (error.code === 'EACCES') {
        reject(
          new RelayMockError(
            'PORT_DENIED',
            `Failed to listen on ${where}: permission denied. Please pass a --port above 1023.`,
          ),
        )
      } else reject(error)
    }
    const onListening = () => {
      server.off('error', onError)
      const address = server.address() as AddressInfo
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
      resolve(`http://${shownHost}:${address.port}`)
    }
    server.once('error', onError)
    server.once('listening', onListening)
    if (!reserved) return void server.listen(port, host)
    reserved.handTo(server)
  })
}

/**
 * A host and port listened at before the server is made (reservePort): `listen(server, { reserved })`
 * takes its socket over, with the connections it holds.
 */
export class ReservedPort {
  readonly #probe: net.Server
  readonly #waiting: Socket[] = []
  readonly #hold = (socket: Socket) => void this.#waiting.push(socket)

  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.#probe = net.createServer({ pauseOnConnect: true }, this.#hold)
  }

  /** Listens, holding each connection (paused) until a server takes them; rejects with the system error. */
  open(): Promise<this> {
    return new Promise((resolve, reject) => {
      this.#probe.once('error', reject)
      this.#probe.listen({ host: this.host, port: this.port, exclusive: true }, () => {
        this.#probe.off('error', reject)
        // A reserved port alone does not keep the process alive: serve may still refuse its scenario file.
        this.#probe.unref()
        resolve(this)
      })
    })
  }

  /** Gives the port back unserved: the connections held are closed. */
  release(): Promise<void> {
    for (const socket of this.#waiting.splice(0)) socket.destroy()
    return new Promise((resolve) => this.#probe.close(() => resolve()))
  }

  /**
   * Hands the socket to `server` (listen does): what connected while the world was built is answered
   * now, and nothing is ever refused or reset in between (a closed and reopened port would reset a caller
   * waiting for the server to come up).
   */
  handTo(server: http.Server): void {
    server.listen(this.#probe, () => {
      // The reservation was unref'd (so a refusal after it can still end the process); serving holds it.
      server.ref()
      this.#probe.off('connection', this.#hold)
      for (const socket of this.#waiting.splice(0)) {
        server.emit('connection', socket)
        socket.resume()
      }
    })
  }
}

/**
 * Listens at host and port before the mock is built, so that a busy port or an unknown host is known
 * at once (a large world takes seconds to build); `listen(server, { reserved })` then takes the socket
 * over, with whatever connected meanwhile. Rejects with the system error (its `code`) if it cannot.
 * @example const reserved = await reservePort('127.0.0.1', 4010) // later: await listen(server, { reserved })
 */
export function reservePort(host: string, port: number): Promise<ReservedPort> {
  return new ReservedPort(host, port).open()
}

/** Closes the server and every open connection. */
export function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    afterTurnsAnswers(() => server.closeAllConnections())
  })
}
