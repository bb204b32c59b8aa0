// Every scenario: the visit it seeds exercises what its description says, through both transports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import { scenarios } from '../../scenarios/index.js'
import { defineScenario } from '../../src/core/service/scenario.js'
import { RETRY_AFTER_SECONDS } from '../../src/core/service/faults.js'
import { activeVehicle, custodianBody, paymentBody, simpleBody } from '../support/bodies.js'
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
  'payment-unavailable',
  'custodian-unavailable',
  'simple-unavailable',
]

it('covers every scenario in the registry', () => {
  expect([...scenarios.keys()].sort()).toEqual([...COVERED].sort())
})

it('refuses to define a scenario with a fault of no known kind, or on a request no fault can break', () => {
  const seed = scenarios.get('default')!.seed
  const define = (fault: object) => () =>
    defineScenario({ name: 'broken', description: '', seed, faults: [fault as never] })
  expect(define({ route: 'POST /payments', kind: 'explode', mode: 'once' })).toThrow(
    /Failed to define the scenario broken: "explode" is not a fault: expected one of unavailable, /,
  )
  expect(define({ route: 'GET /payments', kind: 'reset', mode: 'once' })).toThrow(
    /Failed to define the scenario broken: "GET \/payments" is not a request a fault can break: expected one of GET \/rental-companies, /,
  )
  expect(define({ route: 'POST /payments', kind: 'reset', mode: 'twice' })).toThrow(
    /"twice" is not a fault mode: expected once or always/,
  )
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
      expect(custodians.map((c) => [c.rentalCompanyId, c.acquiredOn.slice(0, 10)])).toEqual([
        [companies[0].id, visit.registrationDate],
      ])
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
      const custodian = await api.post('/custodians', {
        vehicleId: vehicle.body.id,
        rentalCompanyId: company.id,
        acquiredOn: `${visit.registrationDate} 00:00:00`,
      })
      const payment = await api.post('/payments', paymentBody(w, vehicle.body.id))
      expect([vehicle.status, custodian.status, payment.status]).toEqual([201, 201, 201])
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body.map((v: { id: string }) => v.id)).toEqual([
        vehicle.body.id,
      ])
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
      const seeded = w.store.vehicles
        .byPlate(visit.plate)
        .filter((v) => v.active)
        .map((v) => v.id)
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

  describe('payment-unavailable', () => {
    it('answers the first POST /payments 503 with Retry-After and a message naming the scenario, recording nothing', async () => {
      const { world: w, visit, api } = await world('payment-unavailable')
      const vehicleId = w.store.vehicles.activeByPlate(visit.plate)[0].id
      const answer = await api.post('/payments', paymentBody(w, vehicleId))
      expect(answer.status).toBe(503)
      expect(answer.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toContain(
        'fault POST /payments=unavailable:once, armed by the scenario payment-unavailable',
      )
      expect(w.store.payments.all()).toEqual([])
    })

    it('records the next POST /payments', async () => {
      const { world: w, visit, api } = await world('payment-unavailable')
      const vehicleId = w.store.vehicles.activeByPlate(visit.plate)[0].id
      await api.post('/payments', paymentBody(w, vehicleId))
      const again = await api.post('/payments', paymentBody(w, vehicleId))
      expect(again.status).toBe(201)
      expect(w.store.payments.all().map((p) => p.id)).toEqual([again.body.id])
    })

    it('answers lookups as the existing-vehicle world does', async () => {
      const { visit, api } = await world('payment-unavailable')
      expect((await api.get(`/rental-companies?kennitala=${visit.ownerKennitala}`)).body).toHaveLength(1)
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body).toHaveLength(1)
    })

    it('spends no fault on a request refused by validation (the fault comes after it)', async () => {
      const { world: w, visit, api } = await world('payment-unavailable')
      const vehicleId = w.store.vehicles.activeByPlate(visit.plate)[0].id
      expect(
        (await api.post('/payments', paymentBody(w, vehicleId, { amount: { amount: '2490', currency: 'ISK' } })))
          .status,
      ).toBe(422)
      expect((await api.post('/payments', paymentBody(w, vehicleId))).status).toBe(503)
    })

    it('spends no fault on a request without a token (the fault comes after auth)', async () => {
      const { world: w, visit, api } = await world('payment-unavailable')
      const vehicleId = w.store.vehicles.activeByPlate(visit.plate)[0].id
      const anonymous = await client.request('POST', '/payments', {
        headers: { 'content-type': 'application/json' },
        body: paymentBody(w, vehicleId),
      })
      expect(anonymous.status).toBe(401)
      expect((await api.post('/payments', paymentBody(w, vehicleId))).status).toBe(503)
    })

    it('keeps the count per world: a second world of the scenario gets its own fault', async () => {
      const first = await world('payment-unavailable')
      const second = await world('payment-unavailable')
      const body = (w: typeof first.world) => paymentBody(w, w.store.vehicles.activeByPlate(w.visit.plate)[0].id)
      expect((await first.api.post('/payments', body(first.world))).status).toBe(503)
      expect((await second.api.post('/payments', body(second.world))).status).toBe(503)
      expect((await first.api.post('/payments', body(first.world))).status).toBe(201)
    })

    it('re-arms the fault when the world is reset', async () => {
      const { world: w, api } = await world('payment-unavailable')
      const body = () => paymentBody(w, w.store.vehicles.activeByPlate(w.visit.plate)[0].id)
      await api.post('/payments', body())
      expect((await api.post('/payments', body())).status).toBe(201)
      await service.resetWorld(w)
      expect((await api.post('/payments', body())).status).toBe(503)
    })
  })

  describe('custodian-unavailable', () => {
    it('the plate answers []; the vehicle is created, and the first POST /custodians answers 503, recording nothing', async () => {
      const { world: w, visit, api } = await world('custodian-unavailable')
      expect((await api.get(`/vehicles?plate=${visit.plate}`)).body).toEqual([])
      const vehicle = await api.post('/vehicles', { plate: visit.plate, country: 'is' })
      expect(vehicle.status).toBe(201)
      const custodian = await api.post('/custodians', custodianBody(w, vehicle.body.id))
      expect(custodian.status).toBe(503)
      expect(custodian.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
      expect(custodian.body.message).toContain(
        'fault POST /custodians=unavailable:once, armed by the scenario custodian-unavailable',
      )
      expect(w.store.custodians.byVehicle(vehicle.body.id)).toEqual([])
    })

    it('links the vehicle on the next POST /custodians, and then takes the payment', async () => {
      const { world: w, visit, api } = await world('custodian-unavailable')
      const vehicle = await api.post('/vehicles', { plate: visit.plate, country: 'is' })
      await api.post('/custodians', custodianBody(w, vehicle.body.id))
      expect((await api.post('/custodians', custodianBody(w, vehicle.body.id))).status).toBe(201)
      expect(w.store.custodians.byVehicle(vehicle.body.id)).toHaveLength(1)
      expect((await api.post('/payments', paymentBody(w, vehicle.body.id))).status).toBe(201)
    })
  })

  describe('simple-unavailable', () => {
    it('answers the first POST /payment 503 with a message and no id, recording nothing', async () => {
      const { world: w, api } = await world('simple-unavailable')
      const answer = await api.post('/payment', simpleBody(w))
      expect(answer.status).toBe(503)
      expect(answer.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toContain(
        'fault POST /payment=unavailable:once, armed by the scenario simple-unavailable',
      )
      // The simple endpoint's own answer shape, as for every refusal there.
      expect(answer.body.status).toBe('refused')
      expect(answer.headers['content-type']).toMatch(/^application\/json/)
      expect(w.store.payments.all()).toEqual([])
    })

    it('records the next POST /payment', async () => {
      const { world: w, api } = await world('simple-unavailable')
      await api.post('/payment', simpleBody(w))
      const again = await api.post('/payment', simpleBody(w))
      expect(again.status).toBe(201)
      expect(w.store.payments.all().map((p) => p.id)).toEqual([again.body.id])
    })

    it('leaves the advanced POST /payments alone', async () => {
      const { world: w, api } = await world('simple-unavailable')
      expect(
        (await api.post('/payments', paymentBody(w, w.store.vehicles.activeByPlate(w.visit.plate)[0].id))).status,
      ).toBe(201)
    })
  })

  it.each(COVERED)("%s: the visit's fields pass the simple endpoint's validation", async (name) => {
    const { world: w, api } = await world(name)
    const answer = await api.post('/payment', simpleBody(w))
    expect(answer.body.errors).toBeUndefined()
  })
})
