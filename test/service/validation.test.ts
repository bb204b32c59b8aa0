// Every class of bad input, field by field, through both transports: each refusal names the
// field, says what was wrong and what the service expects there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import { activeVehicle, custodianBody, paymentBody, simpleBody, vehicleBody } from '../support/bodies.js'
import { as, transports, type Answer, type Client } from '../support/transports.js'

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000'

/** The kennitala with its 9th digit (the check digit) changed: 10 digits, wrong check. */
function wrongCheckDigit(kennitala: string): string {
  return `${kennitala.slice(0, 8)}${(Number(kennitala[8]) + 1) % 10}${kennitala[9]}`
}

/** Sets (or, with `undefined`, deletes) the value at a dotted path of a copy of `body`. */
function withField(body: object, path: string, value: unknown): object {
  const copy = structuredClone(body) as Record<string, any>
  const keys = path.split('.')
  let at = copy
  for (const key of keys.slice(0, -1)) at = at[key]
  const last = keys[keys.length - 1]
  if (value === undefined) delete at[last]
  else at[last] = value
  return copy
}

interface Case {
  field: string
  /** What to put there; `undefined` removes the field. A function, `(world: World) => unknown`, reads the world. */
  value: unknown
  problem: RegExp
  expected: RegExp
}

const MISSING = /is missing/
const UUID_EXPECTED = /UUID/
const TIMESTAMP_EXPECTED = /YYYY-MM-DD HH:MM:SS/
const AMOUNT_EXPECTED = /positive integer/
const KENNITALA_EXPECTED = /10 digits.*check digit/

const vehicleCases: Case[] = [
  { field: 'plate', value: undefined, problem: MISSING, expected: /licence plate/ },
  { field: 'plate', value: 12345, problem: /is a number, not a string/, expected: /licence plate/ },
  { field: 'plate', value: 'ABCDEFGHIJ', problem: /too long/, expected: /2 to 8/ },
  { field: 'plate', value: 'AB#12', problem: /characters/, expected: /letters and digits/ },
  { field: 'country', value: undefined, problem: MISSING, expected: /lower-case two-letter/ },
  { field: 'country', value: 'IS', problem: /lower-case/, expected: /lower-case two-letter.*"is"/ },
  { field: 'country', value: 'isl', problem: /two-letter/, expected: /lower-case two-letter/ },
  { field: 'colour', value: 'red', problem: /not a field/, expected: /plate, country/ },
]

const custodianCases: Case[] = [
  { field: 'vehicleId', value: undefined, problem: MISSING, expected: UUID_EXPECTED },
  { field: 'vehicleId', value: 'vehicle-1', problem: /not a UUID/, expected: UUID_EXPECTED },
  { field: 'vehicleId', value: NO_SUCH_ID, problem: /names no vehicle/, expected: /POST \/vehicles/ },
  { field: 'rentalCompanyId', value: undefined, problem: MISSING, expected: UUID_EXPECTED },
  { field: 'rentalCompanyId', value: 42, problem: /is a number, not a string/, expected: UUID_EXPECTED },
  {
    field: 'rentalCompanyId',
    value: NO_SUCH_ID,
    problem: /names no rental company/,
    expected: /GET \/rental-companies/,
  },
  { field: 'acquiredOn', value: undefined, problem: MISSING, expected: TIMESTAMP_EXPECTED },
  {
    field: 'acquiredOn',
    value: '2024-02-30 00:00:00',
    problem: /neither/,
    expected: /YYYY-MM-DD HH:MM:SS.*or YYYY-MM-DD/,
  },
  {
    field: 'acquiredOn',
    value: '2024-03-01T00:00:00',
    problem: /neither/,
    expected: /YYYY-MM-DD HH:MM:SS.*or YYYY-MM-DD/,
  },
  {
    field: 'acquiredOn',
    value: '2024-03-01 24:00:00',
    problem: /neither/,
    expected: /YYYY-MM-DD HH:MM:SS.*or YYYY-MM-DD/,
  },
  { field: 'acquiredOn', value: '01.03.2024', problem: /neither/, expected: /YYYY-MM-DD/ },
  { field: 'since', value: '2024-03-01', problem: /not a field/, expected: /vehicleId, rentalCompanyId, acquiredOn/ },
]

const paymentCases: Case[] = [
  { field: 'locationId', value: undefined, problem: MISSING, expected: UUID_EXPECTED },
  { field: 'locationId', value: 'glansi', problem: /not a UUID/, expected: UUID_EXPECTED },
  {
    field: 'locationId',
    value: NO_SUCH_ID,
    problem: /names no location/,
    expected: /location id issued with your token/,
  },
  { field: 'vehicleId', value: undefined, problem: MISSING, expected: UUID_EXPECTED },
  { field: 'vehicleId', value: NO_SUCH_ID, problem: /names no vehicle/, expected: /GET \/vehicles or POST \/vehicles/ },
  { field: 'amount', value: undefined, problem: MISSING, expected: /money object/ },
  { field: 'amount', value: 2490, problem: /is a number, not an object/, expected: /money object/ },
  { field: 'amount.amount', value: undefined, problem: MISSING, expected: AMOUNT_EXPECTED },
  {
    field: 'amount.amount',
    value: '2490',
    problem: /is a string, not a number/,
    expected: /JSON number, not a string/,
  },
  { field: 'amount.amount', value: 24.9, problem: /not an integer/, expected: AMOUNT_EXPECTED },
  { field: 'amount.amount', value: 0, problem: /not positive/, expected: AMOUNT_EXPECTED },
  { field: 'amount.amount', value: -2490, problem: /not positive/, expected: AMOUNT_EXPECTED },
  { field: 'amount.currency', value: 'EUR', problem: /not a supported currency/, expected: /"ISK"/ },
  { field: 'amount.currency', value: 'isk', problem: /not a supported currency/, expected: /"ISK"/ },
  { field: 'amount.tip', value: 100, problem: /not a field/, expected: /amount, currency/ },
  { field: 'startedOn', value: undefined, problem: MISSING, expected: TIMESTAMP_EXPECTED },
  { field: 'startedOn', value: '2026-02-30 09:14:05', problem: /not a real timestamp/, expected: TIMESTAMP_EXPECTED },
  { field: 'startedOn', value: '2026-11-21T09:14:05Z', problem: /not a real timestamp/, expected: TIMESTAMP_EXPECTED },
  { field: 'endedOn', value: '2026-11-21 24:00:00', problem: /not a real timestamp/, expected: TIMESTAMP_EXPECTED },
  {
    field: 'endedOn',
    value: '2026-11-21 09:14:04',
    problem: /before the visit start/,
    expected: /equal to or after the visit start/,
  },
  { field: 'status', value: 'paid', problem: /not a status/, expected: /"new"/ },
  {
    field: 'note',
    value: 'thanks',
    problem: /not a field/,
    expected: /locationId, vehicleId, amount, startedOn, endedOn, status/,
  },
]

const simpleCases: Case[] = [
  { field: 'location', value: undefined, problem: MISSING, expected: UUID_EXPECTED },
  { field: 'location', value: 'glansi', problem: /not a UUID/, expected: UUID_EXPECTED },
  {
    field: 'location',
    value: NO_SUCH_ID,
    problem: /names no location/,
    expected: /location id issued with your token/,
  },
  { field: 'vehicle', value: undefined, problem: MISSING, expected: /.+/ },
  { field: 'vehicle.owner', value: undefined, problem: MISSING, expected: KENNITALA_EXPECTED },
  {
    field: 'vehicle.owner',
    value: (w: World) => wrongCheckDigit(w.visit.ownerKennitala),
    problem: /wrong check digit/,
    expected: KENNITALA_EXPECTED,
  },
  {
    field: 'vehicle.owner',
    value: (w: World) => `${w.visit.ownerKennitala.slice(0, 6)}-${w.visit.ownerKennitala.slice(6)}`,
    problem: /not 10 digits/,
    expected: /no hyphen/,
  },
  { field: 'vehicle.owner', value: 6803488209, problem: /is a number, not a string/, expected: KENNITALA_EXPECTED },
  { field: 'vehicle.plate', value: undefined, problem: MISSING, expected: /licence plate/ },
  { field: 'vehicle.acquiredOn', value: '2024-03-01 00:00:00', problem: /not a real date/, expected: /YYYY-MM-DD/ },
  { field: 'vehicle.acquiredOn', value: '2024-02-30', problem: /not a real date/, expected: /YYYY-MM-DD/ },
  { field: 'vehicle.country', value: 'is', problem: /not a field/, expected: /owner, plate, acquiredOn/ },
  { field: 'visit', value: undefined, problem: MISSING, expected: /.+/ },
  {
    field: 'visit.startedOn',
    value: '2026-13-01 09:14:05',
    problem: /not a real timestamp/,
    expected: TIMESTAMP_EXPECTED,
  },
  {
    field: 'visit.endedOn',
    value: '2026-11-21 09:14:60',
    problem: /not a real timestamp/,
    expected: TIMESTAMP_EXPECTED,
  },
  {
    field: 'visit.endedOn',
    value: '2026-11-20 23:59:59',
    problem: /before the visit start/,
    expected: /equal to or after the visit start/,
  },
  { field: 'payment', value: undefined, problem: MISSING, expected: /.+/ },
  { field: 'payment.amount', value: '2490', problem: /is a string, not a number/, expected: AMOUNT_EXPECTED },
  { field: 'payment.amount', value: 2490.5, problem: /not an integer/, expected: AMOUNT_EXPECTED },
  { field: 'payment.amount', value: 0, problem: /not positive/, expected: AMOUNT_EXPECTED },
  { field: 'payment.amount', value: -1, problem: /not positive/, expected: AMOUNT_EXPECTED },
  { field: 'payment.currency', value: 'EUR', problem: /not a supported currency/, expected: /"ISK"/ },
  { field: 'status', value: 'new', problem: /not a field/, expected: /location, vehicle, visit, payment/ },
]

function expectFieldError(answer: Answer, c: Case) {
  expect(answer.status).toBe(422)
  expect(answer.body.message).toContain(c.field)
  const error = answer.body.errors?.find((e: { field: string }) => e.field === c.field)
  expect(error, `an error for ${c.field} in ${JSON.stringify(answer.body.errors)}`).toBeDefined()
  expect(error.problem).toMatch(c.problem)
  expect(error.expected).toMatch(c.expected)
}

const label = (c: Case) =>
  c.value === undefined ? 'missing' : typeof c.value === 'function' ? 'derived' : JSON.stringify(c.value)

describe.each(transports)('bad input over $name', (transport) => {
  let service: RelayService
  let client: Client
  let world: World
  beforeAll(async () => {
    service = await createRelayService()
    client = await transport.connect(service)
    world = service.world
  })
  afterAll(() => client.close())
  const value = (c: Case) => (typeof c.value === 'function' ? (c.value as (w: World) => unknown)(world) : c.value)

  it.each(vehicleCases.map((c) => [c.field, label(c), c] as const))('POST /vehicles: %s %s', async (_f, _l, c) => {
    expectFieldError(await as(client, world).post('/vehicles', withField(vehicleBody(), c.field, value(c))), c)
  })

  it.each(custodianCases.map((c) => [c.field, label(c), c] as const))('POST /custodians: %s %s', async (_f, _l, c) => {
    const body = custodianBody(world, activeVehicle(world).id)
    expectFieldError(await as(client, world).post('/custodians', withField(body, c.field, value(c))), c)
  })

  it.each(paymentCases.map((c) => [c.field, label(c), c] as const))('POST /payments: %s %s', async (_f, _l, c) => {
    const body = paymentBody(world, activeVehicle(world).id)
    expectFieldError(await as(client, world).post('/payments', withField(body, c.field, value(c))), c)
  })

  it.each(simpleCases.map((c) => [c.field, label(c), c] as const))(
    'POST /payment: %s %s, refused with a message and no id',
    async (_f, _l, c) => {
      const answer = await as(client, world).post('/payment', withField(simpleBody(world), c.field, value(c)))
      expectFieldError(answer, c)
      expect(answer.body).not.toHaveProperty('id')
      expect(answer.body.status).toBe('refused')
    },
  )

  it('records nothing for a refused body', async () => {
    const before = world.store.payments.all().length
    await as(client, world).post('/payments', paymentBody(world, activeVehicle(world).id, { startedOn: 'soon' }))
    await as(client, world).post('/payment', simpleBody(world, { payment: { amount: 0 } }))
    expect(world.store.payments.all()).toHaveLength(before)
  })

  it('names every bad field of one body, not only the first', async () => {
    const body = paymentBody(world, activeVehicle(world).id, {
      amount: { amount: '10', currency: 'EUR' },
      startedOn: 'soon',
    })
    const answer = await as(client, world).post('/payments', body)
    expect(answer.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'amount.amount',
      'amount.currency',
      'startedOn',
    ])
  })

  it.each([
    ['YYYY-MM-DD HH:MM:SS', '2024-03-01 00:00:00'],
    ['YYYY-MM-DD', '2024-03-01'],
  ])('POST /custodians accepts acquiredOn as %s', async (_form, acquiredOn) => {
    const answer = await as(client, world).post(
      '/custodians',
      custodianBody(world, activeVehicle(world).id, { acquiredOn }),
    )
    expect(answer.status).toBe(201)
  })

  it('says only "wrong type" of a field of the wrong type, not also its length', async () => {
    const answer = await as(client, world).post('/vehicles', vehicleBody({ plate: ['AB123'] }))
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ field: 'plate', problem: 'is an array, not a string' }),
    ])
  })

  it('a body that is an array is refused as a whole', async () => {
    const answer = await as(client, world).post('/vehicles', [vehicleBody()])
    expect(answer.status).toBe(422)
    expect(answer.body.errors[0]).toMatchObject({ field: '(body)', problem: 'is an array, not an object' })
  })

  describe('queries', () => {
    const queryCases: Array<[string, string, string, RegExp]> = [
      ['/rental-companies', 'query.kennitala', MISSING.source, KENNITALA_EXPECTED],
      ['/rental-companies?kennitala=680348820', 'query.kennitala', 'not 10 digits', KENNITALA_EXPECTED],
      ['/rental-companies?kennitala=680348-8209', 'query.kennitala', 'not 10 digits', /no hyphen/],
      ['/vehicles', 'query.plate', MISSING.source, /licence plate/],
      ['/vehicles?plate=ABCDEFGHIJK', 'query.plate', 'too long', /licence plate/],
    ]
    it.each(queryCases)('GET %s is refused naming %s', async (path, field, problem, expected) => {
      const answer = await as(client, world).get(path)
      expect(answer.status).toBe(422)
      const error = answer.body.errors.find((e: { field: string }) => e.field === field)
      expect(error.problem).toMatch(new RegExp(problem))
      expect(error.expected).toMatch(expected)
    })

    it('GET /rental-companies refuses a kennitala with a wrong check digit', async () => {
      const answer = await as(client, world).get(
        `/rental-companies?kennitala=${wrongCheckDigit(world.visit.ownerKennitala)}`,
      )
      expect(answer.status).toBe(422)
      expect(answer.body.errors[0]).toMatchObject({
        field: 'query.kennitala',
        problem: 'has a wrong check digit (9th digit)',
      })
    })
  })
})
