// GET /__relay/world pages the world's records as the journal is paged: ?limit= records from after
// ?since= (the id of the last record read), `next` while more are left; a cursor the cap evicted is
// a 400 that says to start again.
import { describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import type { WorldData } from '../../src/core/service/store.js'
import { createServedService } from '../support/service.js'

async function read(service: RelayService, world: World, query: string) {
  const answer = await service.handle({
    method: 'GET',
    url: `/__relay/world${query}`,
    headers: { authorization: `Bearer ${world.token}` },
  })
  return { status: answer.status, body: JSON.parse(answer.text) }
}

async function createVehicles(service: RelayService, world: World, plates: string[]): Promise<void> {
  for (const plate of plates) {
    const answer = await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plate, country: 'is' }),
    })
    expect(answer.status).toBe(201)
  }
}

const ids = (data: WorldData) =>
  Object.values(data).flatMap((records: Array<{ id: string }>) => records.map((record) => record.id))

describe('GET /__relay/world in pages', () => {
  it('reads every record once, in pages of ?limit=, following next', async () => {
    const service = await createServedService({ vehicles: 6 })
    const world = await service.addWorld()
    await createVehicles(service, world, ['PG001', 'PG002'])
    const all = ids(world.store.snapshot())
    expect(all.length).toBeGreaterThan(10)
    const seen: string[] = []
    let query = '?limit=4'
    for (let pages = 0; pages < 100; pages++) {
      const { status, body } = await read(service, world, query)
      expect(status).toBe(200)
      expect(body.total).toBe(all.length)
      expect(Object.keys(body.records)).toEqual(['locations', 'rentalCompanies', 'vehicles', 'custodians', 'payments'])
      const page = ids(body.records)
      expect(page.length).toBeLessThanOrEqual(4)
      seen.push(...page)
      if (body.next === undefined) break
      expect(body.next).toBe(page.at(-1))
      query = `?limit=4&since=${body.next}`
    }
    expect(seen).toEqual(all)
  })

  it('answers every record in one page when they fit, with no next', async () => {
    const service = await createServedService()
    const world = await service.addWorld()
    const { body } = await read(service, world, '')
    expect(ids(body.records)).toEqual(ids(world.store.snapshot()))
    expect(body.next).toBeUndefined()
  })

  it('keeps its place when the cap evicts older created records, and says so when it evicted the cursor', async () => {
    const service = await createServedService({ vehicles: 2, worldRecords: 3 })
    const world = await service.addWorld()
    await createVehicles(service, world, ['EV001', 'EV002', 'EV003'])
    // A first page up to the second created vehicle.
    const second = world.store.vehicles.byPlate('EV002')[0].id
    const first = await read(service, world, `?limit=${ids(world.store.snapshot()).indexOf(second) + 1}`)
    const cursor = first.body.next
    expect(world.store.vehicles.byId(cursor)?.plate).toBe('EV002')
    await createVehicles(service, world, ['EV004'])
    const after = await read(service, world, `?since=${cursor}`)
    expect(after.body.records.vehicles.map((v: { plate: string }) => v.plate)).toEqual(['EV003', 'EV004'])
    await createVehicles(service, world, ['EV005', 'EV006'])
    const lost = await read(service, world, `?since=${cursor}`)
    expect(lost.status).toBe(400)
    expect(lost.body.message).toMatch(/no record with the id .* evicted .* read again without \?since=/i)
  })

  it.each(['?limit=0', `?limit=1001`, '?limit=two', '?since=no-such-record'])(
    'refuses %s with 400 saying what to send',
    async (query) => {
      const service = await createServedService()
      const world = await service.addWorld()
      const { status, body } = await read(service, world, query)
      expect(status).toBe(400)
      expect(body.message).toMatch(/\?(limit|since)= takes/)
    },
  )
})
