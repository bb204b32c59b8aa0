// Expect: 100-continue over a raw socket: the Node server grants it only when the pipeline's checks
// that need no body pass (path, token, declared length, type); a refusal comes at once, without a
// 100 and without reading the body, says what the pipeline would say, and is journaled.
import { connect } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { devtools } from '../../src/devtools/admin.js'
import { vehicleBody } from '../support/bodies.js'

const LIMIT = 4096

/**
 * Sends the head of a request with `Expect: 100-continue`, and its body only once a 100 came.
 * Resolves with everything the server sent until it closed the connection.
 */
function exchange(port: number, head: string[], body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        [
          ...head,
          'Host: relay.test',
          'Expect: 100-continue',
          `Content-Length: ${Buffer.byteLength(body)}`,
          'Connection: close',
          '',
          '',
        ].join('\r\n'),
      ),
    )
    let out = ''
    let sent = false
    socket.on('data', (chunk) => {
      out += chunk.toString('utf8')
      if (!sent && out.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sent = true
        socket.write(body)
      }
    })
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
  })
}

function answerOf(text: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = text.split('\r\n\r\n')
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) }
}

describe('Expect: 100-continue on the Node server', () => {
  let service: RelayService
  let server: Server
  let port: number
  let world: World
  beforeAll(async () => {
    service = await createRelayService({ tokens: [], bodyLimit: LIMIT, extensions: [devtools()] })
    world = await service.addWorld({ token: 'continue-token' })
    server = createServer(service)
    port = Number(new URL(await listen(server, { port: 0 })).port)
  })
  afterAll(() => close(server))

  const vehicle = JSON.stringify(vehicleBody())

  it.each([
    {
      what: 'a dev tool body sent as text/plain',
      status: 415,
      head: ['POST /__relay/faults HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: text/plain'],
      body: '{"route":"POST /payments","kind":"reset"}',
    },
    {
      what: 'a dev tool body declared over the limit',
      status: 413,
      head: ['POST /__relay/faults HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      body: 'x'.repeat(LIMIT + 1),
    },
  ])(
    'refuses $what with $status at once, as a service route would: no 100, the body unread',
    async ({ status, head, body }) => {
      const out = await exchange(port, head, body)
      expect(out).not.toMatch(/100 Continue/)
      expect(answerOf(out).status).toBe(status)
      expect(world.faults).toEqual([])
    },
  )

  it('grants a dev tool route its 100 Continue for a JSON body within the limit, then reads it', async () => {
    const out = await exchange(
      port,
      ['POST /__relay/faults HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      '{"route":"POST /payments","kind":"reset","mode":"once"}',
    )
    expect(out.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true)
    expect(answerOf(out.slice('HTTP/1.1 100 Continue\r\n\r\n'.length)).status).toBeLessThan(300)
    expect(world.faults.map((fault) => fault.kind)).toEqual(['reset'])
    await service.handle({
      method: 'DELETE',
      url: '/__relay/faults',
      headers: { authorization: 'Bearer continue-token' },
    })
    expect(world.faults).toEqual([])
  })

  it('grants a good request its 100 Continue, then answers it once the body came', async () => {
    const out = await exchange(
      port,
      ['POST /vehicles HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      vehicle,
    )
    expect(out.startsWith('HTTP/1.1 100 Continue\r\n\r\n')).toBe(true)
    const answer = answerOf(out.slice('HTTP/1.1 100 Continue\r\n\r\n'.length))
    expect(answer.status).toBe(201)
    expect(world.journal.latest()).toMatchObject({
      route: 'POST /vehicles',
      auth: 'ok',
      request: { body: vehicleBody() },
      response: { status: 201 },
    })
  })

  it.each([
    {
      what: 'a token no world has',
      status: 401,
      head: ['POST /vehicles HTTP/1.1', 'Authorization: Bearer not-a-token', 'Content-Type: application/json'],
      body: vehicle,
    },
    {
      what: 'no token',
      status: 401,
      head: ['POST /vehicles HTTP/1.1', 'Content-Type: application/json'],
      body: vehicle,
    },
    {
      what: 'a path the service lacks',
      status: 404,
      head: ['POST /vehicle HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      body: vehicle,
    },
    {
      what: 'a method the path lacks',
      status: 405,
      head: ['PUT /vehicles HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      body: vehicle,
    },
    {
      what: 'a declared length over the limit',
      status: 413,
      head: ['POST /vehicles HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: application/json'],
      body: 'x'.repeat(LIMIT + 1),
    },
    {
      what: 'a body sent as text/plain',
      status: 415,
      head: ['POST /vehicles HTTP/1.1', 'Authorization: Bearer continue-token', 'Content-Type: text/plain'],
      body: vehicle,
    },
    {
      what: 'a body in Latin-1',
      status: 415,
      head: [
        'POST /payment HTTP/1.1',
        'Authorization: Bearer continue-token',
        'Content-Type: application/json; charset=latin1',
      ],
      body: vehicle,
    },
  ])(
    'refuses $what with $status at once: no 100, the body unread, the connection closed',
    async ({ status, head, body }) => {
      const before = service.journal.page({ limit: 0 }).total
      const out = await exchange(port, head, body)
      expect(out).not.toMatch(/100 Continue/)
      const answer = answerOf(out)
      expect(answer.status).toBe(status)
      expect(answer.headers).toMatch(/\r\nconnection: close(\r\n|$)/)
      // The same refusal the pipeline gives the request with its body, in the same words.
      const [method, url] = head[0].split(' ')
      const headers = Object.fromEntries(
        head
          .slice(1)
          .map((line) => line.split(': '))
          .map(([name, value]) => [name.toLowerCase(), value]),
      )
      const whole = await service.handle({ method, url, headers, body })
      expect(answer.body).toEqual(JSON.parse(whole.text))
      // Journaled like any refused request (and the comparison request after it): the refusal has no body.
      const entries = service.journal.page({ since: 0 }).entries.filter((entry) => entry.seq > before)
      expect(entries).toHaveLength(2)
      expect(entries[0]).toMatchObject({ request: { method, path: url }, response: { status } })
      expect(entries[0].request.bodyText).toBeUndefined()
      // No verdict on a body never read, but the refusal of its declared length or type.
      expect(entries[0].request.bodyError).toBe(status === 413 || status === 415 ? answer.body.message : undefined)
    },
  )
})
