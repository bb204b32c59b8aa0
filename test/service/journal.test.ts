// The journal (what a client did, in order, with what the mock answered) and the admin API that
// shows it, resets a world, switches its scenario and issues tokens; through both transports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'
import { scenarios } from '../../scenarios/index.js'
import { FRESH_PLATE, vehicleBody } from '../support/bodies.js'
import { as, auth, transports, type Client } from '../support/transports.js'

const SECRET = 'secret-token-0123456789abcdef'
const ADMIN = 'admin-token-0123456789abcdef'

describe.each(transports)('the journal over $name', (transport) => {
  let service: RelayService
  let client: Client
  beforeAll(async () => {
    service = await createServedService({ adminToken: ADMIN })
    client = await transport.connect(service)
  })
  afterAll(() => client.close())

  it('records each request in order with method, path, query, body, status and the answer', async () => {
    const world = await service.addWorld()
    const api = as(client, world)
    const found = await api.get(`/vehicles?plate=${world.visit.plate}`)
    const created = await api.post('/vehicles', vehicleBody())
    const entries = world.journal.entries()
    expect(entries.map((e) => [e.request.method, e.request.path, e.response.status, e.route])).toEqual([
      ['GET', '/vehicles', 200, 'GET /vehicles'],
      ['POST', '/vehicles', 201, 'POST /vehicles'],
    ])
    expect(entries[0].request).toMatchObject({
      query: { plate: world.visit.plate },
      search: `?plate=${world.visit.plate}`,
    })
    expect(entries[0].response.body).toEqual(found.body)
    expect(entries[1].request).toMatchObject({ body: vehicleBody(), bodyText: JSON.stringify(vehicleBody()) })
    expect(entries[1].response.body).toEqual(created.body)
    expect(entries[1].seq).toBeGreaterThan(entries[0].seq)
    expect(Date.parse(entries[0].time)).not.toBeNaN()
  })

  it('masks the token in the recorded headers and keeps the others', async () => {
    const world = await service.addWorld({ token: `${SECRET}-${transport.name}` })
    await client.request('GET', `/vehicles?plate=${world.visit.plate}`, {
      headers: auth(world, { 'x-client': 'test-suite' }),
    })
    const { headers } = world.journal.entries()[0].request
    expect(headers.authorization).toBe(`Bearer …${`-${transport.name}`.slice(-4)}`)
    expect(JSON.stringify(world.journal.entries())).not.toContain(SECRET)
    expect(headers['x-client']).toBe('test-suite')
  })

  it('masks every credential a request carries: cookies, API keys, proxy credentials and token-like query parameters', async () => {
    const world = await service.addWorld()
    const key = 'key-0123456789abcdefghij'
    await client.request('GET', `/vehicles?plate=${world.visit.plate}&access_token=${key}&api_key=${key}`, {
      headers: auth(world, {
        cookie: `session=${key}; theme=dark-mode-please`,
        'x-api-key': key,
        'proxy-authorization': `Basic ${key}`,
      }),
    })
    const [entry] = world.journal.entries()
    expect(JSON.stringify(entry)).not.toContain(key.slice(0, -4))
    expect(entry.request.headers).toMatchObject({
      cookie: 'session=…ghij; theme=…ease',
      'x-api-key': '…ghij',
      'proxy-authorization': 'Basic …ghij',
    })
    expect(entry.request.query).toEqual({ plate: world.visit.plate, access_token: '…ghij', api_key: '…ghij' })
    expect(entry.request.search).toContain(`plate=${world.visit.plate}&access_token=%E2%80%A6ghij`)
  })

  it('does not journal the admin API', async () => {
    const world = await service.addWorld()
    await client.request('GET', '/__relay/world', { headers: auth(world) })
    await client.request('GET', '/openapi/simple.json')
    expect(world.journal.entries()).toEqual([])
  })

  it('keeps up to its cap, drops the oldest and reports how many it dropped', async () => {
    const small = await createServedService({ journalLimit: 3 })
    const smallClient = await transport.connect(small)
    try {
      const api = as(smallClient, small.world)
      for (const plate of ['AA001', 'AA002', 'AA003', 'AA004', 'AA005']) await api.get(`/vehicles?plate=${plate}`)
      const answer = await api.get('/__relay/journal')
      expect(answer.body).toMatchObject({ total: 5, dropped: 2, limit: 3 })
      expect(answer.body.entries.map((e: { request: { query: { plate: string } } }) => e.request.query.plate)).toEqual([
        'AA003',
        'AA004',
        'AA005',
      ])
      expect(small.journal.page()).toMatchObject({ total: 5, dropped: 2 })
    } finally {
      await smallClient.close()
    }
  })

  // A body nested thousands deep, kept parsed, would overflow JSON.stringify's stack on every journal read.
  it('stays readable after a body nested 100,000 deep', async () => {
    // A service of its own: the bug leaves the whole journal unreadable (?scope=all) too.
    const own = await createServedService()
    const ownClient = await transport.connect(own)
    try {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000)
      await ownClient.request('POST', '/vehicles', { headers: auth(own.world), rawBody: deep })
      const answer = await ownClient.request('GET', '/__relay/journal', { headers: auth(own.world) })
      expect(answer.status).toBe(200)
    } finally {
      await ownClient.close()
    }
  })

  describe('the admin API', () => {
    it('GET /__relay/journal answers the world of the token, masked, and ?since= the newer entries', async () => {
      const world = await service.addWorld()
      const api = as(client, world)
      await api.get('/vehicles?plate=AA001')
      await api.get('/vehicles?plate=AA002')
      const all = await api.get('/__relay/journal')
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ world: world.id, total: 2, dropped: 0 })
      expect(all.body.token).not.toBe(world.token)
      const since = await api.get(`/__relay/journal?since=${all.body.entries[0].seq}`)
      expect(since.body.entries.map((e: { request: { query: { plate: string } } }) => e.request.query.plate)).toEqual([
        'AA002',
      ])
    })

    it('GET /__relay/journal?scope=all answers every world to the admin token', async () => {
      const a = await service.addWorld()
      const b = await service.addWorld()
      await as(client, a).get('/vehicles?plate=AA001')
      await as(client, b).get('/vehicles?plate=AA002')
      const answer = await client.request('GET', `/__relay/journal?scope=all&since=${a.journal.entries()[0].seq - 1}`, {
        headers: auth(ADMIN),
      })
      const worlds = new Set(answer.body.entries.map((e: { worldId: string }) => e.worldId))
      expect(worlds).toContain(a.id)
      expect(worlds).toContain(b.id)
    })

    it("GET /__relay/journal?scope=all is refused to a world's token (403), which sees its own world only", async () => {
      const a = await service.addWorld()
      const answer = await as(client, a).get('/__relay/journal?scope=all')
      expect(answer.status).toBe(403)
      expect(answer.body.message).toMatch(/--admin-token/)
    })

    it('GET /__relay/worlds lists every world to the admin token, tokens masked, and to no one else', async () => {
      const a = await service.addWorld()
      const listed = await client.request('GET', '/__relay/worlds', { headers: auth(ADMIN) })
      expect(listed.status).toBe(200)
      expect(listed.body).toContainEqual(expect.objectContaining({ id: a.id, token: `…${a.token.slice(-4)}` }))
      expect(JSON.stringify(listed.body)).not.toContain(a.token)
      expect((await as(client, a).get('/__relay/worlds')).status).toBe(403)
      const other = await client.request('GET', `/__relay/world?world=${service.world.id}`, { headers: auth(ADMIN) })
      expect(other.body.id).toBe(service.world.id)
    })

    it('pages the journal: ?limit= entries from ?since=, with next to read on', async () => {
      const world = await service.addWorld()
      for (const plate of ['PG001', 'PG002', 'PG003']) await as(client, world).get(`/vehicles?plate=${plate}`)
      const first = await as(client, world).get('/__relay/journal?limit=2')
      expect(first.body.entries.map((e: { request: { query: { plate: string } } }) => e.request.query.plate)).toEqual([
        'PG001',
        'PG002',
      ])
      const rest = await as(client, world).get(`/__relay/journal?limit=2&since=${first.body.next}`)
      expect(rest.body.entries.map((e: { request: { query: { plate: string } } }) => e.request.query.plate)).toEqual([
        'PG003',
      ])
      expect(rest.body.next).toBeUndefined()
      expect((await as(client, world).get('/__relay/journal?limit=0')).status).toBe(400)
    })

    it('GET /__relay/world answers the token (masked), location, scenario, visit, the records, created ones too, and the evicted count', async () => {
      const world = await service.addWorld()
      const api = as(client, world)
      const created = await api.post('/vehicles', vehicleBody())
      const answer = await api.get('/__relay/world')
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({
        id: world.id,
        token: `…${world.token.slice(-4)}`,
        evicted: 0,
        locationId: world.location.id,
        scenario: { name: 'default' },
        visit: world.visit,
      })
      expect(answer.body.records.vehicles).toContainEqual({
        id: created.body.id,
        plate: FRESH_PLATE,
        country: 'is',
        active: true,
      })
      expect(answer.body.records.rentalCompanies).toHaveLength(world.store.rentalCompanies.all().length)
    })

    it('POST /__relay/reset re-seeds the world and clears its journal', async () => {
      const world = await service.addWorld()
      const api = as(client, world)
      await api.post('/vehicles', vehicleBody())
      const answer = await api.post('/__relay/reset', {})
      expect(answer.status).toBe(200)
      // The token is masked, as everywhere it is shown.
      expect(answer.body).toMatchObject({ id: world.id, token: `…${world.token.slice(-4)}` })
      expect(JSON.stringify(answer.body)).not.toContain(world.token)
      expect((await api.get(`/vehicles?plate=${FRESH_PLATE}`)).body).toEqual([])
      expect(world.journal.entries()).toHaveLength(1)
    })

    it('POST /__relay/reset with a scenario switches to it', async () => {
      const world = await service.addWorld()
      const answer = await as(client, world).post('/__relay/reset', { scenario: 'new-vehicle' })
      expect(answer.body.scenario.name).toBe('new-vehicle')
      expect(world.scenario.name).toBe('new-vehicle')
    })

    it('PUT /__relay/scenario switches the scenario: the world then holds its visit', async () => {
      const world = await service.addWorld()
      const api = as(client, world)
      const answer = await api.put('/__relay/scenario', { name: 'multiple-vehicles' })
      expect(answer.status).toBe(200)
      expect(answer.body.scenario.name).toBe('multiple-vehicles')
      expect((await api.get(`/vehicles?plate=${answer.body.visit.plate}`)).body).toHaveLength(2)
    })

    it('PUT /__relay/scenario with an unknown name answers 422 listing the scenarios', async () => {
      const world = await service.addWorld()
      const answer = await as(client, world).put('/__relay/scenario', { name: 'no-such-world' })
      expect(answer.status).toBe(422)
      for (const name of scenarios.keys()) expect(answer.body.message).toContain(name)
      expect(world.scenario.name).toBe('default')
    })

    it('POST /__relay/tokens issues a fresh token with its own world in the scenario asked for', async () => {
      const refused = await client.request('POST', '/__relay/tokens', {
        headers: { 'content-type': 'application/json' },
        body: { scenario: 'unknown-owner' },
      })
      expect(refused.status).toBe(401)
      const answer = await client.request('POST', '/__relay/tokens', {
        headers: auth(service.world, { 'content-type': 'application/json' }),
        body: { scenario: 'unknown-owner' },
      })
      expect(answer.status).toBe(201)
      const token: string = answer.body.token
      expect(service.worlds.get(token)?.scenario.name).toBe('unknown-owner')
      const companies = await client.request('GET', `/rental-companies?kennitala=${answer.body.visit.ownerKennitala}`, {
        headers: auth(token),
      })
      expect(companies.status).toBe(200)
      expect(companies.body).toEqual([])
    })

    it('GET /__relay/scenarios lists every scenario and marks the current one', async () => {
      const world = await service.addWorld({ scenario: 'inactive-vehicle' })
      const answer = await as(client, world).get('/__relay/scenarios')
      expect(answer.body.map((s: { name: string }) => s.name)).toEqual([...scenarios.keys()])
      expect(answer.body.filter((s: { current: boolean }) => s.current).map((s: { name: string }) => s.name)).toEqual([
        'inactive-vehicle',
      ])
      for (const s of answer.body) expect(s.description).toEqual(expect.any(String))
    })

    it('answers an unknown token on the admin API with 401, not another world', async () => {
      const answer = await client.request('GET', '/__relay/world', {
        headers: { authorization: 'Bearer no-such-token' },
      })
      expect(answer.status).toBe(401)
      expect(answer.body.message).toMatch(/not one of this mock's worlds/)
    })

    it("answers an admin call without a token with 401 that says to send the world's token, and the token in the URL is not read", async () => {
      for (const url of [
        '/__relay/world',
        '/__relay/journal',
        '/__relay/live',
        '/__relay/visits',
        '/__relay/journal.har',
        `/__relay/world?token=${service.world.token}`,
      ]) {
        const answer = await client.request('GET', url)
        expect(answer.status, url).toBe(401)
        expect(answer.body.message).toMatch(/Authorization: Bearer/)
      }
      expect((await client.request('POST', '/__relay/reset')).status).toBe(401)
    })

    it('keeps the OpenAPI documents and the admin index public', async () => {
      expect((await client.request('GET', '/openapi/advanced.json')).status).toBe(200)
      expect((await client.request('GET', '/__relay')).status).toBe(200)
    })
  })
})
