// The Node server writes the answers made in one turn of the event loop together, at its end (see
// createBatchedWriter in server.ts). What must hold whatever the batching: a connection's answers come in
// the order of its requests, each answer carries what the world was when its request was handled, a
// broken answer (a reset) breaks nothing sent before it, closing the server still sends what was
// answered, and an answer whose client has gone is dropped without harm to the next.
import { rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { BROKEN_CONNECTION_BACKLOG, close, createServer, listen } from '../../src/node/server/server.js'
import { createServedService } from '../support/service.js'

const TOKEN = 'relay-mock-token'
let service: RelayService
let server: ReturnType<typeof createServer>
let port: number

beforeAll(async () => {
  service = await createServedService()
  server = createServer(service)
  port = Number(new URL(await listen(server, { port: 0 })).port)
})
afterAll(() => close(server))

/** A request's bytes; `headers`, each line ending in CRLF, go in its head. */
function request(method: string, path: string, body?: string, headers = ''): string {
  const head = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TOKEN}\r\n${headers}`
  if (body === undefined) return `${head}\r\n`
  return `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/** Serves `mock` on a free port for `use`, and closes the server after it. */
async function serving(mock: RelayService, use: (at: number, server: http.Server) => Promise<void>): Promise<void> {
  const served = createServer(mock)
  const at = Number(new URL(await listen(served, { port: 0 })).port)
  try {
    await use(at, served)
  } finally {
    await close(served)
  }
}

/** A service whose first GET /vehicles meets the fault `kind`. */
function faulted(kind: 'reset' | 'hang'): Promise<RelayService> {
  return createServedService({ faults: [{ route: 'GET /vehicles', kind, mode: 'once' }] })
}

/** Sends the bytes in one write and reads until `count` answers have come (each names its content-length). */
function exchange(bytes: string, count: number, to = port): Promise<Array<{ status: number; body: string }>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to, '127.0.0.1', () => socket.write(bytes))
    let received = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const answers = parse(received)
      if (answers.length >= count) {
        socket.destroy()
        resolve(answers)
      }
    })
    socket.on('error', reject)
  })
}

/**
 * Sends the bytes in one write and reads until the connection ends: the answers that came (those with a
 * Content-Length), everything that came as text, and how it ended.
 */
function untilEnd(
  bytes: string,
  to: number,
): Promise<{ answers: Array<{ status: number; body: string }>; text: string; ended: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(to, '127.0.0.1', () => socket.write(bytes))
    let received = Buffer.alloc(0)
    const end = (ended: string) => resolve({ answers: parse(received), text: received.toString('utf8'), ended })
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])))
    socket.on('error', (error: NodeJS.ErrnoException) => end(error.code ?? error.message))
    socket.on('end', () => end('end'))
  })
}

function parse(bytes: Buffer): Array<{ status: number; body: string }> {
  const answers: Array<{ status: number; body: string }> = []
  let at = 0
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', at)
    if (end === -1) return answers
    const head = bytes.subarray(at, end).toString('latin1')
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
    if (bytes.length < end + 4 + length) return answers
    answers.push({
      status: Number(head.split(' ')[1]),
      body: bytes.subarray(end + 4, end + 4 + length).toString('utf8'),
    })
    at = end + 4 + length
  }
}

describe('answers written together at the end of a turn', () => {
  it('answers pipelined requests in their order, each as the world was when it was handled', async () => {
    const plate = 'BW123'
    const vehicle = JSON.stringify({ plate, country: 'is' })
    // Read in one turn: the lookup before the create finds nothing, the one after finds the vehicle.
    const answers = await exchange(
      request('GET', `/vehicles?plate=${plate}`) +
        request('POST', '/vehicles', vehicle) +
        request('GET', `/vehicles?plate=${plate}`) +
        request('GET', '/nowhere'),
      4,
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 201, 200, 404])
    expect(JSON.parse(answers[0].body)).toEqual([])
    const created = JSON.parse(answers[1].body) as { id: string }
    expect(JSON.parse(answers[2].body)).toEqual([expect.objectContaining({ id: created.id, plate })])
  })

  it('drops the answer of a client that has gone, and answers the next', async () => {
    const before = service.journal.entries().length
    const gone = net.connect(port, '127.0.0.1', () => {
      gone.write(request('GET', '/vehicles?plate=GONE1'))
      gone.destroy()
    })
    await new Promise((resolve) => gone.on('close', resolve))
    // The request may have been read (and journaled) or not before the client went; either way the next is answered.
    const [answer] = await exchange(request('GET', '/vehicles?plate=NEXT1'), 1)
    expect(answer.status).toBe(200)
    expect(service.journal.entries().length).toBeGreaterThan(before)
  })

  it('answers many connections at once, each its own answer', async () => {
    const plates = Array.from({ length: 30 }, (_, i) => `MC${String(i).padStart(3, '0')}`)
    const answers = await Promise.all(
      plates.map((plate) => exchange(request('POST', '/vehicles', JSON.stringify({ plate, country: 'is' })), 1)),
    )
    expect(answers.map(([answer]) => answer.status)).toEqual(plates.map(() => 201))
    expect(answers.map(([answer]) => (JSON.parse(answer.body) as { plate?: string; id: string }).id)).toHaveLength(
      new Set(answers.map(([answer]) => answer.body)).size,
    )
  })

  it('resets a connection for a fault only after the answers before it are sent', async () => {
    const served = await faulted('reset')
    await serving(served, async (at) => {
      const { answers, ended } = await untilEnd(
        request('GET', '/rental-companies') +
          request('GET', '/vehicles?plate=AB123') +
          request('GET', '/vehicles?plate=AFTER1'),
        at,
      )
      // The lookup without its kennitala is refused (422), and written before the reset that follows.
      expect(answers.map((answer) => answer.status)).toEqual([422])
      expect(ended).toBe('ECONNRESET')
      // The request pipelined behind the reset was never handled: the connection broke before it.
      expect(served.journal.entries().map((entry) => entry.request.search)).toEqual(['', '?plate=AB123'])
    })
  })

  for (const kind of ['reset', 'hang'] as const) {
    it(`sends the answers before a ${kind} even when more than the backlog is pipelined behind it in the same write`, async () => {
      await serving(await faulted(kind), async (at) => {
        const behind = request('GET', '/rental-companies').repeat(BROKEN_CONNECTION_BACKLOG + 1)
        const { answers, ended } = await untilEnd(
          request('GET', '/rental-companies') + request('GET', '/vehicles?plate=AB123') + behind,
          at,
        )
        // Closed for its backlog in the turn it was read, the connection lost this answer, and a reset came as a plain end.
        expect(answers.map((answer) => answer.status)).toEqual([422])
        expect(ended).toBe(kind === 'reset' ? 'ECONNRESET' : 'end')
      })
    })
  }

  it('closes a hung connection that pipelines more than its backlog behind the hang, and handles none of it', async () => {
    const served = await faulted('hang')
    await serving(served, async (at, hung) => {
      let taken = 0
      hung.on('request', () => taken++)
      // Without the backlog the server read all of them and held each (50,000 took 80 MB of heap). Node
      // parses a chunk it has read whole, so a few hundred past the backlog are still taken in (and dropped).
      const behind = 20_000
      const { answers, ended } = await untilEnd(
        request('GET', '/vehicles?plate=AB123') + request('GET', '/rental-companies').repeat(behind),
        at,
      )
      expect(answers).toEqual([])
      expect(['end', 'ECONNRESET']).toContain(ended)
      expect(taken).toBeLessThan(behind / 10)
      expect(served.journal.entries().map((entry) => entry.request.path)).toEqual(['/vehicles'])
    })
  })

  it('keeps a hung connection open while the client pipelines no more than the backlog behind it', async () => {
    const served = await faulted('hang')
    await serving(served, async (at, hung) => {
      let taken = 0
      const all = new Promise<void>((resolve) =>
        hung.on('request', () => ++taken === BROKEN_CONNECTION_BACKLOG + 1 && resolve()),
      )
      const socket = net.connect(at, '127.0.0.1', () =>
        socket.write(
          request('GET', '/vehicles?plate=AB123') +
            request('GET', '/rental-companies').repeat(BROKEN_CONNECTION_BACKLOG),
        ),
      )
      let ended = false
      socket.on('close', () => (ended = true))
      socket.on('error', () => {})
      try {
        await all
        await new Promise((resolve) => setTimeout(resolve, 50))
        expect(ended).toBe(false)
        expect(served.journal.entries()).toHaveLength(1)
      } finally {
        socket.destroy()
      }
    })
  })

  it('resets a connection on a server listening on a Unix socket by closing it, and stays up', async () => {
    const local = createServer(await faulted('reset'))
    const path = join(os.tmpdir(), `relay-mock-${process.pid}-${Date.now()}.sock`)
    await new Promise<void>((resolve) => local.listen(path, resolve))
    const get = (search: string) =>
      new Promise<string>((resolve) => {
        http
          .get(
            {
              socketPath: path,
              path: `/vehicles${search}`,
              headers: { authorization: `Bearer ${TOKEN}` },
              agent: false,
            },
            (res) => {
              res.resume()
              resolve(`status ${res.statusCode}`)
            },
          )
          .on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`))
      })
    try {
      // A Unix socket cannot be reset (resetAndDestroy threw, out of any guard, and ended the process).
      expect(await get('?plate=AB123')).toMatch(/^error (ECONNRESET|socket hang up)/)
      expect(await get('?plate=AB123')).toBe('status 200')
    } finally {
      await close(local)
      rmSync(path, { force: true })
    }
  })

  it('sends what is answered later in the turn the server was closed in', async () => {
    const closing = createServer(await createServedService())
    const at = Number(new URL(await listen(closing, { port: 0 })).port)
    // close() before the request's handler, in the same turn (a SIGTERM read in the same poll phase first).
    let closed: Promise<void> | undefined
    closing.prependListener('request', () => void (closed ??= close(closing)))
    const { answers } = await untilEnd(request('GET', '/vehicles?plate=AB123'), at)
    expect(answers.map((answer) => answer.status)).toEqual([200])
    await closed
  })

  it('sends what was answered in the turn the server was closed in', async () => {
    const closing = createServer(await createServedService())
    const at = Number(new URL(await listen(closing, { port: 0 })).port)
    // As a SIGTERM handled in the same turn as a request would.
    let closed: Promise<void> | undefined
    closing.on('request', () => void (closed ??= close(closing)))
    const { answers } = await untilEnd(request('GET', '/vehicles?plate=AB123'), at)
    expect(answers.map((answer) => answer.status)).toEqual([200])
    await closed
  })
})

describe('a pipeline that throws (never expected: the last guard)', () => {
  it("answers 500 on every path into it, a body or none, Expect: 100-continue or not, and goes on serving (a throw from a body's end listener ended the process)", async () => {
    const real = await createServedService()
    const failing: RelayService = Object.create(real, {
      answer: {
        value: () => {
          throw new Error('the disk is full')
        },
      },
    })
    const post = (headers: string) =>
      request('POST', '/vehicles', JSON.stringify({ plate: 'TH123', country: 'is' }), headers)
    // The last guard's answer is chunked (no Content-Length): read as text, until the connection closes.
    await serving(failing, async (at) => {
      // A lookup (answered where it is read) and a create (answered from its body's 'end' listener).
      const plain = (await untilEnd(request('GET', '/vehicles?plate=AB123') + post('connection: close\r\n'), at)).text
      expect(plain.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 500', 'HTTP/1.1 500'])
      expect(plain).toContain('{"message":"The mock failed: the disk is full"}')
      // Expect: 100-continue: granted by the preflight, then the same body path.
      const continued = (await untilEnd(post('expect: 100-continue\r\nconnection: close\r\n'), at)).text
      expect(continued.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 100', 'HTTP/1.1 500'])
    })
  })
})
