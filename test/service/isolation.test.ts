// Worlds are per token: what one token creates, another never sees; a listener bound to a
// world answers only that world's token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import { activeVehicle, FRESH_PLATE, paymentBody, simpleBody, vehicleBody } from '../support/bodies.js'
import { as, nodeTransport, transports, type Client } from '../support/transports.js'

describe.each(transports)('token isolation over $name', (transport) => {
  let service: RelayService
  let client: Client
  beforeAll(async () => {
    service = await createRelayService({ tokens: ['token-of-location-a', 'token-of-location-b'] })
    client = await transport.connect(service)
  })
  afterAll(() => client.close())

  async function twoWorlds() {
    const a = await service.addWorld()
    const b = await service.addWorld()
    return { a, b, apiA: as(client, a), apiB: as(client, b) }
  }

  it('serves each token given at start with its own world', () => {
    const [a, b] = [...service.worlds.values()]
    expect([a.token, b.token]).toEqual(['token-of-location-a', 'token-of-location-b'])
    expect(a.store).not.toBe(b.store)
  })

  it('does not show a vehicle created with one token to another', async () => {
    const { apiA, apiB } = await twoWorlds()
    await apiA.post('/vehicles', vehicleBody())
    expect((await apiA.get(`/vehicles?plate=${FRESH_PLATE}`)).body).toHaveLength(1)
    expect((await apiB.get(`/vehicles?plate=${FRESH_PLATE}`)).body).toEqual([])
  })

  it("does not answer one token's payment link to another", async () => {
    const { a, apiA, apiB } = await twoWorlds()
    const payment = await apiA.post('/payments', paymentBody(a, activeVehicle(a).id))
    expect((await apiA.get(payment.body.link)).status).toBe(200)
    expect((await apiB.get(payment.body.link)).status).toBe(404)
  })

  it("refuses one token's vehicle in another's payment", async () => {
    const { a, b, apiA, apiB } = await twoWorlds()
    const vehicle = await apiA.post('/vehicles', vehicleBody())
    const answer = await apiB.post('/payments', paymentBody(b, vehicle.body.id))
    expect(answer.status).toBe(422)
    expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'vehicleId', problem: 'names no vehicle' })])
    expect(a.store.payments.all()).toEqual([])
  })

  it("keeps a simple payment out of the other world's records and journal", async () => {
    const { a, b, apiA } = await twoWorlds()
    await apiA.post('/payment', simpleBody(a, { vehicle: { plate: FRESH_PLATE } }))
    expect(a.store.payments.all()).toHaveLength(1)
    expect(b.store.payments.all()).toEqual([])
    expect(b.store.vehicles.byPlate(FRESH_PLATE)).toEqual([])
    expect(b.journal.entries()).toEqual([])
  })

  it('journals each request in its own world and in the whole journal', async () => {
    const { a, b, apiA, apiB } = await twoWorlds()
    await apiA.get(`/vehicles?plate=${a.visit.plate}`)
    await apiB.get(`/vehicles?plate=${b.visit.plate}`)
    expect(a.journal.entries().map((e) => e.worldId)).toEqual([a.id])
    expect(b.journal.entries().map((e) => e.worldId)).toEqual([b.id])
    expect(
      service.journal
        .entries()
        .slice(-2)
        .map((e) => e.worldId),
    ).toEqual([a.id, b.id])
  })
})

describe('a listener bound to one world (node)', () => {
  let service: RelayService
  let bound: Client
  beforeAll(async () => {
    service = await createRelayService({ tokens: ['bound-world-token', 'other-world-token'] })
    bound = await nodeTransport.connect(service, { world: service.worlds.get('bound-world-token') })
  })
  afterAll(() => bound.close())

  it("accepts the bound world's token", async () => {
    const world = service.worlds.get('bound-world-token')!
    expect((await as(bound, world).get(`/vehicles?plate=${world.visit.plate}`)).status).toBe(200)
  })

  it("refuses another world's token with 401 not recognised", async () => {
    const answer = await as(bound, service.worlds.get('other-world-token')!).get('/vehicles?plate=AB123')
    expect(answer.status).toBe(401)
    expect(answer.body.message).toMatch(/not recognised/)
  })

  it("journals a request with another world's token, or none, in the bound world", async () => {
    const world = service.worlds.get('bound-world-token')!
    const other = service.worlds.get('other-world-token')!
    await as(bound, other).get('/vehicles?plate=WRONG1')
    await bound.request('GET', '/vehicles?plate=NONE1')
    expect(
      world.journal
        .entries()
        .slice(-2)
        .map((e) => [e.request.query.plate, e.auth, e.worldId]),
    ).toEqual([
      ['WRONG1', 'unknown-token', world.id],
      ['NONE1', 'missing', world.id],
    ])
    expect(other.journal.entries()).toEqual([])
  })
})
