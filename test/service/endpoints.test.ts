// Every endpoint's happy path and the statefulness between them, through both transports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import {
  activeVehicle,
  custodianBody,
  firstCompany,
  FRESH_PLATE,
  paymentBody,
  simpleBody,
  vehicleBody,
} from '../support/bodies.js'
import { as, transports, UUID, type Client } from '../support/transports.js'

describe.each(transports)('endpoints over $name', (transport) => {
  let service: RelayService
  let client: Client
  beforeAll(async () => {
    service = await createRelayService()
    client = await transport.connect(service)
  })
  afterAll(() => client.close())

  /** A fresh world (its own token) per test, so no test sees another's records. */
  async function fresh(scenario?: string) {
    const world = await service.addWorld({ scenario })
    return { world, api: as(client, world) }
  }

  describe('GET /rental-companies', () => {
    it('answers 200 with the company of the kennitala, with exactly id, name and kennitala', async () => {
      const { world, api } = await fresh()
      const company = world.store.rentalCompanies.byKennitala(world.visit.ownerKennitala)[0]
      const answer = await api.get(`/rental-companies?kennitala=${world.visit.ownerKennitala}`)
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toMatch(/^application\/json/)
      expect(answer.body).toEqual([{ id: company.id, name: company.name, kennitala: world.visit.ownerKennitala }])
      expect(Object.keys(answer.body[0]).sort()).toEqual(['id', 'kennitala', 'name'])
      expect(answer.body[0].id).toMatch(UUID)
    })

    it('answers 200 with an empty array for a kennitala not in the service', async () => {
      const { world, api } = await fresh()
      const answer = await api.get(`/rental-companies?kennitala=${world.hints.unknownKennitala}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual([])
    })
  })

  describe('GET /vehicles', () => {
    it('answers 200 with the active vehicle of the plate, with exactly id, plate and country', async () => {
      const { world, api } = await fresh()
      const vehicle = world.store.vehicles.activeByPlate(world.visit.plate)[0]
      const answer = await api.get(`/vehicles?plate=${world.visit.plate}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual([{ id: vehicle.id, plate: world.visit.plate, country: 'is' }])
      expect(Object.keys(answer.body[0]).sort()).toEqual(['country', 'id', 'plate'])
      expect(answer.body[0].id).toMatch(UUID)
    })

    it('answers 200 with an empty array for a plate it does not know', async () => {
      const { world, api } = await fresh()
      const answer = await api.get(`/vehicles?plate=${world.hints.unknownPlate}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual([])
    })

    it('finds a plate written in lower case with a hyphen', async () => {
      const { world, api } = await fresh()
      const written = `${world.visit.plate.slice(0, 2)}-${world.visit.plate.slice(2)}`.toLowerCase()
      const answer = await api.get(`/vehicles?plate=${written}`)
      expect(answer.body.map((v: { plate: string }) => v.plate)).toEqual([world.visit.plate])
    })
  })

  describe('POST /vehicles', () => {
    it('answers 201 with exactly id and link /vehicles/<id>, and the link as Location', async () => {
      const { api } = await fresh()
      const answer = await api.post('/vehicles', vehicleBody())
      expect(answer.status).toBe(201)
      expect(Object.keys(answer.body).sort()).toEqual(['id', 'link'])
      expect(answer.body.id).toMatch(UUID)
      expect(answer.body.link).toBe(`/vehicles/${answer.body.id}`)
      expect(answer.headers.location).toBe(answer.body.link)
    })

    it('makes the vehicle the next GET /vehicles finds', async () => {
      const { api } = await fresh()
      const created = await api.post('/vehicles', vehicleBody())
      const found = await api.get(`/vehicles?plate=${FRESH_PLATE}`)
      expect(found.body).toEqual([{ id: created.body.id, plate: FRESH_PLATE, country: 'is' }])
    })
  })

  describe('POST /custodians', () => {
    it('answers 201 with exactly id and link /custodians/<id>, and the link as Location', async () => {
      const { world, api } = await fresh()
      const vehicle = await api.post('/vehicles', vehicleBody())
      const answer = await api.post('/custodians', custodianBody(world, vehicle.body.id))
      expect(answer.status).toBe(201)
      expect(Object.keys(answer.body).sort()).toEqual(['id', 'link'])
      expect(answer.body.id).toMatch(UUID)
      expect(answer.body.link).toBe(`/custodians/${answer.body.id}`)
      expect(answer.headers.location).toBe(answer.body.link)
    })

    it('links the vehicle to the rental company from the date given', async () => {
      const { world, api } = await fresh()
      const vehicle = await api.post('/vehicles', vehicleBody())
      const custodian = await api.post(
        '/custodians',
        custodianBody(world, vehicle.body.id, { acquiredOn: '2024-03-01 00:00:00' }),
      )
      const fetched = await api.get(custodian.body.link)
      expect(fetched.status).toBe(200)
      expect(fetched.body).toEqual({
        id: custodian.body.id,
        vehicleId: vehicle.body.id,
        rentalCompanyId: firstCompany(world).id,
        acquiredOn: '2024-03-01 00:00:00',
      })
    })
  })

  describe('POST /payments', () => {
    it('answers 201 with exactly id and link /payments/<id>, and the link as Location', async () => {
      const { world, api } = await fresh()
      const answer = await api.post('/payments', paymentBody(world, activeVehicle(world).id))
      expect(answer.status).toBe(201)
      expect(Object.keys(answer.body).sort()).toEqual(['id', 'link'])
      expect(answer.body.id).toMatch(UUID)
      expect(answer.body.link).toBe(`/payments/${answer.body.id}`)
      expect(answer.headers.location).toBe(answer.body.link)
    })

    it('records the payment with status new even when the body leaves status out', async () => {
      const { world, api } = await fresh()
      const { status: _status, ...body } = paymentBody(world, activeVehicle(world).id)
      const created = await api.post('/payments', body)
      const fetched = await api.get(created.body.link)
      expect(fetched.status).toBe(200)
      expect(fetched.body).toEqual({ id: created.body.id, ...body, status: 'new' })
    })

    it('accepts a visit that ends when it starts', async () => {
      const { world, api } = await fresh()
      const body = paymentBody(world, activeVehicle(world).id, { endedOn: world.visit.visitStart })
      expect((await api.post('/payments', body)).status).toBe(201)
    })
  })

  describe('POST /payment (simple)', () => {
    it('answers 201 with exactly id, status new and message, and the payment as Location', async () => {
      const { world, api } = await fresh()
      const answer = await api.post('/payment', simpleBody(world))
      expect(answer.status).toBe(201)
      expect(Object.keys(answer.body).sort()).toEqual(['id', 'message', 'status'])
      expect(answer.body.id).toMatch(UUID)
      expect(answer.body.status).toBe('new')
      expect(answer.body.message).toEqual(expect.any(String))
      expect(answer.headers.location).toBe(`/payments/${answer.body.id}`)
    })

    it('creates the vehicle, its custodian and the payment for a plate it does not know', async () => {
      const { world, api } = await fresh()
      const answer = await api.post(
        '/payment',
        simpleBody(world, { vehicle: { plate: FRESH_PLATE, acquiredOn: '2025-05-14' } }),
      )
      const vehicles = (await api.get(`/vehicles?plate=${FRESH_PLATE}`)).body
      expect(vehicles).toHaveLength(1)
      const payment = (await api.get(`/payments/${answer.body.id}`)).body
      expect(payment).toMatchObject({
        vehicleId: vehicles[0].id,
        locationId: world.location.id,
        status: 'new',
        amount: { amount: world.visit.amount, currency: 'ISK' },
      })
      const company = world.store.rentalCompanies.byKennitala(world.visit.ownerKennitala)[0]
      expect(world.store.custodians.byVehicle(vehicles[0].id)).toEqual([
        expect.objectContaining({ rentalCompanyId: company.id, acquiredOn: '2025-05-14 00:00:00' }),
      ])
    })

    it('pays for the first active vehicle of a plate it knows, creating none', async () => {
      const { world, api } = await fresh('multiple-vehicles')
      const before = world.store.vehicles.all().length
      const listed = (await api.get(`/vehicles?plate=${world.visit.plate}`)).body
      const answer = await api.post('/payment', simpleBody(world))
      expect(answer.status).toBe(201)
      expect((await api.get(`/payments/${answer.body.id}`)).body.vehicleId).toBe(listed[0].id)
      expect(world.store.vehicles.all()).toHaveLength(before)
    })

    it('refuses an owner not in the service with a message, no id and nothing recorded', async () => {
      const { world, api } = await fresh()
      const answer = await api.post('/payment', simpleBody(world, { vehicle: { owner: world.hints.unknownKennitala } }))
      expect(answer.status).toBe(422)
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.message).toContain(world.hints.unknownKennitala)
      expect(world.store.payments.all()).toEqual([])
    })
  })

  describe('the links', () => {
    it('GET /rental-companies/<id> answers the company', async () => {
      const { world, api } = await fresh()
      const company = firstCompany(world)
      const answer = await api.get(`/rental-companies/${company.id}`)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ id: company.id, name: company.name, kennitala: company.kennitala })
    })

    it('GET /vehicles/<id> answers the vehicle with exactly id, plate and country', async () => {
      const { api } = await fresh()
      const created = await api.post('/vehicles', vehicleBody())
      const answer = await api.get(created.body.link)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ id: created.body.id, plate: FRESH_PLATE, country: 'is' })
    })

    it.each(['rental-companies', 'vehicles', 'custodians', 'payments'])(
      'GET /%s/<id> answers 404 naming an id it does not know',
      async (resource) => {
        const { api } = await fresh()
        const id = '00000000-0000-4000-8000-000000000000'
        const answer = await api.get(`/${resource}/${id}`)
        expect(answer.status).toBe(404)
        expect(answer.body.message).toContain(id)
      },
    )

    it('does not answer a payment of one kind of record at another kind of link', async () => {
      const { world, api } = await fresh()
      const payment = await api.post('/payments', paymentBody(world, activeVehicle(world).id))
      expect((await api.get(`/vehicles/${payment.body.id}`)).status).toBe(404)
    })
  })
})
