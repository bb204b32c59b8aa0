// Worlds share one loaded seeded store and keep what they create in a layer of their own.
import { describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/mock.js'
import { createStore, layerStore } from '../../src/core/store.js'

const vehicle = (id: string, plate: string, active = true) => ({ id, plate, country: 'is', active })
const ids = { a: '00000000-0000-4000-8000-00000000000a', b: '00000000-0000-4000-8000-00000000000b', c: '00000000-0000-4000-8000-00000000000c' }

describe('layerStore', () => {
  it('lists the seeded vehicles of a plate before the ones created over them, and finds both by id', async () => {
    const base = createStore()
    await base.vehicles.create(vehicle(ids.a, 'AB123'))
    await base.vehicles.create(vehicle(ids.b, 'AB123', false))
    const store = layerStore(base)
    await store.vehicles.create(vehicle(ids.c, 'ab-123'))
    expect(store.vehicles.activeByPlate('AB123').map((v) => v.id)).toEqual([ids.a, ids.c])
    expect(store.vehicles.byPlate('AB123').map((v) => v.id)).toEqual([ids.a, ids.b, ids.c])
    expect(store.vehicles.byId(ids.a)?.plate).toBe('AB123')
    expect(store.vehicles.byId(ids.c)?.plate).toBe('ab-123')
    expect(store.snapshot().vehicles.map((v) => v.id)).toEqual([ids.a, ids.b, ids.c])
    expect(store.counts().vehicles).toBe(3)
  })

  it('never writes into the base: another layer over it does not see the first one’s records', async () => {
    const base = createStore()
    await base.vehicles.create(vehicle(ids.a, 'AB123'))
    const one = layerStore(base)
    const other = layerStore(base)
    await one.vehicles.create(vehicle(ids.c, 'AB123'))
    expect(base.vehicles.activeByPlate('AB123').map((v) => v.id)).toEqual([ids.a])
    expect(other.vehicles.activeByPlate('AB123').map((v) => v.id)).toEqual([ids.a])
    expect(other.vehicles.byId(ids.c)).toBeUndefined()
  })
})

describe('isSeeded', () => {
  it('tells the records that came with the seed from the ones a client created', async () => {
    const service = await createRelayService({ scenario: 'new-vehicle' })
    const { store, visit } = service.world
    const seeded = store.vehicles.all()[0]
    const created = await store.vehicles.create(vehicle(ids.c, visit.plate))
    expect(store.isSeeded(seeded.id)).toBe(true)
    expect(store.isSeeded(store.rentalCompanies.all()[0].id)).toBe(true)
    expect(store.isSeeded(created.id)).toBe(false)
  })
})

describe('worlds of one scenario', () => {
  it('share the seeded records but not what each creates, and a reset drops only its own', async () => {
    const service = await createRelayService({ tokens: ['one', 'two'], scenario: 'new-vehicle' })
    const [one, two] = [service.worlds.get('one')!, service.worlds.get('two')!]
    expect(one.store.counts()).toEqual(two.store.counts())
    await one.store.vehicles.create(vehicle(ids.c, one.visit.plate))
    expect(one.store.vehicles.activeByPlate(one.visit.plate)).toHaveLength(1)
    expect(two.store.vehicles.activeByPlate(two.visit.plate)).toHaveLength(0)
    await service.resetWorld(one)
    expect(one.store.vehicles.activeByPlate(one.visit.plate)).toHaveLength(0)
    expect(one.store.counts()).toEqual(two.store.counts())
  })
})

describe('a capped layer', () => {
  it('removes the oldest created records, across many of the collections that hold them, and lists the rest in order', async () => {
    const store = layerStore(createStore(), { maxRecords: 300 })
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    for (let i = 0; i < 1000; i++) await store.vehicles.create(vehicle(id(i), `CAP${i}`.slice(0, 8)))
    expect(store.evicted()).toBe(700)
    expect(store.counts().vehicles).toBe(300)
    expect(store.vehicles.all().map((v) => v.id)).toEqual(Array.from({ length: 300 }, (_, i) => id(700 + i)))
    expect(store.vehicles.byId(id(699))).toBeUndefined()
    expect(store.vehicles.byId(id(700))?.id).toBe(id(700))
    expect(store.vehicles.byPlate('CAP5')).toEqual([])
  })

  it('removes the oldest of every kind in the order they were created, when kinds are created in turn', async () => {
    const store = layerStore(createStore(), { maxRecords: 500 })
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    // Two vehicles and a custodian each round: each kind's collections see their oldest removed first.
    for (let i = 0; i < 900; i++) {
      await store.vehicles.create(vehicle(id(3 * i), `V${i}`))
      await store.vehicles.create(vehicle(id(3 * i + 1), `W${i}`))
      await store.custodians.create({ id: id(3 * i + 2), vehicleId: id(3 * i), rentalCompanyId: id(999_999), acquiredOn: '2024-03-01' })
    }
    const kept = Array.from({ length: 500 }, (_, i) => 2700 - 500 + i)
    expect(store.evicted()).toBe(2200)
    expect(store.vehicles.all().map((v) => v.id)).toEqual(kept.filter((n) => n % 3 !== 2).map(id))
    expect(store.custodians.all().map((c) => c.id)).toEqual(kept.filter((n) => n % 3 === 2).map(id))
    expect(store.counts()).toMatchObject({ vehicles: kept.filter((n) => n % 3 !== 2).length, custodians: kept.filter((n) => n % 3 === 2).length })
    expect(store.custodians.byVehicle(id(3 * 732))).toEqual([])
    expect(store.custodians.byVehicle(id(3 * 733))).toHaveLength(1)
  })
})

describe('a create', () => {
  it('answers the stored record at once, a copy of the values, which @msw/data then holds as its own', async () => {
    const store = createStore()
    const values = { id: ids.a, locationId: ids.b, vehicleId: ids.c, amount: { amount: 990, currency: 'ISK' }, startedOn: '2026-01-01 08:00:00', endedOn: '2026-01-01 08:20:00', status: 'new' as const, via: 'advanced' as const }
    const record = store.payments.create(values)
    expect(record).not.toBeInstanceOf(Promise)
    expect(record).toEqual(values)
    expect(record).not.toBe(values)
    expect(record.amount).not.toBe(values.amount)
    expect(store.payments.byId(ids.a)).toBe(record)
    // The library marks a record it holds with its primary key and relation map (two symbols), once its create has run.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(Object.getOwnPropertySymbols(record)).toHaveLength(2)
  })
})
