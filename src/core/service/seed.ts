// The base world every scenario starts from: locations, rental companies with valid company
// kennitölur, vehicles with Icelandic plates and their custodians, all from a fixed faker seed.
// faker loads when a world is first seeded, not with the module: a world read from a cache of seeded
// worlds (see RelayServiceOptions.seedCache) needs none of it.
import { SEED_DEFAULTS } from '../defaults.js'
import { companyKennitala } from '../kennitala.js'
import { createRandom } from '../random.js'
import type { Scenario, SeedContext, Visit } from './scenario.js'
import { normalizePlate } from './schemas.js'
import type { WorldData } from './store.js'
import { importExternal } from '../import-external.js'

export interface SeedOptions {
  /** The faker seed: the same seed gives the same world. Default 2026. */
  seed?: number
  /** How many vehicles the base world holds. Default 24. */
  vehicles?: number
}

export interface SeededWorld {
  data: WorldData
  /** The visit that exercises the scenario. */
  visit: Visit
  /** Values a person can try by hand: a registered owner and plate, an unknown owner and plate. */
  hints: { unknownKennitala: string; unknownPlate: string }
}

export { SEED_DEFAULTS }

const PLATE_LETTERS = 'ABDEFGHIJKLMNOPRSTUVXYZ'
const COMPANY_NAMES = [
  'Hekla Bílaleiga ehf.',
  'Geysir Car Rental ehf.',
  'Norðurljós Bílar ehf.',
  'Blue Fjord Rentals ehf.',
  'Akureyri Bílaleiga ehf.',
  'Vatnajökull Cars ehf.',
]
const LOCATION_NAMES = ['Glansi Car Wash, Reykjavík', 'Hvalfjörður Tunnel', 'Harpa Parking']

/** `YYYY-MM-DD` of a Date, in UTC. */
function day(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/**
 * Builds a scenario's world: the base world, changed by the scenario's seed.
 * @example (await buildWorld(newVehicle, { seed: 2026 })).visit.plate // a plate no vehicle has
 */
export async function buildWorld(scenario: Scenario, options: SeedOptions = {}): Promise<SeededWorld> {
  const { seed, vehicles: vehicleCount } = { ...SEED_DEFAULTS, ...options }
  // faker is one shared instance: from its seed to the world's end nothing awaits, so no other seeding interleaves.
  const { faker } = await importExternal<typeof import('@faker-js/faker/locale/base')>('@faker-js/faker/locale/base')
  faker.seed(seed)
  const random = createRandom(`seed:${seed}`)
  const int = (min: number, max: number) => faker.number.int({ min, max })

  const usedPlates = new Set<string>()
  const usedKennitolur = new Set<string>()
  const newPlate = (): string => {
    for (;;) {
      const letters = faker.datatype.boolean({ probability: 0.7 }) ? 2 : 3
      let plate = ''
      for (let i = 0; i < letters; i++) plate += PLATE_LETTERS[int(0, PLATE_LETTERS.length - 1)]
      for (let i = letters; i < 5; i++) plate += String(int(0, 9))
      if (!usedPlates.has(plate)) {
        usedPlates.add(plate)
        return plate
      }
    }
  }
  const newKennitala = (): string => {
    for (;;) {
      const k = companyKennitala(int)
      if (!usedKennitolur.has(k)) {
        usedKennitolur.add(k)
        return k
      }
    }
  }

  const data: WorldData = { locations: [], rentalCompanies: [], vehicles: [], custodians: [], payments: [] }
  for (const name of LOCATION_NAMES) data.locations.push({ id: faker.string.uuid(), name })
  for (const name of faker.helpers.shuffle([...COMPANY_NAMES]).slice(0, 5)) {
    data.rentalCompanies.push({ id: faker.string.uuid(), name, kennitala: newKennitala() })
  }
  const from = new Date(Date.UTC(2019, 0, 1))
  const to = new Date(Date.UTC(2026, 5, 30))
  for (let i = 0; i < vehicleCount; i++) {
    const company = data.rentalCompanies[i % data.rentalCompanies.length]
    const vehicle = { id: faker.string.uuid(), plate: newPlate(), country: 'is', active: i % 12 !== 11 }
    data.vehicles.push(vehicle)
    data.custodians.push({
      id: faker.string.uuid(),
      vehicleId: vehicle.id,
      rentalCompanyId: company.id,
      acquiredOn: `${day(faker.date.between({ from, to }))} 00:00:00`,
    })
  }

  const context: SeedContext = {
    data,
    random,
    unusedPlate: newPlate,
    unusedKennitala: newKennitala,
    visitDefaults: {
      visitStart: '2026-11-21 09:14:05',
      visitEnd: '2026-11-21 09:31:47',
      amount: 2490,
      currency: 'ISK',
    },
  }
  const visit = scenario.seed(context)
  for (const v of data.vehicles) usedPlates.add(normalizePlate(v.plate))
  return { data, visit, hints: { unknownKennitala: newKennitala(), unknownPlate: newPlate() } }
}

/** The first registered company, its first active vehicle and the date its custodian took it. */
export function firstOwnedVehicle(data: WorldData) {
  const company = data.rentalCompanies[0]
  const custodian = data.custodians.find(
    (c) => c.rentalCompanyId === company.id && data.vehicles.some((v) => v.id === c.vehicleId && v.active),
  )
  if (!custodian) throw new Error('Failed to seed: the base world has no active vehicle for its first company.')
  const vehicle = data.vehicles.find((v) => v.id === custodian.vehicleId)!
  return { company, vehicle, registrationDate: custodian.acquiredOn.slice(0, 10) }
}

/** The visit of the first company's first active vehicle: the seed of scenarios where the vehicle is known. */
export function ownedVehicleVisit({ data, visitDefaults }: SeedContext): Visit {
  const { company, vehicle, registrationDate } = firstOwnedVehicle(data)
  return { plate: vehicle.plate, ownerKennitala: company.kennitala, registrationDate, ...visitDefaults }
}
