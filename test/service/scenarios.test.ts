// Every scenario: the visit it seeds exercises what its description says, through both transports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/mock.js'
import { scenarios } from '../../scenarios/index.js'
import { activeVehicle, paymentBody, simpleBody } from '../support/bodies.js'
import { as, transports, type Client } from '../support/transports.js'

/** The scenarios this file covers; the registry must hold no other. */
const COVERED = [
  'default',
  'existing-vehicle',
  'unknown-owner',
  'new-vehicle',
  'multiple-vehicles',
  'inactive-vehicle',
  'simple-failure',
  'simple-failure-ok-status',
]

it('covers every scenario in the registry', () => {
  expect([...scenarios.keys()].sort()).toEqual([...COVERED].sort())
})

describe.each(transports)('scenarios over $name', (transport) => {
  let service: RelayService
  let client: Client
  beforeAll(async () => {
    service = await createRelayService()
    client = await transport.connect(service)
  })
  afterAll(() => client.close())

  async function world(scenario: string) {
    const world = await service.addWorld({ scenario })
    return { world, visit: world.visit, api: as(client, world) }
  }

  describe.each(['default', 'existing-vehicle'])('%s', (name) => {
    it('the owner is a registered company and the plate one of its active vehicles', async () => {
      const { world: w, visit, api } = await world(name)
      const companies = (await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)).body
      expect(companies).toHaveLength(1)
      const vehicles = (await api.get(`/vehicles?plate=${visit.plate}`)).body
      expect(vehicles).toHaveLength(1)
      const custodians = w.store.custodians.byVehicle(vehicles[0].id)
      expect(custodians.map((c) => [c.rentalCompanyId, c.acquiredOn.slice(0, 10)])).toEqual([[companies[0].id, visit.registrationDate]])
    })

    it('the simple payment is recorded for that vehicle', async () => {
      const { world: w, visit, api } = await world(name)
      const vehicleId = w.store.vehicles.activeByPlate(visit.plate)[0].id
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(201)
      expect(w.store.payments.byId(answer.body.id)?.vehicleId).toBe(vehicleId)
    })
  })

  describe('unknown-owner', () => {
    it("answers [] for the visit's kennitala, which is a valid company kennitala", async () => {
      const { visit, api } = await world('unknown-owner')
      const answer = await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual([])
    })

    it('knows the plate, to catch a client that skips the company lookup', async () => {
      const { visit, api } = await world('unknown-owner')
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body).toHaveLength(1)
    })

    it('refuses the simple payment with a message naming the owner and no id', async () => {
      const { world: w, visit, api } = await world('unknown-owner')
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(422)
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toContain(visit.ownerKennitala)
    })
  })

  describe('new-vehicle', () => {
    it('the owner is registered and the plate answers []', async () => {
      const { visit, api } = await world('new-vehicle')
      expect((await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)).body).toHaveLength(1)
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body).toEqual([])
    })

    it('the advanced flow creates the vehicle, its custodian and the payment', async () => {
      const { world: w, visit, api } = await world('new-vehicle')
      const [company] = (await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)).body
      const vehicle = await api.post('/vehicles', { plate: visit.plate, country: 'is' })
      const custodian = await api.post('/custodians', { vehicleId: vehicle.body.id, rentalCompanyId: company.id, acquiredOn: `${visit.registrationDate} 00:00:00` })
      const payment = await api.post('/payments', paymentBody(w, vehicle.body.id))
      expect([vehicle.status, custodian.status, payment.status]).toEqual([201, 201, 201])
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body.map((v: { id: string }) => v.id)).toEqual([vehicle.body.id])
    })
  })

  describe('multiple-vehicles', () => {
    it('answers two active vehicles for the plate and leaves the inactive one out', async () => {
      const { world: w, visit, api } = await world('multiple-vehicles')
      const all = w.store.vehicles.byPlate(visit.plate)
      const inactive = all.filter((v) => !v.active)
      expect(inactive).toHaveLength(1)
      const answer = (await api.get(`/vehicles?plate=${visit.plate}`)).body
      expect(answer).toHaveLength(2)
      expect(answer.map((v: { id: string }) => v.id)).not.toContain(inactive[0].id)
    })

    it('lists them in the same order every time, oldest first', async () => {
      const { world: w, visit, api } = await world('multiple-vehicles')
      const first = (await api.get(`/vehicles?plate=${visit.plate}`)).body
      const again = (await api.get(`/vehicles?plate=${visit.plate}`)).body
      expect(again).toEqual(first)
      const seeded = w.store.vehicles.byPlate(visit.plate).filter((v) => v.active).map((v) => v.id)
      expect(first.map((v: { id: string }) => v.id)).toEqual(seeded)
    })

    it('the first one listed belongs to the owner of the visit; the second to another company', async () => {
      const { world: w, visit, api } = await world('multiple-vehicles')
      const [owner] = (await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)).body
      const listed = (await api.get(`/vehicles?plate=${visit.plate}`)).body
      const holders = listed.map((v: { id: string }) => w.store.custodians.byVehicle(v.id)[0].rentalCompanyId)
      expect(holders[0]).toBe(owner.id)
      expect(holders[1]).not.toBe(owner.id)
    })
  })

  describe('inactive-vehicle', () => {
    it('answers [] for a plate whose only vehicle is inactive', async () => {
      const { world: w, visit, api } = await world('inactive-vehicle')
      expect(w.store.vehicles.byPlate(visit.plate).map((v) => v.active)).toEqual([false])
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body).toEqual([])
    })

    it('the simple payment creates a new active vehicle rather than using the inactive one', async () => {
      const { world: w, visit, api } = await world('inactive-vehicle')
      const [inactive] = w.store.vehicles.byPlate(visit.plate)
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(201)
      const paidFor = w.store.payments.byId(answer.body.id)!.vehicleId
      expect(paidFor).not.toBe(inactive.id)
      expect(w.store.vehicles.activeByPlate(visit.plate).map((v) => v.id)).toEqual([paidFor])
    })
  })

  describe('simple-failure', () => {
    it('refuses the simple payment with 422, a message and no id, recording nothing', async () => {
      const { world: w, api } = await world('simple-failure')
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(422)
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toEqual(expect.stringMatching(/refused/))
      expect(w.store.payments.all()).toEqual([])
    })

    it('still accepts the advanced payment', async () => {
      const { world: w, api } = await world('simple-failure')
      expect((await api.post('/payments', paymentBody(w, activeVehicle(w).id))).status).toBe(201)
    })
  })

  describe('simple-failure-ok-status', () => {
    it('refuses the simple payment with 200, a message and no id, recording nothing', async () => {
      const { world: w, api } = await world('simple-failure-ok-status')
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(200)
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toEqual(expect.stringMatching(/refused/))
      expect(w.store.payments.all()).toEqual([])
    })
  })

  it.each(COVERED)("%s: the visit's fields pass the simple endpoint's validation", async (name) => {
    const { world: w, api } = await world(name)
    const answer = await api.post('/payment', simpleBody(w))
    expect(answer.body.errors).toBeUndefined()
  })
})
