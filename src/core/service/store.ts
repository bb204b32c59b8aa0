// The one door to @msw/data: one world's records, typed, with the indexes that every request's lookup
// uses (so a lookup costs the same with 30,000 vehicles as with ten), held in @msw/data collections for
// queries through the library's own API (see Segmented).
import { Segmented, type RecordQuery } from './segmented.js'
import { validate } from './validate.js'
import type { z } from 'zod'
import {
  custodianRecord,
  locationRecord,
  paymentRecord,
  rentalCompany,
  vehicleRecord,
  type CustodianRecord,
  type LocationRecord,
  type PaymentRecord,
  type RentalCompany,
  type VehicleRecord,
} from './schemas.js'
import { normalizePlate } from './schemas.js'

/** A plain snapshot of a world's records, as the admin API shows it and as seeds are cached. */
export interface WorldData {
  locations: LocationRecord[]
  rentalCompanies: RentalCompany[]
  vehicles: VehicleRecord[]
  custodians: CustodianRecord[]
  payments: PaymentRecord[]
}

class Index<T> {
  readonly #map = new Map<string, T[]>()
  add(key: string, record: T): void {
    const list = this.#map.get(key)
    if (list) list.push(record)
    else this.#map.set(key, [record])
  }
  get(key: string): readonly T[] {
    return this.#map.get(key) ?? []
  }
  remove(key: string, record: T): void {
    const list = this.#map.get(key)
    const at = list?.indexOf(record) ?? -1
    if (at === -1) return
    if (list!.length === 1) this.#map.delete(key)
    else list!.splice(at, 1)
  }
  clear(): void {
    this.#map.clear()
  }
}

/**
 * One kind's records. The records it answers are the stored ones and are read-only: a world's records
 * change only by `create` and `remove` (which count in `version`), so that what was read of them holds
 * until then (see reads.ts).
 */
interface Records<T> {
  /** Stores a copy of `values` and answers it, synchronously (an `await` of the answer still works). */
  create(values: T): Readonly<T>
  byId(id: string): Readonly<T> | undefined
  all(): Array<Readonly<T>>
  /**
   * The records an @msw/data query finds, oldest first (every record without a query), answered by
   * the library: its `where` takes values or predicates per field.
   * @example await store.payments.findMany((q) => q.where({ status: 'new', amount: { currency: 'ISK' } }))
   */
  findMany(query?: RecordQuery<T>): Promise<Array<Readonly<T>>>
  /** The oldest record an @msw/data query finds, or undefined. */
  findFirst(query?: RecordQuery<T>): Promise<Readonly<T> | undefined>
}

export type { RecordQuery } from './segmented.js'

/** The typed accessors of one world's records: the only way handlers and scenarios reach the data. */
export interface Store {
  locations: Records<LocationRecord>
  rentalCompanies: Records<RentalCompany> & { byKennitala(kennitala: string): ReadonlyArray<Readonly<RentalCompany>> }
  vehicles: Records<VehicleRecord> & {
    byPlate(plate: string): ReadonlyArray<Readonly<VehicleRecord>>
    activeByPlate(plate: string): Array<Readonly<VehicleRecord>>
  }
  custodians: Records<CustodianRecord> & { byVehicle(vehicleId: string): ReadonlyArray<Readonly<CustodianRecord>> }
  payments: Records<PaymentRecord>
  snapshot(): WorldData
  counts(): Record<keyof WorldData, number>
  /** Loads a seed's records (already valid) in order. */
  load(data: WorldData): Promise<void>
  /** True for a record that came with the seed (load), false for one a client created. */
  isSeeded(id: string): boolean
  /** Removes a record a client created (never a seeded one); false when there is none with the id. */
  remove(id: string): boolean
  /** How many records a client created were removed to keep the world under its cap (see layerStore). */
  evicted(): number
  /**
   * How many times its records have changed (each record created or removed counts one): two equal
   * readings mean the same records, so what was read from them in between still holds.
   */
  version(): number
}

/** The records of every kind, each found by id, with their indexes and the count of changes made to them. */
function createRecords() {
  const collections = {
    locations: new Segmented<LocationRecord>(),
    rentalCompanies: new Segmented<RentalCompany>(),
    vehicles: new Segmented<VehicleRecord>(),
    custodians: new Segmented<CustodianRecord>(),
    payments: new Segmented<PaymentRecord>(),
  }
  const byId = new Map<string, { kind: keyof WorldData; record: unknown }>()
  const seeded = new Set<string>()
  const companiesByKennitala = new Index<RentalCompany>()
  const vehiclesByPlate = new Index<VehicleRecord>()
  const custodiansByVehicle = new Index<CustodianRecord>()
  let version = 0

  function add<K extends keyof WorldData>(kind: K, values: WorldData[K][number]): WorldData[K][number] {
    const record = (collections[kind] as unknown as Segmented<WorldData[K][number]>).create(values)
    byId.set(record.id, { kind, record })
    version++
    return record
  }
  function forget(id: string): boolean {
    const hit = byId.get(id)
    if (!hit || seeded.has(id)) return false
    byId.delete(id)
    version++
    const record = hit.record as never
    collections[hit.kind].delete(record)
    if (hit.kind === 'rentalCompanies') companiesByKennitala.remove((record as RentalCompany).kennitala, record)
    else if (hit.kind === 'vehicles') vehiclesByPlate.remove(normalizePlate((record as VehicleRecord).plate), record)
    else if (hit.kind === 'custodians') custodiansByVehicle.remove((record as CustodianRecord).vehicleId, record)
    return true
  }
  function find<K extends keyof WorldData>(kind: K, id: string): WorldData[K][number] | undefined {
    const hit = byId.get(id)
    return hit && hit.kind === kind ? (hit.record as WorldData[K][number]) : undefined
  }

  /** What every kind answers alike: a record by id, all of them, and queries through @msw/data. */
  function reading<K extends keyof WorldData>(kind: K): Omit<Records<WorldData[K][number]>, 'create'> {
    const records = collections[kind] as unknown as Segmented<WorldData[K][number]>
    return {
      byId: (id) => find(kind, id),
      all: () => records.all(),
      findMany: (query) => records.query(query),
      findFirst: async (query) => (await records.query(query, true))[0],
    }
  }

  return {
    collections,
    seeded,
    indexes: { companiesByKennitala, vehiclesByPlate, custodiansByVehicle },
    add,
    forget,
    reading,
    version: () => version,
  }
}

/**
 * The records of one world (one token), with @msw/data collections for queries through the library.
 * @example
 * const store = createStore()
 * store.vehicles.create({ id, plate: 'AB123', country: 'is', active: true })
 * store.vehicles.activeByPlate('ab-123') // [that vehicle]
 */
export function createStore(): Store {
  const { collections, seeded, indexes, add, forget, reading, version } = createRecords()
  const { companiesByKennitala, vehiclesByPlate, custodiansByVehicle } = indexes
  const store: Store = {
    locations: {
      ...reading('locations'),
      create: (values: LocationRecord) => add('locations', values),
    },
    rentalCompanies: {
      ...reading('rentalCompanies'),
      create(values: RentalCompany) {
        const record = add('rentalCompanies', values)
        companiesByKennitala.add(record.kennitala, record)
        return record
      },
      byKennitala: (kennitala: string) => companiesByKennitala.get(kennitala),
    },
    vehicles: {
      ...reading('vehicles'),
      create(values: VehicleRecord) {
        const record = add('vehicles', values)
        vehiclesByPlate.add(normalizePlate(record.plate), record)
        return record
      },
      /** Every vehicle with this plate, active or not, oldest first. */
      byPlate: (plate: string) => vehiclesByPlate.get(normalizePlate(plate)),
      /** The active vehicles with this plate, oldest first: what GET /vehicles?plate= answers. */
      activeByPlate: (plate: string) => vehiclesByPlate.get(normalizePlate(plate)).filter((v) => v.active),
    },
    custodians: {
      ...reading('custodians'),
      create(values: CustodianRecord) {
        const record = add('custodians', values)
        custodiansByVehicle.add(record.vehicleId, record)
        return record
      },
      byVehicle: (vehicleId: string) => custodiansByVehicle.get(vehicleId),
    },
    payments: {
      ...reading('payments'),
      create: (values: PaymentRecord) => add('payments', values),
    },
    /** A plain copy of every record, for the admin API and for seeding another world. */
    snapshot(): WorldData {
      return {
        locations: collections.locations.all().map((r) => ({ ...r })),
        rentalCompanies: collections.rentalCompanies.all().map((r) => ({ ...r })),
        vehicles: collections.vehicles.all().map((r) => ({ ...r })),
        custodians: collections.custodians.all().map((r) => ({ ...r })),
        payments: collections.payments.all().map((r) => ({ ...r, amount: { ...r.amount } })),
      }
    },
    counts() {
      return {
        locations: collections.locations.count(),
        rentalCompanies: collections.rentalCompanies.count(),
        vehicles: collections.vehicles.count(),
        custodians: collections.custodians.count(),
        payments: collections.payments.count(),
      }
    },
    // async, with nothing to wait for: a record the seed's schemas refuse rejects the promise, as an awaited
    // load fails, rather than throwing before one is made.
    // eslint-disable-next-line @typescript-eslint/require-await
    async load(data: WorldData): Promise<void> {
      // A seed comes from a scenario, maybe a user's: its records are checked here, by their schemas.
      for (const r of data.locations) store.locations.create(checked(locationRecord, r, 'locations'))
      for (const r of data.rentalCompanies) store.rentalCompanies.create(checked(rentalCompany, r, 'rentalCompanies'))
      for (const r of data.vehicles) store.vehicles.create(checked(vehicleRecord, r, 'vehicles'))
      for (const r of data.custodians) store.custodians.create(checked(custodianRecord, r, 'custodians'))
      for (const r of data.payments) store.payments.create(checked(paymentRecord, r, 'payments'))
      for (const kind of Object.keys(data) as Array<keyof WorldData>) for (const r of data[kind]) seeded.add(r.id)
    },
    isSeeded: (id) => seeded.has(id),
    remove: forget,
    evicted: () => 0,
    version,
  }
  return store
}

/** A seed's record as its schema reads it, or an error naming the record and what was wrong. */
function checked<T>(schema: z.ZodType<T>, record: unknown, kind: keyof WorldData): T {
  // zod's answer, sooner for a valid record (see validate.ts): a start loads its cached world's records here.
  const result = validate(schema, record)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue.path.length > 0 ? ` ${issue.path.join('.')}` : ''
  throw new Error(
    `the seed's ${kind} record ${JSON.stringify((record as { id?: unknown })?.id ?? record)}${field} ${issue.message}`,
  )
}

/**
 * A world's store over a shared, read-only seeded store: lookups see both layers (the seeded
 * records first, as they are older), creations go to the world's own layer. The service never
 * updates or deletes a record, so the base never changes, and a new world or a reset costs the
 * same with 30,000 seeded vehicles as with ten. The own layer holds at most `maxRecords` records:
 * beyond, the oldest created goes first (counted by `evicted()`), so a client that creates
 * without end cannot grow the process without end.
 * @example const store = layerStore(await seededStore, { maxRecords: 10_000 }) // one per world, all over one base
 */
export function layerStore(
  base: Store,
  { maxRecords = Number.POSITIVE_INFINITY }: { maxRecords?: number } = {},
): Store {
  const own = createStore()
  // The ids in the order they were created; the front is cut off now and then.
  let created: string[] = []
  let oldest = 0
  let evicted = 0
  function remember<T extends { id: string }>(record: T): T {
    created.push(record.id)
    while (created.length - oldest > maxRecords) {
      if (own.remove(created[oldest])) evicted++
      oldest++
    }
    if (oldest >= 1024 && oldest * 2 >= created.length) {
      created = created.slice(oldest)
      oldest = 0
    }
    return record
  }
  const both = <T>(below: readonly T[], above: readonly T[]): T[] =>
    above.length === 0 ? (below as T[]) : below.length === 0 ? (above as T[]) : [...below, ...above]
  const layered = <K extends keyof WorldData>(kind: K): Records<WorldData[K][number]> => {
    const mine = own[kind] as unknown as Records<WorldData[K][number]>
    const theirs = base[kind] as unknown as Records<WorldData[K][number]>
    return {
      create: (values) => remember(mine.create(values)),
      byId: (id) => mine.byId(id) ?? theirs.byId(id),
      all: () => both(theirs.all(), mine.all()),
      findMany: async (query) => both(await theirs.findMany(query), await mine.findMany(query)),
      findFirst: async (query) => (await theirs.findFirst(query)) ?? (await mine.findFirst(query)),
    }
  }
  const store: Store = {
    locations: layered('locations'),
    rentalCompanies: {
      ...layered('rentalCompanies'),
      byKennitala: (kennitala) =>
        both(base.rentalCompanies.byKennitala(kennitala), own.rentalCompanies.byKennitala(kennitala)),
    },
    vehicles: {
      ...layered('vehicles'),
      byPlate: (plate) => both(base.vehicles.byPlate(plate), own.vehicles.byPlate(plate)),
      activeByPlate: (plate) => both(base.vehicles.activeByPlate(plate), own.vehicles.activeByPlate(plate)),
    },
    custodians: {
      ...layered('custodians'),
      byVehicle: (vehicleId) => both(base.custodians.byVehicle(vehicleId), own.custodians.byVehicle(vehicleId)),
    },
    payments: layered('payments'),
    snapshot() {
      const below = base.snapshot()
      const above = own.snapshot()
      return {
        locations: both(below.locations, above.locations),
        rentalCompanies: both(below.rentalCompanies, above.rentalCompanies),
        vehicles: both(below.vehicles, above.vehicles),
        custodians: both(below.custodians, above.custodians),
        payments: both(below.payments, above.payments),
      }
    },
    counts() {
      const below = base.counts()
      const above = own.counts()
      return {
        locations: below.locations + above.locations,
        rentalCompanies: below.rentalCompanies + above.rentalCompanies,
        vehicles: below.vehicles + above.vehicles,
        custodians: below.custodians + above.custodians,
        payments: below.payments + above.payments,
      }
    },
    load: (data) => own.load(data),
    isSeeded: (id) => base.isSeeded(id) || own.isSeeded(id),
    remove: (id) => own.remove(id),
    evicted: () => evicted,
    version: () => base.version() + own.version(),
  }
  return store
}
