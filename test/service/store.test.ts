// Worlds share one loaded seeded store and keep what they create in a layer of their own.
import { Collection } from '@msw/data'
import { describe, expect, it, vi } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { createStore, layerStore } from '../../src/core/service/store.js'

const vehicle = (id: string, plate: string, active = true) => ({ id, plate, country: 'is', active })
const ids = {
  a: '00000000-0000-4000-8000-00000000000a',
  b: '00000000-0000-4000-8000-00000000000b',
  c: '00000000-0000-4000-8000-00000000000c',
}

describe('layerStore', () => {
  it('lists the seeded vehicles of a plate before the ones created over them, and finds both by id', () => {
    const base = createStore()
    base.vehicles.create(vehicle(ids.a, 'AB123'))
    base.vehicles.create(vehicle(ids.b, 'AB123', false))
    const store = layerStore(base)
    store.vehicles.create(vehicle(ids.c, 'ab-123'))
    expect(store.vehicles.activeByPlate('AB123').map((v) => v.id)).toEqual([ids.a, ids.c])
    expect(store.vehicles.byPlate('AB123').map((v) => v.id)).toEqual([ids.a, ids.b, ids.c])
    expect(store.vehicles.byId(ids.a)?.plate).toBe('AB123')
    expect(store.vehicles.byId(ids.c)?.plate).toBe('ab-123')
    expect(store.snapshot().vehicles.map((v) => v.id)).toEqual([ids.a, ids.b, ids.c])
    expect(store.counts().vehicles).toBe(3)
  })

  it('never writes into the base: another layer over it does not see the first one’s records', () => {
    const base = createStore()
    base.vehicles.create(vehicle(ids.a, 'AB123'))
    const one = layerStore(base)
    const other = layerStore(base)
    one.vehicles.create(vehicle(ids.c, 'AB123'))
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
    const created = store.vehicles.create(vehicle(ids.c, visit.plate))
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
    one.store.vehicles.create(vehicle(ids.c, one.visit.plate))
    expect(one.store.vehicles.activeByPlate(one.visit.plate)).toHaveLength(1)
    expect(two.store.vehicles.activeByPlate(two.visit.plate)).toHaveLength(0)
    await service.resetWorld(one)
    expect(one.store.vehicles.activeByPlate(one.visit.plate)).toHaveLength(0)
    expect(one.store.counts()).toEqual(two.store.counts())
  })
})

describe('a capped layer', () => {
  it('removes the oldest created records, across many of the collections that hold them, and lists the rest in order', () => {
    const store = layerStore(createStore(), { maxRecords: 300 })
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    for (let i = 0; i < 1000; i++) store.vehicles.create(vehicle(id(i), `CAP${i}`.slice(0, 8)))
    expect(store.evicted()).toBe(700)
    expect(store.counts().vehicles).toBe(300)
    expect(store.vehicles.all().map((v) => v.id)).toEqual(Array.from({ length: 300 }, (_, i) => id(700 + i)))
    expect(store.vehicles.byId(id(699))).toBeUndefined()
    expect(store.vehicles.byId(id(700))?.id).toBe(id(700))
    expect(store.vehicles.byPlate('CAP5')).toEqual([])
  })

  it('removes the oldest of every kind in the order they were created, when kinds are created in turn', () => {
    const store = layerStore(createStore(), { maxRecords: 500 })
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
    // Two vehicles and a custodian each round: each kind's collections see their oldest removed first.
    for (let i = 0; i < 900; i++) {
      store.vehicles.create(vehicle(id(3 * i), `V${i}`))
      store.vehicles.create(vehicle(id(3 * i + 1), `W${i}`))
      store.custodians.create({
        id: id(3 * i + 2),
        vehicleId: id(3 * i),
        rentalCompanyId: id(999_999),
        acquiredOn: '2024-03-01',
      })
    }
    const kept = Array.from({ length: 500 }, (_, i) => 2700 - 500 + i)
    expect(store.evicted()).toBe(2200)
    expect(store.vehicles.all().map((v) => v.id)).toEqual(kept.filter((n) => n % 3 !== 2).map(id))
    expect(store.custodians.all().map((c) => c.id)).toEqual(kept.filter((n) => n % 3 === 2).map(id))
    expect(store.counts()).toMatchObject({
      vehicles: kept.filter((n) => n % 3 !== 2).length,
      custodians: kept.filter((n) => n % 3 === 2).length,
    })
    expect(store.custodians.byVehicle(id(3 * 732))).toEqual([])
    expect(store.custodians.byVehicle(id(3 * 733))).toHaveLength(1)
  })
})

describe('a create', () => {
  it('answers the stored record at once, a copy of the values, and leaves @msw/data alone until something queries through it', async () => {
    const store = createStore()
    const values = {
      id: ids.a,
      locationId: ids.b,
      vehicleId: ids.c,
      amount: { amount: 990, currency: 'ISK' },
      startedOn: '2026-01-01 08:00:00',
      endedOn: '2026-01-01 08:20:00',
      status: 'new' as const,
      via: 'advanced' as const,
    }
    const create = vi.spyOn(Collection.prototype, 'create')
    try {
      const record = store.payments.create(values)
      expect(record).not.toBeInstanceOf(Promise)
      expect(record).toEqual(values)
      expect(record).not.toBe(values)
      expect(record.amount).not.toBe(values.amount)
      expect(store.payments.byId(ids.a)).toBe(record)
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(create).not.toHaveBeenCalled()
      // The library marks a record it holds with its primary key and relation map (two symbols): the stored record itself.
      expect(Object.getOwnPropertySymbols(record)).toHaveLength(0)
      expect(await store.payments.findMany()).toEqual([record])
      expect(create).toHaveBeenCalledTimes(1)
      expect(Object.getOwnPropertySymbols(record)).toHaveLength(2)
      expect((await store.payments.findMany())[0]).toBe(record)
      expect(create).toHaveBeenCalledTimes(1)
    } finally {
      create.mockRestore()
    }
  })
})

describe('a query through @msw/data', () => {
  const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
  const payment = (i: number, status: 'new' | 'paid', currency = 'ISK') => ({
    id: id(i),
    locationId: ids.b,
    vehicleId: ids.c,
    amount: { amount: 100 + i, currency },
    startedOn: '2026-01-01 08:00:00',
    endedOn: '2026-01-01 08:20:00',
    status,
    via: 'simple' as const,
  })

  it('finds by values and by predicates, nested ones too, oldest first, and the records created after the last query', async () => {
    const store = createStore()
    for (let i = 0; i < 600; i++)
      store.payments.create(payment(i, i % 3 === 0 ? 'paid' : 'new', i % 2 === 0 ? 'ISK' : 'EUR'))
    const paid = await store.payments.findMany((q) => q.where({ status: 'paid' }))
    expect(paid.map((p) => p.id)).toEqual(Array.from({ length: 200 }, (_, i) => id(3 * i)))
    const paidInEuro = await store.payments.findMany((q) => q.where({ status: 'paid', amount: { currency: 'EUR' } }))
    expect(paidInEuro.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => id(6 * i + 3)))
    expect((await store.payments.findFirst((q) => q.where({ amount: { amount: (n) => n > 650 } })))?.id).toBe(id(551))
    store.payments.create(payment(600, 'paid'))
    expect((await store.payments.findMany((q) => q.where({ status: 'paid' }))).at(-1)?.id).toBe(id(600))
    expect(await store.payments.findMany()).toHaveLength(601)
    expect(await store.payments.findFirst((q) => q.where({ status: (s) => s === 'refused' }))).toBeUndefined()
  })

  it('never answers a record the cap removed, whether the library was given it before or not', async () => {
    const store = layerStore(createStore(), { maxRecords: 300 })
    for (let i = 0; i < 400; i++) store.payments.create(payment(i, 'new'))
    expect((await store.payments.findMany()).map((p) => p.id)).toEqual(
      Array.from({ length: 300 }, (_, i) => id(100 + i)),
    )
    // Now the library holds 100..399: removing more of them must take them out of what a query finds.
    for (let i = 400; i < 450; i++) store.payments.create(payment(i, 'new'))
    const found = await store.payments.findMany()
    expect(found.map((p) => p.id)).toEqual(Array.from({ length: 300 }, (_, i) => id(150 + i)))
    expect(await store.payments.findFirst()).toBe(store.payments.byId(id(150)))
  })

  it('never answers a record the library was given, once the cap removed it, up to the last one given', async () => {
    const store = layerStore(createStore(), { maxRecords: 5 })
    for (let i = 0; i < 5; i++) store.payments.create(payment(i, 'new'))
    // The library is given 0..4; then every one of them is removed, the last one given included.
    expect(await store.payments.findMany()).toHaveLength(5)
    for (let i = 5; i < 10; i++) store.payments.create(payment(i, 'new'))
    expect((await store.payments.findMany()).map((p) => p.id)).toEqual([5, 6, 7, 8, 9].map(id))
    expect(await store.payments.findFirst((q) => q.where({ id: id(4) }))).toBeUndefined()
  })

  it("finds a record a test froze (the library holds a copy) and the store's own record is what it answers; the next query works too", async () => {
    const store = createStore()
    const frozen = Object.freeze(store.payments.create(payment(1, 'paid')))
    expect(await store.payments.findMany((q) => q.where({ status: 'paid' }))).toEqual([frozen])
    expect(await store.payments.findFirst()).toBe(frozen)
    const next = store.payments.create(payment(2, 'paid'))
    expect(await store.payments.findMany((q) => q.where({ status: 'paid' }))).toEqual([frozen, next])
    expect((await store.payments.findMany())[1]).toBe(next)
  })

  it('finds the records created after one was removed out of order, once the library held them', async () => {
    const store = createStore()
    for (let i = 0; i < 10; i++) store.payments.create(payment(i, 'new'))
    expect(await store.payments.findMany()).toHaveLength(10)
    expect(store.remove(id(3))).toBe(true)
    store.payments.create(payment(10, 'new'))
    expect((await store.payments.findMany()).map((p) => p.id)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 10].map(id))
  })

  it('answers a seeded record before a created one that both match, in findFirst as in findMany', async () => {
    const base = createStore()
    base.payments.create(payment(1, 'paid'))
    const store = layerStore(base)
    store.payments.create(payment(2, 'paid'))
    expect((await store.payments.findFirst((q) => q.where({ status: 'paid' })))?.id).toBe(id(1))
    expect((await store.payments.findMany((q) => q.where({ status: 'paid' }))).map((p) => p.id)).toEqual([id(1), id(2)])
  })

  it('answers two queries asked at once alike, with each record given to the library once', async () => {
    const store = createStore()
    for (let i = 0; i < 10; i++) store.payments.create(payment(i, 'paid'))
    const create = vi.spyOn(Collection.prototype, 'create')
    try {
      const [one, two] = await Promise.all([store.payments.findMany(), store.payments.findMany()])
      expect(one.map((p) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => id(i)))
      expect(two).toEqual(one)
      expect(create).toHaveBeenCalledTimes(10)
    } finally {
      create.mockRestore()
    }
  })

  it('findFirst asks only the collections up to its match, and passes over a match the cap removed since', async () => {
    const store = layerStore(createStore(), { maxRecords: 600 })
    // 700 payments in collections of 256: the cap removed the first 100; 100 to 149 are paid.
    for (let i = 0; i < 700; i++) store.payments.create(payment(i, i < 150 ? 'paid' : 'new'))
    const findMany = vi.spyOn(Collection.prototype, 'findMany')
    try {
      expect((await store.payments.findFirst((q) => q.where({ status: 'paid' })))?.id).toBe(id(100))
      expect(findMany).toHaveBeenCalledTimes(1)
      // 50 more: the cap removes the paid ones, which the library was given and still holds.
      for (let i = 700; i < 750; i++) store.payments.create(payment(i, 'new'))
      findMany.mockClear()
      expect(await store.payments.findFirst((q) => q.where({ status: 'paid' }))).toBeUndefined()
      expect(findMany).toHaveBeenCalledTimes(3)
      findMany.mockClear()
      expect((await store.payments.findFirst((q) => q.where({ status: 'new' })))?.id).toBe(id(150))
      expect(findMany).toHaveBeenCalledTimes(1)
    } finally {
      findMany.mockRestore()
    }
  })

  it("finds a world's seeded records before the ones its clients created, and nothing another world created", async () => {
    const service = await createRelayService({ tokens: ['one', 'two'], scenario: 'new-vehicle' })
    const [one, two] = [service.worlds.get('one')!, service.worlds.get('two')!]
    const seeded = one.store.vehicles.all()
    one.store.vehicles.create(vehicle(ids.c, one.visit.plate))
    expect((await one.store.vehicles.findMany()).map((v) => v.id)).toEqual([...seeded.map((v) => v.id), ids.c])
    expect((await one.store.vehicles.findFirst((q) => q.where({ plate: one.visit.plate })))?.id).toBe(ids.c)
    expect(await two.store.vehicles.findFirst((q) => q.where({ plate: two.visit.plate }))).toBeUndefined()
    expect((await two.store.vehicles.findMany()).map((v) => v.id)).toEqual(seeded.map((v) => v.id))
  })
})
