// Faults are real, not simulated in a verdict: each kind is seen by a raw socket (reset, a body cut
// short, no answer at all), by the msw handlers (their nearest equivalent), and in the world (a fault
// that applies first leaves the record behind; one that applies nothing leaves nothing).
import net from 'node:net'
import type { Server } from 'node:http'
import { getResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import {
  FAULT_KINDS,
  FAULT_STEPS,
  parseFault,
  RETRY_AFTER_DATE_AHEAD_S,
  RETRY_AFTER_SECONDS,
  rateLimitedRetryAfter,
  SLOW_FAULT_MS,
  type ArmedFault,
  type FaultKind,
} from '../../src/core/service/faults.js'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import { toHandlers } from '../../src/core/service/msw.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { paymentBody } from '../support/bodies.js'
import { createServedService } from '../support/service.js'

const open: Server[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => close(server)))
})

async function served(
  fault: ArmedFault,
  scenario = 'existing-vehicle',
): Promise<{ service: RelayService; world: World; port: number }> {
  const service = await createRelayService({ tokens: [], scenario })
  const world = await service.addWorld({ token: 'fault-token', faults: [fault] })
  const server = createServer(service)
  open.push(server)
  const baseUrl = await listen(server, { port: 0 })
  return { service, world, port: Number(new URL(baseUrl).port) }
}

function payment(world: World): string {
  return JSON.stringify(paymentBody(world, world.store.vehicles.activeByPlate(world.visit.plate)[0].id))
}

/** What a raw socket gets for one request: the bytes, and how the connection ended. */
function rawRequest(port: number, method: string, path: string, body?: string, { waitMs = 5_000 } = {}) {
  return new Promise<{ text: string; ended: 'reset' | 'closed' | 'open' }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    const finish = (ended: 'reset' | 'closed' | 'open') => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, ended })
    }
    const timer = setTimeout(() => finish('open'), waitMs)
    socket.on('data', (chunk) => (text += chunk.toString('utf8')))
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' ? 'reset' : 'closed'))
    socket.on('end', () => finish('closed'))
    const head = [
      `${method} ${path} HTTP/1.1`,
      'Host: relay.test',
      'Authorization: Bearer fault-token',
      'Connection: close',
    ]
    if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`)
    socket.write(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`)
  })
}

describe('faults over a raw socket', () => {
  it('reset: the payment is recorded, then the connection is reset with no status line', async () => {
    const { world, port } = await served({ route: 'POST /payments', kind: 'reset', mode: 'once' })
    const answer = await rawRequest(port, 'POST', '/payments', payment(world))
    expect(answer.ended).toBe('reset')
    expect(answer.text).toBe('')
    expect(world.store.payments.all()).toHaveLength(1)
    const [entry] = world.journal.entries()
    expect(entry.fault).toEqual({ kind: 'reset', mode: 'once', applied: true })
    expect(entry.response.status).toBe(0)
  })

  it('truncated: a 201 whose body stops halfway through its Content-Length, then the connection closes', async () => {
    const { world, port } = await served({ route: 'POST /payments', kind: 'truncated', mode: 'once' })
    const answer = await rawRequest(port, 'POST', '/payments', payment(world))
    const [head, body] = answer.text.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1.1 201 /)
    const length = Number(/content-length: (\d+)/i.exec(head)![1])
    expect(Buffer.byteLength(body)).toBe(Math.floor(length / 2))
    expect(answer.ended).not.toBe('open')
    expect(world.store.payments.all()).toHaveLength(1)
  })

  it('hang: the vehicle is created and no byte ever comes back; the journal dates the entry when the client gives up', async () => {
    const { world, port } = await served({ route: 'POST /vehicles', kind: 'hang', mode: 'once' }, 'new-vehicle')
    const answer = await rawRequest(
      port,
      'POST',
      '/vehicles',
      JSON.stringify({ plate: world.visit.plate, country: 'is' }),
      { waitMs: 600 },
    )
    expect(answer).toEqual({ text: '', ended: 'open' })
    expect(world.store.vehicles.activeByPlate(world.visit.plate)).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const [entry] = world.journal.entries()
    expect(entry.fault?.kind).toBe('hang')
    expect(entry.durationMs).toBeGreaterThanOrEqual(500)
  })

  it('once is transient: the second request is answered normally', async () => {
    const { world, port } = await served({ route: 'GET /vehicles', kind: 'reset', mode: 'once' })
    expect((await rawRequest(port, 'GET', `/vehicles?plate=${world.visit.plate}`)).ended).toBe('reset')
    expect((await rawRequest(port, 'GET', `/vehicles?plate=${world.visit.plate}`)).text).toMatch(/^HTTP\/1.1 200 /)
  })

  it('always is persistent: every request to the step is reset', async () => {
    const { world, port } = await served({ route: 'GET /vehicles', kind: 'reset', mode: 'always' })
    for (let i = 0; i < 3; i++)
      expect((await rawRequest(port, 'GET', `/vehicles?plate=${world.visit.plate}`)).ended).toBe('reset')
  })
})

describe('faults in the pipeline', () => {
  async function hit(kind: FaultKind) {
    const service = await createRelayService({ tokens: [], scenario: 'existing-vehicle' })
    const world = await service.addWorld({
      token: 'fault-token',
      faults: [{ route: 'POST /payments', kind, mode: 'once' }],
    })
    const request = {
      method: 'POST',
      url: '/payments',
      headers: { authorization: 'Bearer fault-token', 'content-type': 'application/json' },
      body: payment(world),
    }
    const answer = await service.handle(request)
    return { service, world, answer, request }
  }

  it.each([
    ['unavailable', 503],
    ['rate-limited', 429],
    ['token-revoked', 401],
  ] as const)('%s answers %i and records nothing', async (kind, status) => {
    const { world, answer } = await hit(kind)
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.text).message).toContain(`fault POST /payments=${kind}:once, armed by this world`)
    expect(world.store.payments.all()).toEqual([])
    expect(world.journal.entries()[0].fault).toEqual({ kind, mode: 'once', applied: false })
  })

  it('unavailable says Retry-After in seconds; rate-limited as an HTTP-date at least RETRY_AFTER_DATE_AHEAD_S ahead, on a whole second', async () => {
    expect((await hit('unavailable')).answer.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
    const before = Date.now()
    const date = Date.parse(String((await hit('rate-limited')).answer.headers['retry-after']))
    expect(date - before).toBeGreaterThanOrEqual(RETRY_AFTER_DATE_AHEAD_S * 1000)
    expect(date % 1000).toBe(0)
  })

  it('dates a rate-limited answer the first whole second at least RETRY_AFTER_DATE_AHEAD_S ahead', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0, 300)
    expect(Date.parse(rateLimitedRetryAfter(now, 2.5)) - now).toBe(2_700)
    expect(Date.parse(rateLimitedRetryAfter(Date.UTC(2026, 0, 1, 0, 0, 0, 500), 2.5))).toBe(
      Date.UTC(2026, 0, 1, 0, 0, 3),
    )
  })

  it('token-revoked: every later request of the world is a 401 too, whatever the endpoint', async () => {
    const { service, world } = await hit('token-revoked')
    const later = await service.handle({
      method: 'GET',
      url: `/vehicles?plate=${world.visit.plate}`,
      headers: { authorization: 'Bearer fault-token' },
    })
    expect(later.status).toBe(401)
    expect(JSON.parse(later.text).message).toContain('revoked')
    expect(world.journal.entries()[1].auth).toBe('revoked')
  })

  it.each(['server-error', 'garbage', 'slow', 'reset', 'hang', 'truncated'] as const)(
    '%s applies the payment first',
    async (kind) => {
      const { world } = await hit(kind)
      expect(world.store.payments.all()).toHaveLength(1)
      expect(world.journal.entries()[0].fault).toEqual({ kind, mode: 'once', applied: true })
    },
  )

  it('server-error is a 500 problem that says not to resend blind', async () => {
    const { answer } = await hit('server-error')
    expect(answer.status).toBe(500)
    expect(JSON.parse(answer.text).message).toMatch(/Do not send a POST again blind/)
  })

  it("garbage is the real 2xx with a proxy's HTML page, not JSON", async () => {
    const { answer } = await hit('garbage')
    expect(answer.status).toBe(201)
    expect(answer.headers['content-type']).toMatch(/^text\/html/)
    expect(() => JSON.parse(answer.text)).toThrow()
  })

  it('slow gives the right answer, late', async () => {
    const started = performance.now()
    const { answer } = await hit('slow')
    expect(answer.status).toBe(201)
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_FAULT_MS - 100)
  })

  it('a reset re-arms a world’s own faults', async () => {
    const { service, world, request } = await hit('unavailable')
    expect((await service.handle(request)).status).toBe(201)
    await service.resetWorld(world)
    expect((await service.handle({ ...request, body: payment(world) })).status).toBe(503)
  })

  it('the simple endpoint answers a fault that applies nothing in its own shape, and a failure after applying as a problem', async () => {
    const service = await createRelayService({ tokens: [], scenario: 'existing-vehicle' })
    const world = await service.addWorld({
      token: 'fault-token',
      faults: [
        { route: 'POST /payment', kind: 'unavailable', mode: 'once' },
        { route: 'POST /payment', kind: 'server-error', mode: 'always' },
      ],
    })
    const { visit, location } = world
    const body = JSON.stringify({
      location: location.id,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: visit.amount, currency: visit.currency },
    })
    const send = () =>
      service.handle({
        method: 'POST',
        url: '/payment',
        headers: { authorization: 'Bearer fault-token', 'content-type': 'application/json' },
        body,
      })
    const first = await send()
    expect([first.status, JSON.parse(first.text).status]).toEqual([503, 'refused'])
    const second = await send()
    expect(second.status).toBe(500)
    expect(JSON.parse(second.text)).not.toHaveProperty('status', 'refused')
    expect(world.store.payments.all()).toHaveLength(1)
  })
})

describe('faults in-process (msw)', () => {
  async function handlersWith(kind: FaultKind) {
    const service = await createRelayService({ tokens: [], scenario: 'existing-vehicle' })
    const world = await service.addWorld({
      token: 'fault-token',
      faults: [{ route: 'POST /payments', kind, mode: 'once' }],
    })
    const request = (signal?: AbortSignal) =>
      new Request('http://relay.test/payments', {
        method: 'POST',
        headers: { authorization: 'Bearer fault-token', 'content-type': 'application/json' },
        body: payment(world),
        signal,
      })
    return { world, handlers: toHandlers(service), request }
  }

  it('reset is a network error', async () => {
    const { handlers, request } = await handlersWith('reset')
    const response = await getResponse(handlers, request())
    expect(response?.type).toBe('error')
  })

  it('hang never settles until the client aborts', async () => {
    const { handlers, request, world } = await handlersWith('hang')
    const controller = new AbortController()
    const pending = getResponse(handlers, request(controller.signal))
    const first = await Promise.race([
      pending.then(() => 'settled'),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 200)),
    ])
    expect(first).toBe('pending')
    controller.abort()
    await expect(pending).rejects.toBeDefined()
    expect(world.store.payments.all()).toHaveLength(1)
  })

  it('truncated is the body cut in half (fetch in-process cannot see a short read)', async () => {
    const { handlers, request } = await handlersWith('truncated')
    const text = await (await getResponse(handlers, request()))!.text()
    expect(() => JSON.parse(text)).toThrow()
  })
})

describe('faults by hand', () => {
  it('parses what people write, and says what is allowed when it cannot', () => {
    expect(parseFault('POST /payments=reset:once')).toEqual({ route: 'POST /payments', kind: 'reset', mode: 'once' })
    expect(parseFault('payment-create=hang')).toEqual({ route: 'POST /payments', kind: 'hang', mode: 'always' })
    expect(parseFault('post /payment = garbage : always')).toEqual({
      route: 'POST /payment',
      kind: 'garbage',
      mode: 'always',
    })
    expect(() => parseFault('POST /payments')).toThrow(/expected <route>=<kind>\[:once\]/)
    expect(() => parseFault('GET /payments=reset')).toThrow(
      /is not a request a fault can break: expected one of GET \/rental-companies/,
    )
    expect(() => parseFault('POST /payments=boom')).toThrow(/"boom" is not a fault: expected one of unavailable/)
  })

  it('the tables name every step of both flows and say what a correct client does for each kind', () => {
    expect(Object.values(FAULT_STEPS)).toEqual([
      'GET /rental-companies',
      'GET /vehicles',
      'POST /vehicles',
      'POST /custodians',
      'POST /payments',
      'POST /payment',
    ])
    for (const info of Object.values(FAULT_KINDS)) expect(info.correct.length).toBeGreaterThan(20)
  })

  it('the admin API arms, lists and clears the caller’s own world’s faults', async () => {
    const service = await createServedService({ tokens: ['mine', 'theirs'], scenario: 'existing-vehicle' })
    const call = (method: string, url: string, token: string, body?: unknown) =>
      service.handle({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    const armed = await call('POST', '/__relay/faults', 'mine', {
      route: 'payment-create',
      kind: 'reset',
      mode: 'once',
    })
    expect(armed.status).toBe(201)
    expect(JSON.parse(armed.text).armed).toEqual([
      {
        route: 'POST /payments',
        kind: 'reset',
        mode: 'once',
        step: 'payment-create',
        text: 'POST /payments=reset:once',
        struck: 0,
      },
    ])
    expect(JSON.parse((await call('GET', '/__relay/faults', 'theirs')).text).armed).toEqual([])
    const refused = await call('POST', '/__relay/faults', 'mine', { route: 'POST /payments', kind: 'explode' })
    expect(refused.status).toBe(422)
    expect(JSON.parse(refused.text).message).toMatch(/"explode" is not a fault: expected one of/)
    expect(JSON.parse((await call('DELETE', '/__relay/faults', 'mine')).text).armed).toEqual([])
  })
})
