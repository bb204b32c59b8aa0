// Listening and closing: on a port reserved before the server is made, or a free one, and closing
// without losing a request held open.
import type http from 'node:http'
import net, { type AddressInfo, type Socket } from 'node:net'
import { RelayMockError } from '../../core/service/mock.js'
import { afterTurnsAnswers } from './answers.js'

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
