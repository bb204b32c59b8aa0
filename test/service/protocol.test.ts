// What the mock answers to requests that are wrong before their fields are read: the body's
// form, the path, the method, the token. Each gets its own clear 4xx, never HTML, never a 500.
import { request as httpRequest, type Server } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import fc from 'fast-check'
import { compileRoutes, KNOWN_SLIPS, meantPath, parseQuery, resolveRoute } from '../../src/core/service/protocol.js'
import { defineRoute, type Method, type Route } from '../../src/core/service/route.js'
import { createServedService } from '../support/service.js'
import type { World } from '../../src/core/service/world.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { vehicleBody } from '../support/bodies.js'
import { auth, transports, type Answer, type Client } from '../support/transports.js'

const MiB = 1024 * 1024

function expectProblem(answer: Answer, status: number) {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/(problem\+)?json/)
  expect(answer.body.message).toEqual(expect.any(String))
}

describe.each(transports)('requests wrong in form over $name', (transport) => {
  let service: RelayService
  let client: Client
  let world: World
  beforeAll(async () => {
    service = await createServedService()
    client = await transport.connect(service)
  })
  afterAll(() => client.close())
  beforeEach(async () => {
    world = await service.addWorld()
  })
  const token = () => ({ authorization: `Bearer ${world.token}` })
  const lastEntry = () => world.journal.entries().at(-1)!

  describe('the body', () => {
    it('answers malformed JSON with 400 saying it is not JSON', async () => {
      const answer = await client.request('POST', '/vehicles', { headers: auth(world), rawBody: '{"plate": "AB123",' })
      expectProblem(answer, 400)
      expect(answer.body.message).toMatch(/not valid JSON/)
    })

    it('answers an empty body with 400 saying it is empty', async () => {
      const answer = await client.request('POST', '/vehicles', { headers: auth(world), rawBody: '' })
      expectProblem(answer, 400)
      expect(answer.body.message).toMatch(/empty/)
    })

    it('answers a body without Content-Type with 415 asking for application/json', async () => {
      const answer = await client.request('POST', '/vehicles', { headers: token(), body: vehicleBody() })
      expectProblem(answer, 415)
      expect(answer.body.message).toMatch(/no Content-Type.*Content-Type: application\/json/)
    })

    it('answers a form body with 415 naming the type it was sent as', async () => {
      const answer = await client.request('POST', '/vehicles', {
        headers: { ...token(), 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'plate=AB123&country=is',
      })
      expectProblem(answer, 415)
      expect(answer.body.message).toContain('application/x-www-form-urlencoded')
    })

    it('accepts application/json with a charset', async () => {
      const answer = await client.request('POST', '/vehicles', {
        headers: auth(world, { 'content-type': 'application/json; charset=utf-8' }),
        body: vehicleBody(),
      })
      expect(answer.status).toBe(201)
    })

    it('answers a body over 1 MiB with 413 naming the limit', async () => {
      const answer = await client.request('POST', '/vehicles', {
        headers: auth(world),
        body: vehicleBody({ plate: 'x'.repeat(1.1 * MiB) }),
      })
      expectProblem(answer, 413)
      expect(answer.body.message).toContain(String(MiB))
    })

    it('takes a body just under 1 MiB as far as its fields', async () => {
      const answer = await client.request('POST', '/vehicles', {
        headers: auth(world),
        body: vehicleBody({ plate: 'x'.repeat(MiB - 100) }),
      })
      expect(answer.status).toBe(422)
      expect(answer.body.errors[0]).toMatchObject({ field: 'plate', problem: 'is too long' })
    })

    it('counts the 1 MiB limit in bytes, not characters', async () => {
      // 0.6 Mi two-byte characters: 1.2 MiB on the wire.
      const answer = await client.request('POST', '/vehicles', {
        headers: auth(world),
        body: vehicleBody({ plate: 'þ'.repeat(0.6 * MiB) }),
      })
      expect(answer.status).toBe(413)
    })

    it('refuses a body nesting JSON 100,000 deep with 400, not a 500', async () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000)
      const answer = await client.request('POST', '/vehicles', {
        headers: auth(world),
        rawBody: `{"plate": ${deep}, "country": "is"}`,
      })
      expectProblem(answer, 400)
      expect(answer.body.message).toMatch(/nests deeper than 64 levels/)
    })
  })

  describe('the path and the method', () => {
    it('answers an unknown path with 404 suggesting the nearest one', async () => {
      const answer = await client.request('GET', '/vehicle?plate=AB123', { headers: token() })
      expectProblem(answer, 404)
      expect(answer.body.message).toMatch(/Did you mean \/vehicles\?/)
    })

    it('answers a path with a trailing slash with 404 saying to drop it', async () => {
      const answer = await client.request('GET', '/rental-companies/?kennitala=5901694399', { headers: token() })
      expectProblem(answer, 404)
      expect(answer.body.message).toMatch(/trailing slash/)
    })

    it('answers a wrong method with 405 and the methods the path answers in Allow', async () => {
      const answer = await client.request('DELETE', '/vehicles', { headers: token() })
      expectProblem(answer, 405)
      expect(answer.headers.allow).toBe('GET, HEAD, POST, OPTIONS')
      expect(answer.body.message).toContain('GET, HEAD, POST, OPTIONS')
    })

    it('answers PUT /payments with 405 allowing POST', async () => {
      const answer = await client.request('PUT', '/payments', { headers: auth(world), body: {} })
      expectProblem(answer, 405)
      expect(answer.headers.allow).toBe('POST, OPTIONS')
    })

    it('teaches the misspelled /rental-comapnies: 404 naming /rental-companies', async () => {
      const answer = await client.request('GET', `/rental-comapnies?kennitala=${world.visit.ownerKennitala}`, {
        headers: token(),
      })
      expectProblem(answer, 404)
      expect(answer.body.message).toMatch(/misspelled: use \/rental-companies/)
    })

    it('teaches GET /payment: 405 saying the simple payment is POST with a JSON body', async () => {
      const answer = await client.request('GET', '/payment', { headers: token() })
      expectProblem(answer, 405)
      expect(answer.headers.allow).toBe('POST, OPTIONS')
      expect(answer.body.message).toMatch(/POST \/payment with a JSON body/)
    })
  })

  describe('the token', () => {
    const path = '/vehicles?plate=AB123'

    it('answers no Authorization header with 401 saying it is missing', async () => {
      const answer = await client.request('GET', path)
      expectProblem(answer, 401)
      expect(answer.body.message).toMatch(/no Authorization header/)
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer/)
    })

    it.each([['Token abc123'], ['Bearer'], [`Basic ${btoa('user:pass')}`], ['Bearer two words']])(
      'answers the malformed header "%s" with 401 saying it is malformed',
      async (value) => {
        const answer = await client.request('GET', path, { headers: { authorization: value } })
        expectProblem(answer, 401)
        expect(answer.body.message).toMatch(/malformed/)
      },
    )

    it('answers a token it did not issue with 401 saying it is not recognised', async () => {
      const answer = await client.request('GET', path, { headers: { authorization: 'Bearer not-a-token-it-issued' } })
      expectProblem(answer, 401)
      expect(answer.body.message).toMatch(/not recognised/)
    })

    it('says something different for each of missing, malformed and unknown', async () => {
      const messages = await Promise.all(
        ([{}, { authorization: 'Token x' }, { authorization: 'Bearer nope' }] as Array<Record<string, string>>).map(
          async (headers) => (await client.request('GET', path, { headers })).body.message,
        ),
      )
      expect(new Set(messages).size).toBe(3)
    })

    it('reads the token before the body: a bad body without a token is 401', async () => {
      const answer = await client.request('POST', '/vehicles', {
        headers: { 'content-type': 'application/json' },
        rawBody: '{oops',
      })
      expect(answer.status).toBe(401)
    })
  })

  describe('the journal of bad requests', () => {
    it('journals a malformed body with its text, why it failed, and the 400', async () => {
      await client.request('POST', '/vehicles', { headers: auth(world), rawBody: '{"plate": ' })
      const entry = lastEntry()
      expect(entry.request).toMatchObject({ method: 'POST', path: '/vehicles', bodyText: '{"plate": ' })
      expect(entry.request.bodyError).toMatch(/not valid JSON/)
      expect(entry.response.status).toBe(400)
      expect(entry.route).toBe('POST /vehicles')
      expect(entry.auth).toBe('ok')
    })

    it('journals a wrong path in the world of its token, with no route', async () => {
      await client.request('GET', '/rental-comapnies?kennitala=1', { headers: token() })
      expect(lastEntry()).toMatchObject({
        route: null,
        worldId: world.id,
        request: { path: '/rental-comapnies', query: { kennitala: '1' } },
        response: { status: 404 },
      })
    })

    it('journals a request without a token in the whole journal, with auth missing and no world', async () => {
      await client.request('GET', '/vehicles?plate=NOTOK1')
      const entry = service.journal.entries().at(-1)!
      expect(entry).toMatchObject({
        auth: 'missing',
        worldId: null,
        request: { query: { plate: 'NOTOK1' } },
        response: { status: 401 },
      })
    })
  })

  describe('nothing a client sends yields HTML or a 500', () => {
    const odd: Array<[string, string, { headers?: Record<string, string>; rawBody?: string }?]> = [
      ['GET', '/'],
      // msw's own path patterns would throw URIError on these before any handler ran.
      ['GET', '/vehicles/%E0%A4%A'],
      ['GET', '/nowhere/%E0%A4%A'],
      ['GET', '/vehicles?plate=%E0%A4%A'],
      ['GET', '/vehicles?plate=AB123&plate=CD456'],
      ['GET', `/vehicles?plate=${'A'.repeat(4000)}`],
      ['GET', '/../../etc/passwd'],
      ['OPTIONS', '/nowhere'],
      ['HEAD', '/vehicles?plate=AB123'],
      ['PATCH', '/payments/00000000-0000-4000-8000-000000000000'],
      ['POST', '/payments', { rawBody: 'null' }],
      ['POST', '/payments', { rawBody: '"a string"' }],
      ['POST', '/payments', { rawBody: '12' }],
      ['POST', '/payment', { rawBody: '{"__proto__": {"admin": true}}' }],
      ['POST', '/payment', { rawBody: '\u0000\u0001\u0002' }],
      ['POST', '/custodians', { rawBody: '['.repeat(50_000) }],
      ['POST', '/custodians', { rawBody: `{"acquiredOn": ${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}` }],
      ['POST', '/vehicles', { headers: { 'content-type': 'application/json' }, rawBody: '{}' }],
      ['GET', '/__relay/nowhere'],
    ]
    it.for(odd)('%s %s', async ([method, path, options = {}]) => {
      const headers = { ...(method === 'GET' || method === 'HEAD' ? token() : auth(world)), ...options.headers }
      const answer = await client.request(method, path, {
        headers,
        ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : {}),
      })
      expect(answer.status).toBeGreaterThanOrEqual(200)
      expect(answer.status).toBeLessThan(500)
      expect(answer.headers['content-type']).toMatch(/json/)
      expect(answer.text).not.toMatch(/<html|<!DOCTYPE/i)
    })
  })
})

describe('the Node server reading bodies', () => {
  let service: RelayService
  let server: Server
  let port: number
  beforeAll(async () => {
    service = await createServedService()
    server = createServer(service)
    port = Number(new URL(await listen(server, { port: 0 })).port)
  })
  afterAll(() => close(server))

  /** Sends `chunks` one write each, so Node sends them with Transfer-Encoding: chunked. */
  function sendChunked(path: string, chunks: string[]): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path, method: 'POST', headers: auth(service.world) },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (c: string) => (text += c))
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
        },
      )
      req.on('error', reject)
      for (const chunk of chunks) req.write(chunk)
      req.end()
    })
  }

  it('reads a body sent in chunks without Content-Length', async () => {
    const answer = await sendChunked('/vehicles', ['{"plate": "QQ', '9Q9", "country"', ': "is"}'])
    expect(answer.status).toBe(201)
    expect(service.world.store.vehicles.byPlate('QQ9Q9')).toHaveLength(1)
  })

  it('answers a chunked body over 1 MiB with 413', async () => {
    const answer = await sendChunked('/vehicles', [
      '{"plate": "',
      'x'.repeat(600 * 1024),
      'x'.repeat(600 * 1024),
      '", "country": "is"}',
    ])
    expect(answer.status).toBe(413)
  })
})

describe('parseQuery', () => {
  it('reads a query string as URLSearchParams does, the last of a repeated name winning', () => {
    const asUrlSearchParams = (search: string) => {
      const query: Record<string, string> = {}
      for (const [k, v] of new URLSearchParams(search)) query[k] = v
      return query
    }
    // Without % and +, the strings parseQuery splits by hand; with them, the ones it hands to URLSearchParams.
    const plain = fc.string({
      unit: fc.constantFrom('a', 'B', '1', '=', '&', '2', '0', 'é', ' ', '?', '/'),
      maxLength: 30,
    })
    const encoded = fc.string({ unit: fc.constantFrom('a', '=', '&', '%', '+', '2', '0', 'é'), maxLength: 30 })
    for (const part of [plain, encoded]) {
      fc.assert(
        fc.property(part, (text) => {
          expect(parseQuery(`?${text}`)).toEqual(asUrlSearchParams(`?${text}`))
        }),
        { numRuns: 2000 },
      )
    }
    expect(parseQuery('?plate=AB123&plate=CD456&x')).toEqual({ plate: 'CD456', x: '' })
    expect(parseQuery('')).toEqual({})
  })
})

describe('resolveRoute', () => {
  const route = (method: Method, path: string): Route<any, any> =>
    defineRoute({
      method,
      path,
      integration: 'links',
      summary: path,
      answers: {},
      handle: () => ({ status: 204, body: undefined }),
    })
  // A table where a path named without parameters is also matched by a parameter route.
  const table = compileRoutes([route('GET', '/:kind'), route('POST', '/vehicles'), route('GET', '/vehicles/:id')])

  it('finds every route a named path matches, parameter routes included, whichever is asked first', () => {
    for (let i = 0; i < 2; i++) {
      const got = resolveRoute(table, 'GET', '/vehicles')
      expect(got).toMatchObject({ route: { path: '/:kind' }, params: { kind: 'vehicles' } })
      expect(resolveRoute(table, 'POST', '/vehicles')).toMatchObject({ route: { path: '/vehicles' }, params: {} })
      expect(resolveRoute(table, 'DELETE', '/vehicles')).toMatchObject({
        reply: { status: 405, headers: { allow: 'GET, HEAD, POST, OPTIONS' } },
      })
      expect(resolveRoute(table, 'GET', '/vehicles/a%20b')).toMatchObject({
        route: { path: '/vehicles/:id' },
        params: { id: 'a b' },
      })
      expect(resolveRoute(table, 'GET', '/vehicles/')).toMatchObject({ reply: { status: 404 } })
      expect(resolveRoute(table, 'OPTIONS', '/vehicles')).toMatchObject({
        reply: { status: 204, headers: { allow: 'GET, HEAD, POST, OPTIONS' } },
      })
      expect(resolveRoute(table, 'HEAD', '/vehicles')).toMatchObject({
        route: { path: '/:kind', method: 'HEAD' },
        params: { kind: 'vehicles' },
      })
    }
  })

  it("answers a path under a dev tool's prefix, and only there, with the dev tool's routes", async () => {
    const { createRelayService } = await import('../../src/core/service/mock.js')
    const { devtools } = await import('../../src/devtools/admin.js')
    const service = await createRelayService({ extensions: [devtools()] })
    const headers = { authorization: 'Bearer relay-mock-token' }
    const near = await service.handle({ method: 'GET', url: '/__relayx', headers })
    expect(near.status).toBe(404)
    expect(JSON.parse(near.text).message).toMatch(/^No endpoint has the path \/__relayx\./)
    // The service answered it (and journaled it), not the dev tool.
    expect(service.journal.latest()?.request.path).toBe('/__relayx')
    expect((await service.handle({ method: 'GET', url: '/__relay', headers })).status).toBe(200)
    // A dev tool mounted after requests were answered is reached too (its table is a new one).
    service.use({
      routes: () => [
        defineRoute({
          method: 'GET',
          path: '/__late/ping',
          integration: 'admin',
          summary: 'ping',
          answers: {},
          public: true,
          handle: () => ({ status: 200, body: { pong: true } }),
        }),
      ],
    })
    expect(JSON.parse((await service.handle({ method: 'GET', url: '/__late/ping', headers })).text)).toEqual({
      pong: true,
    })
    expect((await service.handle({ method: 'GET', url: '/__relay', headers })).status).toBe(200)
  })

  it("refuses a dev tool's callers in the tool's words, and another tool's in the core's, which name no tool", async () => {
    const { createRelayService } = await import('../../src/core/service/mock.js')
    const { devtools } = await import('../../src/devtools/admin.js')
    const service = await createRelayService({ adminToken: 'the-admin', extensions: [devtools()] })
    service.use({
      routes: () => [
        defineRoute({
          method: 'GET',
          path: '/__other/ping',
          integration: 'admin',
          summary: 'ping',
          answers: {},
          handle: () => ({ status: 200, body: { pong: true } }),
        }),
      ],
    })
    const refusal = async (url: string, headers: Record<string, string> = {}) => {
      const answer = await service.handle({ method: 'GET', url, headers })
      return [answer.status, JSON.parse(answer.text).message]
    }
    expect(await refusal('/__relay/worlds')).toEqual([401, expect.stringContaining('/__relay/#token=<token>')])
    expect(await refusal('/__relay/worlds', { authorization: 'Bearer nobody' })).toEqual([
      401,
      expect.stringContaining('POST /__relay/tokens'),
    ])
    expect(await refusal('/__relay/worlds?world=world-9', { authorization: 'Bearer the-admin' })).toEqual([
      404,
      'No world has the id world-9. GET /__relay/worlds lists them.',
    ])
    const other = [
      await refusal('/__other/ping'),
      await refusal('/__other/ping', { authorization: 'Bearer nobody' }),
      await refusal('/__other/ping?world=world-9', { authorization: 'Bearer the-admin' }),
    ]
    expect(other.map(([status]) => status)).toEqual([401, 401, 404])
    for (const [, message] of other) expect(message).not.toMatch(/__relay|live page|relay-mock serve/)
    expect(await refusal('/__other/ping', { authorization: 'Bearer relay-mock-token' })).toEqual([200, undefined])
  })
})

// The interface's slips are written once (KNOWN_SLIPS): the mock teaches each with its message, and the
// path each means is what the 404 points to, which the live page starts a visit by (meantPath).
describe("the interface's slips and the path a request meant", () => {
  it('answers each known slip with its own message: 404 for the misspelt path, whatever the method; 405 for GET /payment', async () => {
    const service = await createServedService()
    expect(KNOWN_SLIPS.map((slip) => slip.meant)).toEqual(['GET /rental-companies', 'POST /payment'])
    for (const slip of KNOWN_SLIPS) {
      for (const method of slip.method ? [slip.method] : ['GET', 'POST']) {
        const answer = await service.handle({
          method,
          url: slip.path,
          headers: { authorization: 'Bearer relay-mock-token' },
        })
        expect({ status: answer.status, message: JSON.parse(answer.text).message }).toEqual({
          status: slip.method ? 405 : 404,
          message: slip.message,
        })
      }
    }
  })

  it.each([
    ['/rental-companies', '/rental-companies'],
    ['/rental-companies/', '/rental-companies'],
    ['/rental-comapnies', '/rental-companies'],
    ['/rental-comapnies/', '/rental-companies'],
    ['/rental-company', '/rental-companies'],
    ['/rentalcompanies', '/rental-companies'],
    ['/payment', '/payment'],
    ['/payments', '/payments'],
    ['/vehicles/3f2b8c1e', '/vehicles/:id'],
    ['/vehicle', '/vehicles'],
    ['/status', undefined],
    ['/rental-corporations', undefined],
  ])('%s means %s', (path, meant) => {
    expect(meantPath(path)).toBe(meant)
  })

  it('says "Did you mean" with the path meantPath finds, and nothing when it finds none', async () => {
    const service = await createServedService()
    const message = async (url: string) =>
      JSON.parse((await service.handle({ method: 'GET', url, headers: {} })).text).message as string
    expect(await message('/rental-company')).toContain('Did you mean /rental-companies?')
    expect(await message('/status')).not.toContain('Did you mean')
  })
})
