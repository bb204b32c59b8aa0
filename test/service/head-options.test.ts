// HEAD and OPTIONS, answered once in the pipeline for both transports: HEAD is GET's status and
// headers (Content-Length included) with no body; OPTIONS on a known path is 204 with Allow; every
// 405 says in Allow what the path answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceRoutes } from '../../src/core/service/handlers/index.js'
import type { RelayService } from '../../src/core/service/mock.js'
import type { World } from '../../src/core/service/world.js'
import { createServedService } from '../support/service.js'
import { auth, transports, type Client } from '../support/transports.js'

const ID = '00000000-0000-4000-8000-000000000000'

describe.each(transports)('HEAD and OPTIONS over $name', (transport) => {
  let service: RelayService
  let client: Client
  let world: World
  beforeAll(async () => {
    service = await createServedService()
    client = await transport.connect(service)
    world = await service.addWorld({ scenario: 'existing-vehicle' })
  })
  afterAll(() => client.close())
  const token = () => ({ authorization: `Bearer ${world.token}` })

  const gets = () => [
    `/rental-companies?kennitala=${world.visit.ownerKennitala}`,
    `/vehicles?plate=${world.visit.plate}`,
    `/vehicles/${world.store.vehicles.activeByPlate(world.visit.plate)[0].id}`,
    `/rental-companies/${world.store.rentalCompanies.all()[0].id}`,
    `/payments/${ID}`,
    '/vehicles?plate=%20',
    '/__relay/world',
    '/__relay/journal?limit=1',
    '/openapi/simple.json',
  ]

  it('answers HEAD on every GET with its status, Content-Type and Content-Length, and no body', async () => {
    for (const path of gets()) {
      const get = await client.request('GET', path, { headers: token() })
      const head = await client.request('HEAD', path, { headers: token() })
      expect(get.text.length, path).toBeGreaterThan(0)
      expect({
        path,
        status: head.status,
        type: head.headers['content-type'],
        length: head.headers['content-length'],
        text: head.text,
      }).toEqual({
        path,
        status: get.status,
        type: get.headers['content-type'],
        length: String(Buffer.byteLength(get.text)),
        text: '',
      })
    }
  })

  it('answers HEAD without a token with the 401 and its challenge, and no body', async () => {
    const answer = await client.request('HEAD', '/vehicles?plate=AB123')
    expect(answer.status).toBe(401)
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer/)
    expect(answer.headers['content-type']).toBe('application/problem+json')
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0)
    expect(answer.text).toBe('')
  })

  it('answers HEAD on a path without GET with 405 and Allow, and no body', async () => {
    const answer = await client.request('HEAD', '/payment', { headers: token() })
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('POST, OPTIONS')
    expect(answer.text).toBe('')
  })

  it('journals a HEAD as HEAD /<path>, never as the GET a flow expects, and leaves a fault armed on the GET for the GET', async () => {
    const own = await service.addWorld({
      scenario: 'existing-vehicle',
      faults: [{ route: 'GET /vehicles', kind: 'unavailable', mode: 'once' }],
    })
    const path = `/vehicles?plate=${own.visit.plate}`
    const head = await client.request('HEAD', path, { headers: auth(own) })
    expect(head.status).toBe(200)
    expect(own.journal.latest()).toMatchObject({
      route: 'HEAD /vehicles',
      auth: 'ok',
      request: { method: 'HEAD' },
      response: { status: 200, body: undefined },
    })
    expect(own.journal.latest()!.fault).toBeUndefined()
    expect((await client.request('GET', path, { headers: auth(own) })).status).toBe(503)
  })

  it.each([
    ['/vehicles', 'GET, HEAD, POST, OPTIONS'],
    [`/vehicles/${ID}`, 'GET, HEAD, OPTIONS'],
    ['/rental-companies', 'GET, HEAD, OPTIONS'],
    ['/payments', 'POST, OPTIONS'],
    ['/payment', 'POST, OPTIONS'],
    ['/__relay/faults', 'GET, HEAD, POST, DELETE, OPTIONS'],
    ['/__relay/scenario', 'POST, PUT, OPTIONS'],
  ])('answers OPTIONS %s with 204, Allow: %s, and no body', async (path, allow) => {
    const answer = await client.request('OPTIONS', path, { headers: token() })
    expect(answer.status).toBe(204)
    expect(answer.headers.allow).toBe(allow)
    expect(answer.headers['content-type']).toBeUndefined()
    expect(answer.text).toBe('')
  })

  it('answers OPTIONS without a token: it describes the path, not a world', async () => {
    const answer = await client.request('OPTIONS', '/vehicles')
    expect(answer.status).toBe(204)
    expect(answer.headers.allow).toBe('GET, HEAD, POST, OPTIONS')
  })

  it('answers OPTIONS on an unknown path with the 404 every method gets there', async () => {
    const options = await client.request('OPTIONS', '/vehicle', { headers: token() })
    const get = await client.request('GET', '/vehicle', { headers: token() })
    expect(options.status).toBe(404)
    expect(options.body).toEqual(get.body)
  })

  it('names in Allow, on every 405, the methods the path answers, HEAD beside GET', async () => {
    const paths = [...new Set(serviceRoutes.map((route) => route.path.replace(':id', ID)))]
    for (const path of paths) {
      const answer = await client.request('PATCH', path, { headers: token() })
      expect(answer.status, path).toBe(405)
      const allow = answer.headers.allow.split(', ')
      expect(allow, path).toContain('OPTIONS')
      expect(allow.includes('HEAD'), path).toBe(allow.includes('GET'))
    }
  })
})
