// The README's in-process recipe, as a JavaScript client's own tests would use it: createRelayMock
// from the public entry, its handlers in msw's setupServer, and plain fetch against the base URL.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayMock, type RelayMock } from '../../src/index.js'

describe('createRelayMock with setupServer', () => {
  let mock: RelayMock
  let server: ReturnType<typeof setupServer>
  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${mock.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${mock.world.token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    })

  beforeAll(async () => {
    mock = await createRelayMock({ scenario: 'new-vehicle', baseUrl: 'https://relay.example.test/api' })
    server = setupServer(...mock.handlers)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(() => server.close())

  it('answers the advanced flow under a base URL with a path, and keeps the state between calls', async () => {
    const { visit, location } = mock.world
    const companies = await (await call(`/rental-companies?kennitala=${visit.ownerKennitala}`)).json()
    expect(companies).toHaveLength(1)
    expect(await (await call(`/vehicles?plate=${visit.plate}`)).json()).toEqual([])
    const created = await call('/vehicles', { method: 'POST', body: { plate: visit.plate, country: 'is' } })
    expect(created.status).toBe(201)
    const vehicle = await created.json()
    const custodian = await call('/custodians', {
      method: 'POST',
      body: {
        vehicleId: vehicle.id,
        rentalCompanyId: companies[0].id,
        acquiredOn: `${visit.registrationDate} 00:00:00`,
      },
    })
    expect(custodian.status).toBe(201)
    const payment = await call('/payments', {
      method: 'POST',
      body: {
        locationId: location.id,
        vehicleId: vehicle.id,
        amount: { amount: visit.amount, currency: visit.currency },
        startedOn: visit.visitStart,
        endedOn: visit.visitEnd,
        status: 'new',
      },
    })
    expect(payment.status).toBe(201)
    expect(await (await call(`/vehicles?plate=${visit.plate}`)).json()).toEqual([
      { id: vehicle.id, plate: visit.plate, country: 'is' },
    ])
    expect(mock.world.store.payments.all()).toHaveLength(1)
    // The README's queries through @msw/data find what the client created, by what it holds.
    const stored = await mock.world.store.payments.findMany((q) => q.where({ vehicleId: vehicle.id, status: 'new' }))
    expect(stored.map((p) => p.id)).toEqual([(await payment.json()).id])
    expect((await mock.world.store.vehicles.findFirst((q) => q.where({ plate: visit.plate })))?.id).toBe(vehicle.id)
    expect(await mock.world.store.payments.findFirst((q) => q.where({ status: 'paid' }))).toBeUndefined()
  })

  it("records every request in the world's journal, the token masked", async () => {
    const before = mock.world.journal.size
    await call('/rental-comapnies?kennitala=5901694399')
    const entry = mock.world.journal.entries().at(-1)!
    expect(mock.world.journal.size).toBe(before + 1)
    expect(entry).toMatchObject({
      route: null,
      auth: 'ok',
      request: { path: '/rental-comapnies' },
      response: { status: 404 },
    })
    expect(entry.request.headers.authorization).not.toContain(mock.world.token)
  })

  it('serves the admin API and the OpenAPI documents in-process too', async () => {
    const world = await (await call('/__relay/world')).json()
    expect(world).toMatchObject({ scenario: { name: 'new-vehicle' }, locationId: mock.world.location.id })
    const openapi = await (await fetch(`${mock.baseUrl}/openapi/simple.json`)).json()
    expect(Object.keys(openapi.paths)).toEqual(['/payment'])
  })
})
