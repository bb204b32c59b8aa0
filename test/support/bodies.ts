// Valid request bodies for a world, built from its scenario's visit: tests change one field at a time.
import type { World } from '../../src/core/service/world.js'

/** A plate no seeded world has (seeded plates are two or three letters and digits, five long). */
export const FRESH_PLATE = 'QQ9Q9'

export function vehicleBody(overrides: Record<string, unknown> = {}) {
  return { plate: FRESH_PLATE, country: 'is', ...overrides }
}

export function custodianBody(world: World, vehicleId: string, overrides: Record<string, unknown> = {}) {
  return {
    vehicleId,
    rentalCompanyId: firstCompany(world).id,
    acquiredOn: `${world.visit.registrationDate} 00:00:00`,
    ...overrides,
  }
}

export function paymentBody(world: World, vehicleId: string, overrides: Record<string, unknown> = {}) {
  const { visit } = world
  return {
    locationId: world.location.id,
    vehicleId,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
    status: 'new',
    ...overrides,
  }
}

/** The simple body of the world's visit; each part can be overridden shallowly. */
export function simpleBody(
  world: World,
  overrides: {
    location?: unknown
    vehicle?: Record<string, unknown>
    visit?: Record<string, unknown>
    payment?: Record<string, unknown>
  } = {},
) {
  const { visit } = world
  return {
    location: overrides.location ?? world.location.id,
    vehicle: {
      owner: visit.ownerKennitala,
      plate: visit.plate,
      acquiredOn: visit.registrationDate,
      ...overrides.vehicle,
    },
    visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd, ...overrides.visit },
    payment: { amount: visit.amount, currency: visit.currency, ...overrides.payment },
  }
}

export function firstCompany(world: World) {
  return world.store.rentalCompanies.all()[0]
}

/** An active vehicle of the world that is not the visit's (for tests that need a second one). */
export function activeVehicle(world: World) {
  return world.store.vehicles.all().find((v) => v.active)!
}
