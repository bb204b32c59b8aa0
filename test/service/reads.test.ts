// A read asked again of the same records is answered as before without running its handler again;
// any write to the world, a removal beyond its cap and a reset make it read afresh, and a fault armed
// for the read is still met.
import { describe, expect, it, vi } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import { READS_KEPT, Reads } from '../../src/core/service/reads.js'
import { SERVICE_TABLE } from '../../src/core/service/protocol.js'

const headers = { authorization: 'Bearer relay-mock-token' }
const json = { ...headers, 'content-type': 'application/json' }

async function get(service: RelayService, url: string): Promise<{ status: number; body: unknown }> {
  const answer = await service.handle({ method: 'GET', url, headers })
  return { status: answer.status, body: answer.text === '' ? undefined : JSON.parse(answer.text) }
}

/** Counts the calls of a service route's handler (the table is shared: restored after each test). */
function countHandler(id: string): { calls: () => number; restore: () => void } {
  const route = SERVICE_TABLE.find((compiled) => compiled.route.id === id)!.route
  const spy = vi.spyOn(route, 'handle')
  return { calls: () => spy.mock.calls.length, restore: () => spy.mockRestore() }
}

describe('kept reads', () => {
  it('answer a lookup asked again from the kept answer: the handler runs once, the answer and the journal are the same', async () => {
    const service = await createRelayService()
    const url = `/vehicles?plate=${service.world.visit.plate}`
    const handler = countHandler('GET /vehicles')
    try {
      const first = await service.handle({ method: 'GET', url, headers })
      const second = await service.handle({ method: 'GET', url, headers })
      expect(handler.calls()).toBe(1)
      expect(second).toEqual(first)
      const [a, b] = service.journal.entries()
      expect(b.response).toEqual(a.response)
      // Entries share the kept body: it cannot be changed through one of them.
      expect(Object.isFrozen(b.response.body)).toBe(true)
      expect(() => ((b.response.body as Array<{ plate: string }>)[0].plate = 'CHANGED')).toThrow(TypeError)
      // And the query read from the same query string.
      expect(b.request.query).toBe(a.request.query)
      expect(Object.isFrozen(a.request.query)).toBe(true)
    } finally {
      handler.restore()
    }
  })

  it("keep no journal parts of their own: a lookup asked again shares the last entry's request and response, frozen; anything different has its own", async () => {
    const service = await createRelayService()
    const url = `/vehicles?plate=${service.world.visit.plate}`
    await service.handle({ method: 'GET', url, headers })
    await service.handle({ method: 'GET', url, headers })
    await service.handle({ method: 'GET', url, headers: { ...headers, accept: 'application/json' } })
    await service.handle({ method: 'GET', url: `${url}&x=1`, headers })
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'NEW02', country: 'is' }),
    })
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'NEW03', country: 'is' }),
    })
    const [a, b, otherHeaders, otherQuery, post, post2] = service.journal.entries()
    expect(b.request).toBe(a.request)
    expect(b.response).toBe(a.response)
    expect(Object.isFrozen(a.request)).toBe(true)
    expect(Object.isFrozen(a.response)).toBe(true)
    expect(() => ((a.request as { path: string }).path = '/changed')).toThrow(TypeError)
    expect(b.request.search).toBe(`?plate=${service.world.visit.plate}`)
    // The same lookup with another header: its own request part, the answer's shared.
    expect(otherHeaders.request).not.toBe(b.request)
    expect(otherHeaders.request.headers.accept).toBe('application/json')
    expect(otherHeaders.response).toBe(b.response)
    // Another query: its own request part, and its own answer (another kept read).
    expect(otherQuery.request).not.toBe(otherHeaders.request)
    expect(otherQuery.request.query).toEqual({ plate: service.world.visit.plate, x: '1' })
    expect(otherQuery.response).not.toBe(otherHeaders.response)
    // A body is a request's own, and so is a created record's answer.
    expect(post2.request).not.toBe(post.request)
    expect(post2.response).not.toBe(post.response)
    expect([post.request.body, post2.request.body]).toEqual([
      { plate: 'NEW02', country: 'is' },
      { plate: 'NEW03', country: 'is' },
    ])
    expect(Object.isFrozen(post.request)).toBe(false)
    // Entries themselves are each their own.
    expect(new Set([a, b].map((e) => e.seq)).size).toBe(2)
  })

  it('are shared within one service only: two services in a process keep their own parts and headers', async () => {
    const [one, two] = [await createRelayService(), await createRelayService()]
    const url = `/vehicles?plate=${one.world.visit.plate}`
    await one.handle({ method: 'GET', url, headers })
    await two.handle({ method: 'GET', url, headers })
    const [a, b] = [one.journal.latest()!, two.journal.latest()!]
    expect(b.request).toEqual(a.request)
    expect(b.request).not.toBe(a.request)
    expect(b.request.headers).not.toBe(a.request.headers)
    // Nothing of the other service's was frozen by this one's entry.
    expect(Object.isFrozen(a.request)).toBe(false)
  })

  it('are read afresh after a write: a lookup that found nothing finds the vehicle just created', async () => {
    const service = await createRelayService()
    const url = '/vehicles?plate=NEW01'
    expect(await get(service, url)).toEqual({ status: 200, body: [] })
    const created = await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'NEW01', country: 'is' }),
    })
    expect(created.status).toBe(201)
    const { id } = JSON.parse(created.text) as { id: string }
    expect(await get(service, url)).toEqual({ status: 200, body: [{ id, plate: 'NEW01', country: 'is' }] })
    // The same for a link: 404, then the record. A reset gives the world its ids again from the start,
    // so the id the vehicle was created with is known before it is created again.
    await service.resetWorld(service.world)
    expect((await get(service, `/vehicles/${id}`)).status).toBe(404)
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'NEW01', country: 'is' }),
    })
    expect(await get(service, `/vehicles/${id}`)).toEqual({ status: 200, body: { id, plate: 'NEW01', country: 'is' } })
    // The stored record itself is not frozen by the kept answer: the answer is a copy.
    expect(Object.isFrozen(service.world.store.vehicles.byId(id))).toBe(false)
  })

  it('are read afresh after a record is removed beyond the world cap', async () => {
    const service = await createRelayService({ worldRecords: 1 })
    const first = await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'CAP01', country: 'is' }),
    })
    const { id } = JSON.parse(first.text) as { id: string }
    expect((await get(service, `/vehicles/${id}`)).status).toBe(200)
    // A second record pushes the first out of the world.
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: json,
      body: JSON.stringify({ plate: 'CAP02', country: 'is' }),
    })
    expect(service.world.store.evicted()).toBe(1)
    expect((await get(service, `/vehicles/${id}`)).status).toBe(404)
    expect((await get(service, '/vehicles?plate=CAP01')).body).toEqual([])
  })

  it('are read afresh after a reset, and each world keeps its own', async () => {
    const service = await createRelayService()
    const url = '/vehicles?plate=RST01'
    const create = (plate: string, token = 'relay-mock-token') =>
      service.handle({
        method: 'POST',
        url: '/vehicles',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify({ plate, country: 'is' }),
      })
    await create('RST01')
    expect((await get(service, url)).body).toHaveLength(1)
    const kept = service.world.store.version()
    // Another world at the same version of its records: it still answers from its own.
    const other = await service.addWorld()
    await create('OTHER1', other.token)
    expect(other.store.version()).toBe(kept)
    const inOther = await service.handle({ method: 'GET', url, headers: { authorization: `Bearer ${other.token}` } })
    expect(JSON.parse(inOther.text)).toEqual([])
    // After a reset and one create the world is at the kept version again: the kept answer is gone all the same.
    await service.resetWorld(service.world)
    await create('OTHER1')
    expect(service.world.store.version()).toBe(kept)
    expect((await get(service, url)).body).toEqual([])
  })

  it('still meet a fault armed for the read after its answer was kept, and what the fault applies', async () => {
    const service = await createRelayService()
    const url = `/vehicles?plate=${service.world.visit.plate}`
    const kept = await get(service, url)
    service.world.faults.push({ route: 'GET /vehicles', kind: 'unavailable', mode: 'once' })
    expect((await get(service, url)).status).toBe(503)
    expect(await get(service, url)).toEqual(kept)
    service.world.faults.push({ route: 'GET /vehicles', kind: 'truncated', mode: 'once' })
    const broken = await service.handle({ method: 'GET', url, headers })
    expect(broken.fault).toBe('truncated')
    expect(JSON.parse(broken.text)).toEqual(kept.body)
  })

  it('keep a refusal out: an invalid query is validated and refused every time', async () => {
    const service = await createRelayService()
    for (let i = 0; i < 2; i++) {
      const answer = await service.answer({ method: 'GET', url: '/vehicles?plate=', headers })
      expect(answer.status).toBe(422)
    }
    expect(service.world.reads.size).toBe(0)
  })
})

describe('Store.version', () => {
  it('counts every record created and every record removed', async () => {
    const { createStore } = await import('../../src/core/service/store.js')
    const store = createStore()
    expect(store.version()).toBe(0)
    const vehicle = store.vehicles.create({ id: 'v1', plate: 'AB123', country: 'is', active: true })
    expect(store.version()).toBe(1)
    expect(store.remove(vehicle.id)).toBe(true)
    expect(store.version()).toBe(2)
    expect(store.remove(vehicle.id)).toBe(false)
    expect(store.version()).toBe(2)
  })
})

describe('Reads', () => {
  const read = (text: string) => ({ query: {}, reply: { status: 200, body: { text } }, text })

  it('answers only for the version it was kept at', () => {
    const reads = new Reads()
    reads.set('/a', 1, read('a'))
    expect(reads.get('/a', 1)?.text).toBe('a')
    expect(reads.get('/a', 2)).toBeUndefined()
    reads.set('/b', 2, read('b'))
    // Keeping at a newer version forgets the older answers.
    expect(reads.size).toBe(1)
    expect(reads.get('/a', 1)).toBeUndefined()
  })

  it('keeps at most READS_KEPT answers, the oldest going first, and no long answer', () => {
    const reads = new Reads()
    for (let i = 0; i <= READS_KEPT; i++) reads.set(`/${i}`, 0, read(String(i)))
    expect(reads.size).toBe(READS_KEPT)
    expect(reads.get('/0', 0)).toBeUndefined()
    expect(reads.get(`/${READS_KEPT}`, 0)?.text).toBe(String(READS_KEPT))
    reads.set('/long', 0, read('x'.repeat(20_000)))
    expect(reads.get('/long', 0)).toBeUndefined()
    // A long URL counts too: what a world keeps is bounded by both.
    const longUrl = `/vehicles?plate=AB1&pad=${'x'.repeat(16 * 1024)}`
    reads.set(longUrl, 0, read('[]'))
    expect(reads.get(longUrl, 0)).toBeUndefined()
  })
})
