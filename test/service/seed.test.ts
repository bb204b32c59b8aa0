// The seeded world: the same seed gives the same world; its kennitölur and plates look real.
import { describe, expect, it } from 'vitest'
import { isCompanyKennitala } from '../../src/core/kennitala.js'
import { createRelayService } from '../../src/core/service/mock.js'
import { buildWorld } from '../../src/core/service/seed.js'
import { scenarios } from '../../scenarios/index.js'

/** Icelandic plates: two letters and three digits, or three letters and two digits. */
const ICELANDIC_PLATE = /^(?:[A-ZÁÐÉÍÓÚÝÞÆÖ]{2}\d{3}|[A-ZÁÐÉÍÓÚÝÞÆÖ]{3}\d{2})$/

const base = scenarios.get('default')!

describe('the seeded world', () => {
  it('is the same for the same seed', async () => {
    expect(await buildWorld(base, { seed: 7 })).toEqual(await buildWorld(base, { seed: 7 }))
  })

  it('differs for another seed', async () => {
    const a = (await buildWorld(base, { seed: 7 })).data
    const b = (await buildWorld(base, { seed: 8 })).data
    expect(a.vehicles.map((v) => v.plate)).not.toEqual(b.vehicles.map((v) => v.plate))
  })

  it.each([...scenarios.keys()])('%s is the same for the same seed, visit included', async (name) => {
    const scenario = scenarios.get(name)!
    expect(await buildWorld(scenario, { seed: 2026 })).toEqual(await buildWorld(scenario, { seed: 2026 }))
  })

  it('gives two services with the same seed the same ids', async () => {
    const [a, b] = await Promise.all([createRelayService({ seed: 11 }), createRelayService({ seed: 11 })])
    expect(a.world.store.snapshot()).toEqual(b.world.store.snapshot())
    expect(a.world.location.id).toBe(b.world.location.id)
  })

  it('gives every rental company a valid company kennitala, each different', async () => {
    const { rentalCompanies } = (await buildWorld(base, { seed: 2026 })).data
    expect(rentalCompanies.length).toBeGreaterThan(1)
    for (const company of rentalCompanies) expect(isCompanyKennitala(company.kennitala), company.kennitala).toBe(true)
    expect(new Set(rentalCompanies.map((c) => c.kennitala)).size).toBe(rentalCompanies.length)
  })

  it('gives the unknown-owner hint a valid company kennitala that no company has', async () => {
    const { data, hints } = await buildWorld(base, { seed: 2026 })
    expect(isCompanyKennitala(hints.unknownKennitala)).toBe(true)
    expect(data.rentalCompanies.map((c) => c.kennitala)).not.toContain(hints.unknownKennitala)
  })

  it('gives every vehicle an Icelandic plate, each different', async () => {
    const { vehicles } = (await buildWorld(base, { seed: 2026, vehicles: 500 })).data
    for (const vehicle of vehicles) expect(vehicle.plate).toMatch(ICELANDIC_PLATE)
    expect(new Set(vehicles.map((v) => v.plate)).size).toBe(vehicles.length)
  })

  it('gives every vehicle a custodian with a company of the world and a YYYY-MM-DD 00:00:00 date', async () => {
    const { data } = await buildWorld(base, { seed: 2026 })
    const companies = new Set(data.rentalCompanies.map((c) => c.id))
    for (const vehicle of data.vehicles) {
      const custodians = data.custodians.filter((c) => c.vehicleId === vehicle.id)
      expect(custodians).toHaveLength(1)
      expect(companies.has(custodians[0].rentalCompanyId)).toBe(true)
      expect(custodians[0].acquiredOn).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/)
    }
  })

  it('builds a world of 30,000 vehicles with 30,000 different plates', async () => {
    const { vehicles } = (await buildWorld(base, { seed: 2026, vehicles: 30_000 })).data
    expect(vehicles).toHaveLength(30_000)
    expect(new Set(vehicles.map((v) => v.plate)).size).toBe(30_000)
  })

  it('finds a plate in a 30,000-vehicle service by its index', async () => {
    const service = await createRelayService({ vehicles: 30_000 })
    const { store, visit } = service.world
    expect(store.vehicles.all()).toHaveLength(30_000)
    expect(store.vehicles.activeByPlate(visit.plate)).toHaveLength(1)
  })
})
