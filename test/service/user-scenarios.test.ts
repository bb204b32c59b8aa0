// Scenarios of the user's own: a Scenario object given to the service, a scenario declared as JSON,
// and the files they come in (JSON, JS, TS), with the errors a bad file gets.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayMock } from '../../src/index.js'
import { createRelayService, RelayMockError } from '../../src/core/service/mock.js'
import { defineScenario, type Scenario } from '../../src/core/service/scenario.js'
import { toScenario, type ScenarioFile } from '../../src/core/service/scenario-file.js'
import { buildWorld, ownedVehicleVisit } from '../../src/core/service/seed.js'
import { scenarios } from '../../scenarios/index.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { toRelayEnv } from '../../src/node/runner/contract.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { loadScenario, resolveScenario } from '../../src/node/files/user-files.js'

const JSON_EXAMPLE = 'examples/worlds/glansi-fleet.json'
const TS_EXAMPLE = 'examples/worlds/new-van.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-scenarios-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Writes a file into the test's folder; returns its path. */
async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** The message a load fails with (and that it is one line, a RelayMockError). */
async function loadError(path: string): Promise<string> {
  const error = await loadScenario(path).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RelayMockError)
  const { message } = error as RelayMockError
  expect(message).not.toContain('\n')
  return message
}

const ownVisit = (name: string): Scenario =>
  defineScenario({
    name,
    description: 'The default visit, under a name of its own',
    seed: scenarios.get('default')!.seed,
  })

const minimal: ScenarioFile = {
  name: 'minimal',
  description: 'One company, one vehicle',
  companies: [{ name: 'Glansi Bílaleiga ehf.', kennitala: '5301005290' }],
  vehicles: [{ plate: 'GL123', company: '5301005290', acquiredOn: '2024-03-01' }],
  visit: { plate: 'GL123', ownerKennitala: '5301005290' },
}

describe('a Scenario object given to the service', () => {
  it('seeds the worlds made at start, and joins the scenarios known by name', async () => {
    const mine = ownVisit('mine')
    const service = await createRelayService({ scenario: mine })
    expect(service.world.scenario).toBe(mine)
    expect(service.scenarios.get('mine')).toBe(mine)
    expect(service.scenarios.get('default')).toBe(scenarios.get('default'))
    // Another world can then name it.
    expect((await service.addWorld({ scenario: 'mine' })).scenario).toBe(mine)
  })

  it('keeps it to that service: the built-in registry and other services do not learn it', async () => {
    await createRelayService({ scenario: ownVisit('only-here') })
    expect(scenarios.has('only-here')).toBe(false)
    await expect((await createRelayService()).addWorld({ scenario: 'only-here' })).rejects.toThrow(
      /Failed to find the scenario "only-here"/,
    )
  })

  it('is listed by the admin API and can be switched to by name there, after resetWorld was given it', async () => {
    const mock = await createRelayMock({ scenarios: [ownVisit('listed')] })
    const token = mock.world.token
    const listed = await mock.handle({
      method: 'GET',
      url: '/__relay/scenarios',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(JSON.parse(listed.text).map((s: { name: string }) => s.name)).toContain('listed')
    const switched = await mock.handle({
      method: 'PUT',
      url: '/__relay/scenario',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"name":"listed"}',
    })
    expect(switched.status).toBe(200)
    expect(mock.world.scenario.name).toBe('listed')

    const other = ownVisit('by-reset')
    await mock.resetWorld(mock.world, other)
    expect(mock.world.scenario).toBe(other)
    expect(mock.scenarios.get('by-reset')).toBe(other)
  })

  it('refuses a scenario under a name another scenario has', async () => {
    await expect(createRelayService({ scenario: ownVisit('default') })).rejects.toThrow(
      'Failed to add the scenario "default": a built-in scenario has that name. Please give your scenario a name of its own.',
    )
    const service = await createRelayService({ scenarios: [ownVisit('twice')] })
    await expect(service.addWorld({ scenario: ownVisit('twice') })).rejects.toThrow(
      /another scenario given to this service has that name/,
    )
  })

  it('turns a seed that throws into a set-up error naming the scenario', async () => {
    const broken = defineScenario({
      name: 'broken-seed',
      description: 'Its seed fails',
      seed() {
        throw new Error('no company to hold the van')
      },
    })
    const error = await createRelayService({ scenario: broken }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'SCENARIO_SEED_FAILED',
      message: 'Failed to seed the scenario "broken-seed": no company to hold the van. Please fix its seed.',
    })
  })

  it('turns a seed record its schema refuses into a set-up error naming the record and the field', async () => {
    const broken = defineScenario({
      name: 'bad-country',
      description: 'Its seed adds a vehicle with a country code no vehicle can have',
      seed(context) {
        context.data.vehicles.push({
          id: '00000000-0000-4000-8000-00000000000b',
          plate: 'GL456',
          country: 'Iceland',
          active: true,
        })
        return ownedVehicleVisit(context)
      },
    })
    const error = await createRelayService({ scenario: broken }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'SCENARIO_SEED_FAILED',
      message:
        'Failed to seed the scenario "bad-country": the seed\'s vehicles record "00000000-0000-4000-8000-00000000000b" country is not a lower-case two-letter country code. Please fix its seed.',
    })
  })
})

describe('a scenario declared as JSON', () => {
  it("adds the file's companies, vehicles and custodians to the base world, and returns its visit", async () => {
    const { data, visit } = await buildWorld(
      toScenario({
        ...minimal,
        vehicles: [
          ...minimal.vehicles!,
          { plate: 'GL456', company: '5301005290', acquiredOn: '2019-06-15', active: false },
        ],
      }),
    )
    const company = data.rentalCompanies[0]
    expect(company).toMatchObject({ name: 'Glansi Bílaleiga ehf.', kennitala: '5301005290' })
    const van = data.vehicles.find((v) => v.plate === 'GL123')!
    expect(van).toMatchObject({ country: 'is', active: true })
    expect(data.vehicles.find((v) => v.plate === 'GL456')).toMatchObject({ active: false })
    expect(data.custodians.filter((c) => c.vehicleId === van.id)).toEqual([
      expect.objectContaining({ rentalCompanyId: company.id, acquiredOn: '2024-03-01 00:00:00' }),
    ])
    // The base world is still there.
    expect(data.rentalCompanies.length).toBeGreaterThan(1)
    // The registration date comes from the owner's vehicle; the rest from the defaults.
    expect(visit).toEqual({
      plate: 'GL123',
      ownerKennitala: '5301005290',
      registrationDate: '2024-03-01',
      visitStart: '2026-11-21 09:14:05',
      visitEnd: '2026-11-21 09:31:47',
      amount: 2490,
      currency: 'ISK',
    })
  })

  it('is seeded the same way every time', async () => {
    expect((await buildWorld(toScenario(minimal))).data).toEqual((await buildWorld(toScenario(minimal))).data)
  })

  it('replaces a generated vehicle that has one of its plates', async () => {
    const taken = (await buildWorld(scenarios.get('default')!)).data.vehicles[0].plate
    const { data } = await buildWorld(
      toScenario({
        ...minimal,
        vehicles: [{ plate: taken, company: '5301005290', acquiredOn: '2024-03-01' }],
        visit: { plate: taken, ownerKennitala: '5301005290' },
      }),
    )
    const holders = data.vehicles.filter((v) => v.plate === taken)
    expect(holders).toHaveLength(1)
    expect(data.custodians.filter((c) => c.vehicleId === holders[0].id)).toEqual([
      expect.objectContaining({ rentalCompanyId: data.rentalCompanies[0].id }),
    ])
    // No custodian is left pointing at the vehicle that went.
    const ids = new Set(data.vehicles.map((v) => v.id))
    expect(data.custodians.every((c) => ids.has(c.vehicleId))).toBe(true)
  })

  it('takes its simple-payment behaviour and its faults', () => {
    const scenario = toScenario({
      ...minimal,
      simplePayment: 'refuse-ok-status',
      faults: [
        { route: 'payment-create', kind: 'unavailable', mode: 'once' },
        { route: 'POST /vehicles', kind: 'hang' },
      ],
    })
    expect(scenario).toMatchObject({
      simplePayment: 'refuse-ok-status',
      faults: [
        { route: 'POST /payments', kind: 'unavailable', mode: 'once' },
        { route: 'POST /vehicles', kind: 'hang', mode: 'always' },
      ],
    })
  })
})

describe('scenario files', () => {
  it('reads the JSON example', async () => {
    const scenario = await loadScenario(JSON_EXAMPLE)
    expect(scenario).toMatchObject({ name: 'glansi-fleet', simplePayment: 'accept' })
    const { visit } = await buildWorld(scenario)
    expect(visit).toMatchObject({
      plate: 'GL123',
      ownerKennitala: '5301005290',
      registrationDate: '2024-03-01',
      visitStart: '2026-12-01 08:00:00',
      amount: 3990,
    })
  })

  it('reads the TypeScript example, which default-exports defineScenario', async () => {
    const scenario = await loadScenario(TS_EXAMPLE)
    expect(scenario).toMatchObject({ name: 'new-van', simplePayment: 'refuse' })
    const { data, visit } = await buildWorld(scenario)
    expect(visit.ownerKennitala).toBe(data.rentalCompanies[0].kennitala)
    expect(data.vehicles.some((v) => v.plate === visit.plate)).toBe(false)
  })

  it('reads a JavaScript module, and gives a plain exported object what defineScenario gives', async () => {
    const path = await file(
      'plain.mjs',
      "export default { name: 'plain-js', description: 'A plain object', seed: ({ data, visitDefaults }) => ({ plate: 'PL123', ownerKennitala: data.rentalCompanies[0].kennitala, registrationDate: '2024-01-01', ...visitDefaults }) }",
    )
    expect(await loadScenario(path)).toMatchObject({ name: 'plain-js', simplePayment: 'accept' })
  })

  it('reads a file once: a second load gives the same scenario', async () => {
    expect(await loadScenario(JSON_EXAMPLE)).toBe(await loadScenario(join(process.cwd(), JSON_EXAMPLE)))
  })

  it('takes a built-in name as a name and anything with a slash or an extension as a path', async () => {
    expect(await resolveScenario('new-vehicle')).toBe('new-vehicle')
    expect(await resolveScenario('no-such-world')).toBe('no-such-world')
    expect(await resolveScenario(`./${JSON_EXAMPLE}`)).toMatchObject({ name: 'glansi-fleet' })
    await expect(resolveScenario('missing.json')).rejects.toThrow(
      /Failed to load the scenario missing\.json: there is no such file/,
    )
  })

  describe('a bad JSON file: one error naming each field, what was expected and what was found', () => {
    const cases: Array<{ what: string; change: (f: ScenarioFile) => unknown; says: string[] }> = [
      {
        what: 'a date in the wrong form',
        change: (f) => ({
          ...f,
          vehicles: [f.vehicles![0], { plate: 'GL456', company: '5301005290', acquiredOn: '2024/03/01' }],
        }),
        says: [
          'vehicles[1].acquiredOn is not a real date in the form YYYY-MM-DD',
          'expected the date the company took the vehicle, YYYY-MM-DD',
          'found "2024/03/01"',
        ],
      },
      {
        what: 'a kennitala given as a number',
        change: (f) => ({ ...f, visit: { ...f.visit, ownerKennitala: 5301005290 } }),
        says: ['visit.ownerKennitala is a number, not a string', 'expected a kennitala: 10 digits', 'found 5301005290'],
      },
      {
        what: 'a field the schema does not know',
        change: (f) => ({ ...f, vehicles: [{ ...f.vehicles![0], colour: 'red' }] }),
        says: [
          'vehicles[0].colour is not a known field (expected only the fields plate, country, company, acquiredOn, active',
        ],
      },
      {
        what: 'a vehicle held by a company the file does not list',
        change: (f) => ({ ...f, vehicles: [{ ...f.vehicles![0], company: '5709763629' }] }),
        says: ['vehicles[0].company is not the kennitala of any of the companies', 'found "5709763629"'],
      },
      {
        what: 'two companies with one kennitala',
        change: (f) => ({ ...f, companies: [...f.companies!, { name: 'Again ehf.', kennitala: '5301005290' }] }),
        says: ['companies[1].kennitala is also the kennitala of companies[0]'],
      },
      {
        what: 'no registration date for a plate the owner does not hold in the file',
        change: (f) => ({ ...f, visit: { plate: 'ZZ999', ownerKennitala: '5301005290' } }),
        says: [
          'visit.registrationDate is missing',
          "it may be left out when the plate is one of the owner's vehicles in the file",
        ],
      },
      {
        what: 'a simple-payment behaviour that does not exist',
        change: (f) => ({ ...f, simplePayment: 'sometimes' }),
        says: [
          'simplePayment is not a behaviour of the simple endpoint',
          'accept, refuse, refuse-ok-status',
          'found "sometimes"',
        ],
      },
      {
        what: 'a fault of a kind that does not exist',
        change: (f) => ({ ...f, faults: [{ route: 'POST /payments', kind: 'flaky' }] }),
        says: ['faults[0].kind is not a kind of fault', 'expected one of unavailable, rate-limited', 'found "flaky"'],
      },
      {
        what: 'a fault on a request no fault can break',
        change: (f) => ({ ...f, faults: [{ route: 'GET /payments', kind: 'reset' }] }),
        says: [
          'faults[0].route is not a request a fault can break',
          'expected one of GET /rental-companies',
          'found "GET /payments"',
        ],
      },
    ]
    it.each(cases)('$what', async ({ change, says }) => {
      const message = await loadError(await file('bad.json', change(minimal)))
      expect(message).toMatch(/^Failed to load the scenario .*bad\.json: /)
      expect(message).toMatch(/Please fix the file\.$/)
      for (const text of says) expect(message).toContain(text)
    })

    it('names every wrong field at once', async () => {
      const message = await loadError(await file('many.json', { name: 'many', description: 'x', visit: {} }))
      expect(message).toContain('visit.plate is missing')
      expect(message).toContain('visit.ownerKennitala is missing')
    })

    it('says a file that is not JSON is not JSON', async () => {
      expect(await loadError(await file('broken.json', '{ "name": '))).toMatch(
        /Failed to load the scenario .*broken\.json: it is not JSON \(.+\)\. Please fix the file\./,
      )
    })
  })

  describe('a bad module', () => {
    it('without a default export', async () => {
      expect(await loadError(await file('none.ts', 'export const scenario = 1\n'))).toContain(
        'it has no default export. Please end it with `export default defineScenario({ name, description, seed })`.',
      )
    })

    it('whose default export is not a scenario', async () => {
      const message = await loadError(await file('half.ts', "export default { name: 'half' }\n"))
      expect(message).toContain('its default export is not a scenario: description is missing')
      expect(message).toContain('seed is missing (expected a function seed(context) that returns the visit)')
    })

    it('that does not parse, saying where', async () => {
      expect(await loadError(await file('typo.ts', 'export default {{ name: 1 }\n'))).toMatch(
        /the module failed to load: .*typo\.ts:1:\d+\. Please fix the file\./,
      )
    })

    it('of an extension that is not a scenario file', async () => {
      expect(await loadError(await file('world.yaml', 'name: x'))).toContain(
        'a scenario file ends in .json, .js, .mjs, .ts, .mts, not ".yaml"',
      )
    })

    it('that is not there', async () => {
      const error = await loadScenario(join(dir, 'gone.ts')).catch((e: unknown) => e)
      expect(error).toMatchObject({
        code: 'SCENARIO_FILE_NOT_FOUND',
        message: expect.stringContaining('there is no such file'),
      })
    })
  })
})

describe('the reference client against the JSON example, served over HTTP', () => {
  it.each(['advanced', 'simple'] as const)('pays for the visit in the %s flow, creating nothing', async (flow) => {
    const service = await createRelayService({ scenario: await loadScenario(JSON_EXAMPLE) })
    const server = createServer(service)
    try {
      const baseUrl = await listen(server, { port: 0 })
      const { world } = service
      const visit = { ...world.visit, locationId: world.location.id, flow }
      const report = await referenceClient(visit, toRelayEnv(visit, baseUrl, world.token, join(dir, 'unused.json')), {
        signal: new AbortController().signal,
      })
      expect(report).toMatchObject({ outcome: 'paid', paymentId: expect.any(String) })
      const routes = world.journal.entries().map((entry) => `${entry.route} ${entry.response.status}`)
      expect(routes).toEqual(
        flow === 'advanced'
          ? ['GET /rental-companies 200', 'GET /vehicles 200', 'POST /payments 201']
          : ['POST /payment 201'],
      )
      const [payment] = world.store.payments.all()
      expect(payment.amount).toEqual({ amount: 3990, currency: 'ISK' })
      expect(world.store.vehicles.byId(payment.vehicleId)?.plate).toBe('GL123')
    } finally {
      await close(server)
    }
  })
})
