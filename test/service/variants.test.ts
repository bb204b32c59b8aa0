// Variants: a world served under alternatives of the assumption ledger. Each served alternative is
// answered on the wire and by the msw handlers alike (the one pipeline), in its own world only.
import { describe, expect, it } from 'vitest'
import { ASSUMPTIONS } from '../../src/core/ledger/assumptions.js'
import type { RelayService } from '../../src/core/service/mock.js'
import { EXTRA_FIELDS, servedVariants, toVariants, VARIED } from '../../src/core/service/variants.js'
import type { World } from '../../src/core/service/world.js'
import { createRelayMock } from '../../src/index.js'
import { createServedService } from '../support/service.js'
import { transports, type Client } from '../support/transports.js'

type Check = (world: World, client: Client, token: Record<string, string>) => Promise<void>

const json = (token: Record<string, string>) => ({ ...token, 'content-type': 'application/json' })
const vehicleBody = { plate: 'ZZ123', country: 'is' }
const simpleBody = (world: World, owner = world.visit.ownerKennitala) => ({
  location: world.location.id,
  vehicle: { owner, plate: world.visit.plate, acquiredOn: world.visit.registrationDate },
  visit: { startedOn: world.visit.visitStart, endedOn: world.visit.visitEnd },
  payment: { amount: world.visit.amount, currency: world.visit.currency },
})

/** For each served alternative: its scenario, and what the mock answers under it (and without it, for contrast). */
const CASES: Record<string, { scenario: string; check: Check; plain: Check }> = {
  'create.status=200-no-location': {
    scenario: 'new-vehicle',
    async check(_, client, token) {
      const answer = await client.request('POST', '/vehicles', { headers: json(token), body: vehicleBody })
      expect(answer.status).toBe(200)
      expect(answer.headers.location).toBeUndefined()
      expect(Object.keys(answer.body)).toEqual(['id', 'link'])
    },
    async plain(_, client, token) {
      const answer = await client.request('POST', '/vehicles', { headers: json(token), body: vehicleBody })
      expect([answer.status, answer.headers.location]).toEqual([201, answer.body.link])
    },
  },
  'create.status=201-no-location': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.status).toBe(201)
      expect(answer.headers.location).toBeUndefined()
      expect(typeof answer.body.id).toBe('string')
    },
    async plain(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.headers.location).toBe(`/payments/${answer.body.id}`)
    },
  },
  'invalid.status=400': {
    scenario: 'new-vehicle',
    async check(_, client, token) {
      const answer = await client.request('POST', '/vehicles', { headers: json(token), body: { plate: 'ZZ123' } })
      expect([answer.status, answer.body.status, answer.body.title]).toEqual([400, 400, 'Bad Request'])
      expect(answer.body.errors[0].field).toBe('country')
    },
    async plain(_, client, token) {
      expect(
        (await client.request('POST', '/vehicles', { headers: json(token), body: { plate: 'ZZ123' } })).status,
      ).toBe(422)
    },
  },
  'error.body=json-message': {
    scenario: 'new-vehicle',
    async check(_, client, token) {
      const answer = await client.request('POST', '/vehicles', { headers: json(token), body: { plate: 'ZZ123' } })
      expect(answer.status).toBe(422)
      expect(answer.headers['content-type']).toMatch(/^application\/json/)
      expect(Object.keys(answer.body)).toEqual(['message'])
      const missing = await client.request('GET', '/nowhere', { headers: token })
      expect(Object.keys(missing.body)).toEqual(['message'])
    },
    async plain(_, client, token) {
      const answer = await client.request('POST', '/vehicles', { headers: json(token), body: { plate: 'ZZ123' } })
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    },
  },
  'auth.refusal=403': {
    scenario: 'default',
    async check(_, client) {
      const answer = await client.request('GET', '/vehicles?plate=AB123')
      expect([answer.status, answer.body.status]).toEqual([403, 403])
      expect(answer.headers['www-authenticate']).toBeUndefined()
    },
    async plain(_, client) {
      const answer = await client.request('GET', '/vehicles?plate=AB123')
      expect([answer.status, answer.headers['www-authenticate']]).toEqual([401, 'Bearer realm="relay"'])
    },
  },
  'auth.refusal=401-no-challenge': {
    scenario: 'default',
    async check(_, client) {
      const answer = await client.request('GET', '/vehicles?plate=AB123', {
        headers: { authorization: 'Bearer not-a-token-of-this-mock' },
      })
      expect(answer.status).toBe(401)
      expect(answer.headers['www-authenticate']).toBeUndefined()
    },
    async plain(_, client) {
      const answer = await client.request('GET', '/vehicles?plate=AB123', {
        headers: { authorization: 'Bearer not-a-token-of-this-mock' },
      })
      expect(answer.headers['www-authenticate']).toBeDefined()
    },
  },
  'simple.answer=id-only': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(Object.keys(answer.body)).toEqual(['id'])
    },
    async plain(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.body.status).toBe('new')
    },
  },
  'simple.answer=status-accepted': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.body).toMatchObject({ status: 'accepted', message: expect.any(String), id: expect.any(String) })
    },
    async plain(world, client, token) {
      expect(
        (await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })).body.status,
      ).toBe('new')
    },
  },
  'simple.refusal-status=400': {
    scenario: 'simple-failure',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.status).toBe(400)
      expect(answer.body).toMatchObject({ status: 'refused', message: expect.any(String) })
      expect(answer.body.id).toBeUndefined()
    },
    async plain(world, client, token) {
      expect((await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })).status).toBe(
        422,
      )
    },
  },
  'simple.refusal-status=200': {
    scenario: 'unknown-owner',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.status).toBe(200)
      expect(answer.body.id).toBeUndefined()
      expect(answer.body.message).toMatch(/not a rental company/)
    },
    async plain(world, client, token) {
      expect((await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })).status).toBe(
        422,
      )
    },
  },
  'simple.unknown-owner=accepted': {
    scenario: 'unknown-owner',
    async check(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect(answer.status).toBe(201)
      expect(world.store.payments.byId(answer.body.id)).toBeDefined()
    },
    async plain(world, client, token) {
      const answer = await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })
      expect([answer.status, answer.body.id]).toEqual([422, undefined])
      expect(world.store.payments.all()).toHaveLength(0)
    },
  },
  'records.extra-fields=extra': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const list = await client.request('GET', `/vehicles?plate=${world.visit.plate}`, { headers: token })
      expect(list.body[0]).toEqual({
        ...world.store.vehicles
          .activeByPlate(world.visit.plate)
          .map(({ id, plate, country }) => ({ id, plate, country }))[0],
        ...EXTRA_FIELDS,
      })
      const companies = await client.request('GET', `/rental-companies?kennitala=${world.visit.ownerKennitala}`, {
        headers: token,
      })
      expect(companies.body[0]).toMatchObject(EXTRA_FIELDS)
      const created = await client.request('POST', '/vehicles', { headers: json(token), body: vehicleBody })
      expect(created.body).toMatchObject({ id: expect.any(String), link: expect.any(String), ...EXTRA_FIELDS })
      const fetched = await client.request('GET', created.body.link, { headers: token })
      expect(fetched.body).toMatchObject({ plate: 'ZZ123', ...EXTRA_FIELDS })
    },
    async plain(world, client, token) {
      const list = await client.request('GET', `/vehicles?plate=${world.visit.plate}`, { headers: token })
      expect(Object.keys(list.body[0])).toEqual(['id', 'plate', 'country'])
    },
  },
  // The alternatives that refuse a lenient form (leniency.ts): each refused, saying what to send instead.
  'auth.scheme=exact': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const answer = await client.request('GET', `/vehicles?plate=${world.visit.plate}`, {
        headers: { authorization: token.authorization.replace('Bearer', 'bearer') },
      })
      expect(answer.status).toBe(401)
      expect(answer.body.message).toMatch(/the Authorization header: "bearer <token>"; send "Bearer <token>"/)
      expect((await client.request('GET', `/vehicles?plate=${world.visit.plate}`, { headers: token })).status).toBe(200)
    },
    async plain(world, client, token) {
      expect(
        (
          await client.request('GET', `/vehicles?plate=${world.visit.plate}`, {
            headers: { authorization: token.authorization.replace('Bearer', 'bearer') },
          })
        ).status,
      ).toBe(200)
    },
  },
  'request.content-type=application-json': {
    scenario: 'new-vehicle',
    async check(_, client, token) {
      const answer = await client.request('POST', '/vehicles', {
        headers: { ...token, 'content-type': 'application/vnd.relay+json' },
        body: vehicleBody,
      })
      expect(answer.status).toBe(415)
      expect(answer.body.message).toMatch(/"application\/vnd.relay\+json"; send "application\/json"/)
      expect(
        (
          await client.request('POST', '/vehicles', {
            headers: { ...token, 'content-type': 'application/json; charset=utf-8' },
            body: vehicleBody,
          })
        ).status,
      ).toBe(201)
    },
    async plain(_, client, token) {
      expect(
        (
          await client.request('POST', '/vehicles', {
            headers: { ...token, 'content-type': 'application/vnd.relay+json' },
            body: vehicleBody,
          })
        ).status,
      ).toBe(201)
    },
  },
  'query.extra=refused': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const answer = await client.request('GET', `/vehicles?plate=${world.visit.plate}&_=1795791066550`, {
        headers: token,
      })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/the query: _ \(not documented for GET \/vehicles\); send only plate=<plate>/)
      expect(
        (
          await client.request('GET', `/vehicles?plate=${world.visit.plate}&plate=${world.visit.plate}`, {
            headers: token,
          })
        ).status,
      ).toBe(400)
    },
    async plain(world, client, token) {
      expect(
        (await client.request('GET', `/vehicles?plate=${world.visit.plate}&_=1795791066550`, { headers: token }))
          .status,
      ).toBe(200)
    },
  },
  'http.get-body=refused': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      // A fetch Request (msw's) carries no body on a GET: the Node transport shows the refusal.
      if (client.name === 'msw') return
      const answer = await client.request('GET', `/vehicles?plate=${world.visit.plate}`, {
        headers: token,
        rawBody: '{"plate":"x"}',
      })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/the GET's body/)
    },
    async plain(world, client, token) {
      if (client.name === 'msw') return
      expect(
        (
          await client.request('GET', `/vehicles?plate=${world.visit.plate}`, {
            headers: token,
            rawBody: '{"plate":"x"}',
          })
        ).status,
      ).toBe(200)
    },
  },
  'custodian.acquired-on=datetime-only': {
    scenario: 'new-vehicle',
    async check(world, client, token) {
      const vehicle = await client.request('POST', '/vehicles', { headers: json(token), body: vehicleBody })
      const company = world.store.rentalCompanies.all()[0]
      const answer = await client.request('POST', '/custodians', {
        headers: json(token),
        body: { vehicleId: vehicle.body.id, rentalCompanyId: company.id, acquiredOn: '2024-03-01' },
      })
      expect(answer.status).toBe(422)
      expect(answer.body.errors).toEqual([
        {
          field: 'acquiredOn',
          problem: 'is a date without a time',
          expected: 'YYYY-MM-DD HH:MM:SS',
          received: '2024-03-01',
        },
      ])
    },
    async plain(world, client, token) {
      const vehicle = await client.request('POST', '/vehicles', { headers: json(token), body: vehicleBody })
      const company = world.store.rentalCompanies.all()[0]
      expect(
        (
          await client.request('POST', '/custodians', {
            headers: json(token),
            body: { vehicleId: vehicle.body.id, rentalCompanyId: company.id, acquiredOn: '2024-03-01' },
          })
        ).status,
      ).toBe(201)
    },
  },
  'request.number-form=integer-literal': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const text = JSON.stringify(simpleBody(world)).replace(
        `"amount":${world.visit.amount},`,
        `"amount":${world.visit.amount}.0,`,
      )
      const answer = await client.request('POST', '/payment', { headers: json(token), rawBody: text })
      expect(answer.status).toBe(422)
      expect(answer.body.errors).toEqual([
        {
          field: 'payment.amount',
          problem: 'is a whole number not written as an integer',
          expected: 'an integer literal',
          received: `${world.visit.amount}.0`,
        },
      ])
      expect(answer.body.message).toContain(`send ${world.visit.amount}, an integer literal`)
      expect((await client.request('POST', '/payment', { headers: json(token), body: simpleBody(world) })).status).toBe(
        201,
      )
    },
    async plain(world, client, token) {
      const text = JSON.stringify(simpleBody(world)).replace(
        `"amount":${world.visit.amount},`,
        `"amount":${world.visit.amount}.0,`,
      )
      expect((await client.request('POST', '/payment', { headers: json(token), rawBody: text })).status).toBe(201)
    },
  },
  'request.duplicate-keys=refused': {
    scenario: 'new-vehicle',
    async check(_, client, token) {
      const answer = await client.request('POST', '/vehicles', {
        headers: json(token),
        rawBody: '{"plate":"ZZ123","plate":"ZZ123","country":"is"}',
      })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/the body: the key plate twice; send each key once/)
    },
    async plain(_, client, token) {
      expect(
        (
          await client.request('POST', '/vehicles', {
            headers: json(token),
            rawBody: '{"plate":"ZZ123","plate":"ZZ123","country":"is"}',
          })
        ).status,
      ).toBe(201)
    },
  },
  'plate.format=exact-match': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      expect(
        (await client.request('GET', `/vehicles?plate=${world.visit.plate.toLowerCase()}`, { headers: token })).body,
      ).toEqual([])
      expect(
        (await client.request('GET', `/vehicles?plate=${world.visit.plate}`, { headers: token })).body,
      ).toHaveLength(1)
    },
    async plain(world, client, token) {
      expect(
        (await client.request('GET', `/vehicles?plate=${world.visit.plate.toLowerCase()}`, { headers: token })).body,
      ).toHaveLength(1)
    },
  },
  'links.fetchable=not-fetchable': {
    scenario: 'existing-vehicle',
    async check(world, client, token) {
      const id = world.store.vehicles.activeByPlate(world.visit.plate)[0].id
      const answer = await client.request('GET', `/vehicles/${id}`, { headers: token })
      expect(answer.status).toBe(404)
      expect(answer.body.message).toMatch(/cannot be fetched/)
    },
    async plain(world, client, token) {
      const id = world.store.vehicles.activeByPlate(world.visit.plate)[0].id
      expect((await client.request('GET', `/vehicles/${id}`, { headers: token })).status).toBe(200)
    },
  },
}

describe('the variants the mock serves', () => {
  it('are the alternatives the ledger does not mark as not served, each answered by VARIED', () => {
    expect(Object.keys(VARIED).sort()).toEqual(servedVariants().sort())
    expect(Object.keys(CASES).sort()).toEqual(servedVariants().sort())
  })

  it('refuse what is no alternative, or one not served, saying what is', () => {
    expect(() => toVariants(['create.stauts=200-no-location'])).toThrow(
      /no assumption has the id "create.stauts".*create\.status=200-no-location/,
    )
    expect(() => toVariants(['create.status=204'])).toThrow(
      /create.status has no alternative "204"; its alternatives are 200-no-location, 201-no-location/,
    )
    expect(() => toVariants(['create.status'])).toThrow(/is not <assumption>=<alternative>/)
    expect(() => toVariants(['slip.method=404'])).toThrow(/slip.method=404 is not served/)
    expect(() => toVariants(['create.status=200-no-location', 'create.status=201-no-location'])).toThrow(/given twice/)
    expect(toVariants({ 'error.body': 'json-message' })).toEqual({ 'error.body': 'json-message' })
    expect(ASSUMPTIONS.length).toBeGreaterThanOrEqual(8)
  })
})

describe.each(transports)('each variant over $name', (transport) => {
  /** A service under `variants` (its own and its world's: a request that reaches no world is the service's), and a client of its world. */
  async function served(
    variants: string[],
    scenario: string,
  ): Promise<{ service: RelayService; world: World; client: Client }> {
    const service = await createServedService({ tokens: [], variants })
    const world = await service.addWorld({ scenario })
    // Bound to its world, as a conformance case's listener is: a request without a token is that world's.
    const client = await transport.connect(service, transport.name === 'node' ? { world } : {})
    return { service, world, client }
  }

  for (const [variant, { scenario, check, plain }] of Object.entries(CASES)) {
    it(`answers ${variant} in a world served under it, and relay-mock's choice without it`, async () => {
      for (const [variants, expectation] of [
        [[variant], check],
        [[], plain],
      ] as const) {
        const { world, client } = await served([...variants], scenario)
        try {
          await expectation(world, client, { authorization: `Bearer ${world.token}` })
        } finally {
          await client.close()
        }
      }
    })
  }

  it("keeps a world's variants to that world", async () => {
    const service = await createServedService({ tokens: [] })
    const varied = await service.addWorld({
      scenario: 'new-vehicle',
      variants: ['create.status=200-no-location', 'auth.refusal=403'],
    })
    const plain = await service.addWorld({ scenario: 'new-vehicle' })
    const client = await transport.connect(service)
    try {
      const post = (world: World) =>
        client.request('POST', '/vehicles', {
          headers: json({ authorization: `Bearer ${world.token}` }),
          body: vehicleBody,
        })
      expect((await post(varied)).status).toBe(200)
      expect((await post(plain)).status).toBe(201)
      // A request that reaches no world is answered as the service's variants say (here none).
      expect((await client.request('GET', '/vehicles?plate=AB123')).status).toBe(401)
    } finally {
      await client.close()
    }
  })
})

describe('createRelayMock({ variants })', () => {
  it('serves every world under them, a world added with its own instead, and a reset keeps them', async () => {
    const mock = await createRelayMock({ scenario: 'new-vehicle', variants: ['create.status=200-no-location'] })
    const post = (world: World) =>
      mock.handle({
        method: 'POST',
        url: '/vehicles',
        headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(vehicleBody),
      })
    expect((await post(mock.world)).status).toBe(200)
    const own = await mock.addWorld({ variants: { 'error.body': 'json-message' } })
    expect((await post(own)).status).toBe(201)
    await mock.resetWorld(mock.world)
    expect(mock.world.variants).toEqual({ 'create.status': '200-no-location' })
    expect((await post(mock.world)).status).toBe(200)
    await expect(createRelayMock({ variants: { 'create.status': 'teapot' } })).rejects.toThrow(
      /create.status has no alternative "teapot"/,
    )
  })
})

describe('the admin API', () => {
  it("shows and changes the variants of the caller's world only", async () => {
    const service = await createServedService({ tokens: ['one', 'two'] })
    const call = (token: string, method: string, body?: unknown) =>
      service.handle({
        method,
        url: '/__relay/variants',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    const shown = JSON.parse((await call('one', 'GET')).text)
    expect(shown.variants).toEqual({})
    expect(shown.served).toEqual(servedVariants())
    const put = await call('one', 'PUT', { variants: ['links.fetchable=not-fetchable'] })
    expect([put.status, JSON.parse(put.text).variants]).toEqual([200, { 'links.fetchable': 'not-fetchable' }])
    await call('one', 'POST', { variants: { 'error.body': 'json-message' } })
    expect(service.worlds.get('one')!.variants).toEqual({
      'links.fetchable': 'not-fetchable',
      'error.body': 'json-message',
    })
    expect(service.worlds.get('two')!.variants).toBeUndefined()
    const wrong = await call('one', 'PUT', { variants: ['links.fetchable=sometimes'] })
    expect(wrong.status).toBe(422)
    expect(JSON.parse(wrong.text).message).toMatch(/links.fetchable has no alternative "sometimes"/)
    expect(service.worlds.get('one')!.variants).toEqual({
      'links.fetchable': 'not-fetchable',
      'error.body': 'json-message',
    })
    expect((await call('one', 'PUT', { nothing: true })).status).toBe(422)
    const cleared = await service.handle({
      method: 'DELETE',
      url: '/__relay/variants?assumption=error.body',
      headers: { authorization: 'Bearer one' },
    })
    expect(JSON.parse(cleared.text).variants).toEqual({ 'links.fetchable': 'not-fetchable' })
    await service.handle({ method: 'DELETE', url: '/__relay/variants', headers: { authorization: 'Bearer one' } })
    expect(service.worlds.get('one')!.variants).toBeUndefined()
  })
})
