// The two transports every HTTP test runs through, so that `relay-mock serve` and the msw
// handlers cannot drift: the Node server (over a real socket, via supertest) and the msw
// handlers (answered by msw's getResponse, with no interception and no socket).
import type { Server } from 'node:http'
import { getResponse } from 'msw'
import supertest from 'supertest'
import { toHandlers } from '../../src/core/service/msw.js'
import type { RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import { close, createServer, listen } from '../../src/node/server/server.js'

export interface RequestOptions {
  /** Header names in any case. Nothing is added: no Content-Type unless given here. */
  headers?: Record<string, string>
  /** A value sent as JSON text (the Content-Type is still up to `headers`). */
  body?: unknown
  /** The body exactly as sent, for malformed JSON and the like. */
  rawBody?: string
}

/** What came back: the status, lower-case headers, the text, and the parsed JSON (or undefined). */
export interface Answer {
  status: number
  headers: Record<string, string>
  text: string
  body: any
}

export interface Client {
  name: string
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>
  close(): Promise<void>
}

export interface Transport {
  name: 'node' | 'msw'
  /** Serves `service` over this transport. `world` binds a Node listener to one world (Node only). */
  connect(service: RelayService, options?: { world?: World }): Promise<Client>
}

const MSW_BASE_URL = 'http://relay.test'

function bodyBytes(options: RequestOptions): Buffer | undefined {
  if (options.rawBody !== undefined) return Buffer.from(options.rawBody, 'utf8')
  if (options.body !== undefined) return Buffer.from(JSON.stringify(options.body), 'utf8')
  return undefined
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The Node server over loopback (port 0), driven by supertest. */
export const nodeTransport: Transport = {
  name: 'node',
  async connect(service, options = {}) {
    const server: Server = createServer(service, options)
    await listen(server, { port: 0, host: '127.0.0.1' })
    const agent = supertest(server)
    return {
      name: 'node',
      async request(method, path, options = {}) {
        let test = agent[method.toLowerCase() as 'get'](path)
        for (const [name, value] of Object.entries(options.headers ?? {})) test = test.set(name, value)
        // Bytes, sent as they are: superagent then adds no Content-Type and serializes nothing.
        const bytes = bodyBytes(options)
        if (bytes !== undefined) test = test.serialize((data) => data).send(bytes)
        // Keep the text whatever the Content-Type, without superagent's parsers in the way.
        const response = await test.buffer(true).parse((res, done) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')))
        })
        // A HEAD answer has no body: superagent then leaves it unparsed.
        const text = typeof response.body === 'string' ? response.body : ''
        return { status: response.status, headers: { ...response.headers }, text, body: parse(text) }
      },
      close: () => close(server),
    }
  },
}

/** The msw handlers, answered by getResponse: no interception, no socket. */
export const mswTransport: Transport = {
  name: 'msw',
  connect(service, options = {}) {
    if (options.world)
      return Promise.reject(
        new Error('Failed to bind a world: msw handlers have no listener to bind. Please use the node transport.'),
      )
    const handlers = toHandlers(service, { baseUrl: MSW_BASE_URL })
    return Promise.resolve({
      name: 'msw',
      async request(method, path, options = {}) {
        // A byte body, so that fetch adds no Content-Type of its own (a string gets text/plain).
        const bytes = bodyBytes(options)
        const request = new Request(`${MSW_BASE_URL}${path}`, {
          method,
          headers: options.headers ?? {},
          ...(bytes !== undefined ? { body: new Uint8Array(bytes) } : {}),
        })
        const response = await getResponse(handlers, request)
        if (!response) throw new Error(`No msw handler answered ${method} ${path}`)
        const text = await response.text()
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          headers[name] = value
        })
        return { status: response.status, headers, text, body: parse(text) }
      },
      close: async () => {},
    })
  },
}

export const transports: Transport[] = [nodeTransport, mswTransport]

/** Headers of a request a correct client sends in `world`: its bearer token and, with a body, JSON. */
export function auth(world: World | string, extra: Record<string, string> = {}): Record<string, string> {
  const token = typeof world === 'string' ? world : world.token
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra }
}

/** A client bound to one world: every request carries its token and JSON Content-Type. */
export function as(client: Client, world: World) {
  return {
    get: (path: string) => client.request('GET', path, { headers: auth(world) }),
    post: (path: string, body: unknown) => client.request('POST', path, { headers: auth(world), body }),
    put: (path: string, body: unknown) => client.request('PUT', path, { headers: auth(world), body }),
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
