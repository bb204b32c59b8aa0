// Real upstreams and a proxy in front of them, as `relay-mock proxy` runs: relay-mock's own server, and
// small hand-written servers (an echo, one that dies, hangs or answers garbage).
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { createAssumptionLedger, type AssumptionLedger } from '../../src/core/ledger/report.js'
import { createRelayService, type RelayService, type RelayServiceOptions } from '../../src/core/service/mock.js'
import type { Upstream } from '../../src/core/service/upstream.js'
import { assumptionsTool } from '../../src/devtools/assumptions.js'
import { devtools } from '../../src/devtools/admin.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { createForwarder, type ForwarderOptions } from '../../src/node/upstream/upstream.js'
import { createServedService } from './service.js'

const closing: Array<() => Promise<void> | void> = []

/** Closes every server and forwarder a test opened. */
export function closeAfterEach(): void {
  afterEach(async () => {
    for (const stop of closing.splice(0).reverse()) await stop()
  })
}

/** Runs `stop` after the test, with the servers it opened. */
export function closeLater(stop: () => Promise<void> | void): void {
  closing.push(stop)
}

/** relay-mock's own server as the upstream, with the dev tools mounted (its admin API shows what reached it). */
export async function mockUpstream(options: RelayServiceOptions = {}): Promise<{ service: RelayService; url: string }> {
  const service = await createServedService({ tokens: ['upstream-token-0001'], ...options })
  const server = createServer(service)
  const url = await listen(server, { port: 0 })
  closing.push(() => close(server))
  return { service, url }
}

/** A hand-written upstream: node:http with the handler given. */
export async function handUpstream(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An upstream at the TCP level: each connection gets `onSocket` (to answer garbage, reset, or hang). */
export async function rawUpstream(onSocket: (socket: net.Socket) => void): Promise<string> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    onSocket(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Whether a connection to 127.0.0.1:`port` is refused (nothing listens there). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })

/**
 * A loopback address nothing listens on: port 4, unassigned, below the range a server listening on port 0
 * is handed (every test server) and not among the ports fetch refuses to dial. No test's server can take
 * it before it is used, as one can a port just handed out and closed (and a hung one would then hold the
 * request for its whole timeout). Should something listen on port 4, a port just closed.
 */
export async function closedPort(): Promise<string> {
  if (await refused(4)) return 'http://127.0.0.1:4'
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

export interface Proxy {
  url: string
  service: RelayService
  ledger: AssumptionLedger
}

/** `relay-mock proxy` in process: the forwarder, the ledger and the service with the dev tools, listening. */
export async function proxyTo(
  upstream: string,
  options: Partial<ForwarderOptions> &
    Pick<RelayServiceOptions, 'faults' | 'adminToken' | 'maxWorlds'> & { observe?: Upstream['observe'] } = {},
): Promise<Proxy> {
  const { faults, adminToken, maxWorlds, observe, ...forwarding } = options
  const forwarder = createForwarder({ baseUrl: upstream, ...forwarding })
  const ledger = createAssumptionLedger(forwarder.baseUrl)
  const service = await createRelayService({
    tokens: [],
    faults,
    adminToken,
    ...(maxWorlds !== undefined ? { maxWorlds } : {}),
    upstream: {
      baseUrl: forwarder.baseUrl,
      forward: forwarder.forward,
      observe: (observation) => {
        ledger.observe(observation)
        observe?.(observation)
      },
    },
    extensions: [devtools(), assumptionsTool(ledger)],
  })
  const server = createServer(service)
  const url = await listen(server, { port: 0 })
  closing.push(async () => {
    await close(server)
    forwarder.close()
  })
  return { url, service, ledger }
}

/** A request with a bearer token (or none), its answer's status, headers and body (parsed when JSON). */
export async function call(
  url: string,
  token: string | undefined,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  let body: string | undefined
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
    headers['content-type'] ??= 'application/json'
  }
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body })
  const text = await response.text()
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON: the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

/** A request by node:http, for what fetch will not send (a GET with a body, hop-by-hop headers): its status. */
export function rawCall(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...init.headers,
      ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }),
    }
    const request = http.request(url, { method: init.method, headers })
    request.on('response', (response) => response.resume().on('end', () => resolve(response.statusCode!)))
    request.on('error', reject)
    request.end(init.body)
  })
}
