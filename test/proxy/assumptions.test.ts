// The assumption ledger held against real answers: relay-mock's own server confirms every choice and
// departs from nothing; an upstream that makes the ledger's alternatives contradicts each, naming the
// alternative and the variant cases to run; one that departs from the interface itself gives findings.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import { describe, expect, it } from 'vitest'
import { ASSUMPTIONS } from '../../src/core/ledger/assumptions.js'
import { ASSUMPTION_CHECKS, createMemory, learn, type Memory, type Observed } from '../../src/core/ledger/checks.js'
import { variantCases } from '../../src/core/ledger/next-step.js'
import { nextStep, type AssumptionReport } from '../../src/core/ledger/report.js'
import { toVariants } from '../../src/core/service/variants.js'
import { selectCases } from '../../src/node/runner/select.js'
import {
  activeVehicle,
  custodianBody,
  firstCompany,
  FRESH_PLATE,
  paymentBody,
  simpleBody,
  vehicleBody,
} from '../support/bodies.js'
import { call, closeAfterEach, handUpstream, mockUpstream, proxyTo, rawCall } from '../support/proxy.js'
import variantsSuite from '../../suites/variants.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'

describe("a world's memory", () => {
  it('keeps the links of the latest creates, and never more than 1,000', () => {
    const memory: Memory = createMemory()
    const create = (i: number): Observed => {
      const id = randomUUID()
      return {
        seq: i,
        method: 'POST',
        path: '/vehicles',
        search: '',
        query: {},
        route: 'POST /vehicles',
        body: undefined,
        hasBody: true,
        bearer: true,
        status: 201,
        headers: {},
        text: JSON.stringify({ id, link: `/vehicles/${id}` }),
      }
    }
    let last = ''
    for (let i = 0; i < 5000; i++) {
      const observed = create(i)
      learn(observed, memory)
      last = JSON.parse(observed.text).link
    }
    expect(memory.links.size).toBeLessThanOrEqual(1000)
    expect(memory.links.size).toBeGreaterThanOrEqual(500)
    expect(memory.links.has(last)).toBe(true)
  })

  it('forgets an unknown owner once the service knows it, though 500 others came after it', () => {
    const memory: Memory = createMemory()
    const lookup = (seq: number, kennitala: string, companies: unknown[]): Observed => ({
      seq,
      method: 'GET',
      path: '/rental-companies',
      search: `?kennitala=${kennitala}`,
      query: { kennitala },
      route: 'GET /rental-companies',
      body: undefined,
      hasBody: false,
      bearer: true,
      status: 200,
      headers: {},
      text: JSON.stringify(companies),
    })
    learn(lookup(1, '0101302989', []), memory)
    for (let i = 0; i < 600; i++) learn(lookup(i + 2, String(1_000_000_000 + i), []), memory)
    expect(memory.unknownOwners.has('0101302989')).toBe(true)
    learn(lookup(700, '0101302989', [{ id: randomUUID(), kennitala: '0101302989', name: 'Bílaleiga' }]), memory)
    expect(memory.unknownOwners.has('0101302989')).toBe(false)
    expect(memory.unknownOwners.size).toBe(600)
  })
})

describe('the checks of the ledger', () => {
  // That every assumption has a check or a reason, and nothing else does, is ASSUMPTION_CHECKS's type
  // (a Record over the ledger's ids); that the reason is a sentence, no type says.
  it('says in a sentence why traffic cannot show each assumption it has no check for', () => {
    const reasons = Object.entries(ASSUMPTION_CHECKS).flatMap(([id, check]) =>
      typeof check === 'function' ? [] : [[id, check.notObservable] as const],
    )
    expect(reasons.length).toBeGreaterThan(0)
    for (const [id, reason] of reasons) expect(reason, id).toMatch(/^\S.{20,}[.)]$/s)
  })

  it('names the variant cases of an alternative, and the command that runs them, in one place', () => {
    expect(variantCases('create.status', '200-no-location')).toEqual({
      pattern: 'variants/create.status=200-no-location/*',
      command: "relay-mock conform --suite variants --case 'variants/create.status=200-no-location/*'",
    })
    // The patterns select the variants suite's own cases: one for each served alternative.
    for (const entry of ASSUMPTIONS) {
      for (const alternative of entry.alternatives) {
        const { pattern } = variantCases(entry.id, alternative.id)
        const selected = variantsSuite.cases.filter((kase) => kase.id.startsWith(pattern.slice(0, -1)))
        expect(selected.length > 0, pattern).toBe(
          variantsSuite.cases.some((kase) => kase.variants?.[entry.id] === alternative.id),
        )
      }
    }
  })
})

describe('the next step a report suggests', () => {
  it('runs as written for every alternative of the ledger, and for none of them: its cases exist, or the variant it serves does', () => {
    for (const entry of ASSUMPTIONS) {
      for (const alternative of [...entry.alternatives.map((a) => a.id), null]) {
        const step = nextStep(entry.id, alternative)
        const where = `${entry.id}=${alternative}`
        if (step.command === null) {
          expect(step.notServed ?? step.notVaried, where).toBeTruthy()
          continue
        }
        const conform = /^relay-mock conform --suite variants --case '([^']+)'$/.exec(step.command)
        const serve = /^relay-mock serve --variant (\S+)$/.exec(step.command)
        expect(conform ?? serve, `${where}: ${step.command}`).toBeTruthy()
        if (conform) expect(selectCases({ suites: ['variants'], cases: [conform[1]] }).length, where).toBeGreaterThan(0)
        if (serve) expect(() => toVariants([serve[1]]), where).not.toThrow()
      }
    }
    expect(nextStep('invalid.status', '400')).toMatchObject({
      cases: null,
      command: 'relay-mock serve --variant invalid.status=400',
      notVaried: expect.stringMatching(/no flow case meets/),
    })
  })
})

const ADMIN = 'admin-token-of-the-tests'

/** The whole traffic's report (a request without a token belongs to no world: the admin token sees it). */
async function report(url: string): Promise<AssumptionReport & { world: string | null }> {
  const answer = await call(`${url}/__relay/assumptions?scope=all`, ADMIN)
  expect(answer.status).toBe(200)
  return answer.body
}

const statusOf = (r: AssumptionReport, id: string) => r.assumptions.find((a) => a.id === id)!
/** A body's text with its whole numbers written with a fraction (`3990.0`): the same value to JSON.parse. */
const wholeAsFraction = (text: string) => text.replace(/(":)(\d+)([,}])/g, '$1$2.0$3')

describe('in front of relay-mock serve', () => {
  it('contradicts nothing and finds nothing, whatever the client sends', async () => {
    const upstream = await mockUpstream({ scenario: 'multiple-vehicles' })
    const proxy = await proxyTo(upstream.url, { adminToken: ADMIN })
    const world = upstream.service.world
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    const company = firstCompany(world)
    await api(`/rental-companies?kennitala=${company.kennitala}&page=2`)
    await api(`/rental-companies?kennitala=${world.hints.unknownKennitala}`)
    await api(`/rental-companies?kennitala=${company.kennitala.slice(0, 6)}-${company.kennitala.slice(6)}`)
    await api(`/vehicles?plate=${world.visit.plate.toLowerCase()}`)
    await api(`/vehicles?plate=${FRESH_PLATE}`)
    const vehicle = (await api('/vehicles', { body: vehicleBody({ country: 'de' }) })).body
    const custodian = (await api('/custodians', { body: custodianBody(world, vehicle.id) })).body
    const payment = (await api('/payments', { body: paymentBody(world, activeVehicle(world).id) })).body
    for (const link of [vehicle.link, custodian.link, payment.link]) await api(link)
    await api(`/rental-companies/${company.id}`)
    await api('/vehicles', { body: vehicleBody({ plate: '' }) })
    await api('/vehicles', { body: '{"plate":', headers: { 'content-type': 'application/json' } })
    await api('/vehicles', { body: JSON.stringify(vehicleBody()), headers: { 'content-type': 'text/plain' } })
    await api('/payment', { body: simpleBody(world) })
    await api('/payment', { body: simpleBody(world, { vehicle: { owner: world.hints.unknownKennitala } }) })
    await api('/payment', { body: simpleBody(world, { payment: { currency: 'EUR' } }) })
    await api('/rental-comapnies?kennitala=1')
    await api('/payment')
    await api('/vehicle')
    await api('/vehicles', { method: 'DELETE' })
    await api(`/vehicles?plate=${FRESH_PLATE}`, { method: 'HEAD' })
    await api('/vehicles', { method: 'OPTIONS' })
    await rawCall(`${proxy.url}/vehicles?plate=AB123`, {
      method: 'GET',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"plate":"AB123"}',
    })
    await call(`${proxy.url}/vehicles?plate=AB123`, undefined)
    await call(`${proxy.url}/vehicles`, undefined, { body: vehicleBody({ plate: 7 }) })
    await call(`${proxy.url}/vehicles?plate=AB123`, 'not-a-token-of-upstream')
    // The forms relay-mock accepts beyond the interface's text (leniency.ts): each taken.
    await rawCall(`${proxy.url}/vehicles?plate=${FRESH_PLATE}`, {
      method: 'GET',
      headers: { authorization: `bearer ${TOKEN}` },
    })
    await api('/vehicles', {
      body: JSON.stringify(vehicleBody({ plate: 'LN123' })),
      headers: { 'content-type': 'application/vnd.relay+json' },
    })
    await api('/custodians', { body: { ...custodianBody(world, vehicle.id), acquiredOn: '2024-03-01' } })
    await api('/payment', { body: wholeAsFraction(JSON.stringify(simpleBody(world))) })
    await api('/vehicles', {
      body: JSON.stringify(vehicleBody({ plate: 'DK123' })).replace('"country"', '"plate":"DK123","country"'),
    })

    const whole = await report(proxy.url)
    expect(
      whole.assumptions.filter((a) => a.status === 'contradicted').map((a) => [a.id, JSON.stringify(a.evidence)]),
    ).toEqual([])
    expect(whole.findings).toEqual([])
    const confirmed = whole.assumptions.filter((a) => a.status === 'confirmed').map((a) => a.id)
    for (const id of ASSUMPTIONS.map((a) => a.id).filter(
      (id) => typeof ASSUMPTION_CHECKS[id as keyof typeof ASSUMPTION_CHECKS] === 'function',
    )) {
      expect(confirmed, id).toContain(id)
    }
    expect(statusOf(whole, 'create.status').evidence[0]).toMatchObject({
      request: 'POST /vehicles',
      relayMock: '201 with Location',
    })
    // A token sees its own world's standing only: the requests without a token are not in it.
    const own = (await call(`${proxy.url}/__relay/assumptions`, TOKEN)).body
    expect(own.world).toBe('world-1')
    expect(statusOf(own, 'auth.refusal').status).toBe('unseen')
  })
})

describe('in front of relay-mock serve --variant', () => {
  // Each alternative relay-mock serves, served by relay-mock itself: the proxy finds it, as it would on the real service.
  const served = ASSUMPTIONS.flatMap((entry) =>
    entry.alternatives.filter((a) => a.notServed === undefined).map((a) => [entry.id, a.id] as const),
  )
  it.each(served)('finds %s contradicted by its alternative %s', async (id, alternative) => {
    const upstream = await mockUpstream({ scenario: 'new-vehicle', variants: [`${id}=${alternative}`] })
    const proxy = await proxyTo(upstream.url, { adminToken: ADMIN })
    const world = upstream.service.world
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    await api(`/rental-companies?kennitala=${firstCompany(world).kennitala}`)
    // The proxy knows an owner is not registered from an empty company lookup it saw (simple.unknown-owner).
    await api(`/rental-companies?kennitala=${world.hints.unknownKennitala}`)
    await api(`/vehicles?plate=${world.visit.plate}`)
    const vehicle = (await api('/vehicles', { body: vehicleBody() })).body
    await api('/custodians', { body: custodianBody(world, vehicle.id) })
    await api('/payments', { body: paymentBody(world, vehicle.id) })
    await api(vehicle.link)
    await api('/vehicles', { body: vehicleBody({ plate: '' }) })
    await api('/payment', { body: simpleBody(world) })
    await api('/payment', { body: simpleBody(world, { vehicle: { owner: world.hints.unknownKennitala } }) })
    await api('/payment', { body: simpleBody(world, { payment: { currency: 'EUR' } }) })
    await call(`${proxy.url}/vehicles?plate=AB123`, undefined)
    // The forms relay-mock accepts beyond the interface's text (leniency.ts), which the strict alternatives refuse.
    await api(`/vehicles?plate=${world.visit.plate}&_=1795791066550`)
    await rawCall(`${proxy.url}/vehicles?plate=${world.visit.plate}`, {
      method: 'GET',
      headers: { authorization: `bearer ${TOKEN}` },
    })
    await rawCall(`${proxy.url}/vehicles?plate=${world.visit.plate}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"plate":"AB123"}',
    })
    await api('/vehicles', {
      body: JSON.stringify(vehicleBody({ plate: 'LN123' })),
      headers: { 'content-type': 'application/vnd.relay+json' },
    })
    await api('/custodians', { body: { ...custodianBody(world, vehicle.id), acquiredOn: '2024-03-01' } })
    await api(`/vehicles?plate=${vehicleBody().plate.toLowerCase()}`)
    await api('/payment', { body: wholeAsFraction(JSON.stringify(simpleBody(world))) })
    await api('/vehicles', {
      body: JSON.stringify(vehicleBody({ plate: 'DK123' })).replace('"country"', '"plate":"DK123","country"'),
    })

    const standing = statusOf(await report(proxy.url), id)
    expect(standing.status).toBe('contradicted')
    expect(standing.variants?.map((v) => v.alternative)).toContain(alternative)
  })
})

/** An upstream that makes, for each observable assumption, one of the ledger's alternatives. */
async function alternativesUpstream(): Promise<string> {
  const unknownOwner = '6912749999'
  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
  return handUpstream((req, res) => {
    let text = ''
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => {
      const url = new URL(req.url!, 'http://upstream')
      const body = text ? JSON.parse(text) : undefined
      if (!req.headers.authorization) return json(res, 403, { message: 'Forbidden' })
      const route = `${req.method} ${url.pathname}`
      if (route === 'GET /rental-companies')
        return json(
          res,
          200,
          url.searchParams.get('kennitala') === unknownOwner
            ? []
            : [{ id: randomUUID(), name: 'Bílaleiga ehf.', kennitala: '6803488209' }],
        )
      if (route === 'GET /vehicles')
        return json(res, 200, [
          { id: randomUUID(), plate: 'AB123', country: 'is', active: true, createdAt: '2026-01-01' },
        ])
      if (route === 'POST /vehicles' || route === 'POST /custodians') {
        if (typeof body?.plate !== 'string' && route === 'POST /vehicles')
          return json(res, 400, { message: 'plate is required' })
        const id = randomUUID()
        return json(res, 200, { id, link: `${url.pathname}/${id}` })
      }
      if (route === 'POST /payment') {
        if (body?.payment?.currency !== 'ISK') return json(res, 400, { message: 'Only ISK' })
        return json(res, 200, { id: randomUUID() })
      }
      if (route === 'GET /rental-comapnies') return json(res, 200, [])
      return json(res, 404, { message: 'Not found' })
    })
  })
}

describe('in front of a service that made the alternatives', () => {
  it('contradicts each assumption, naming the alternative and the variant cases that now matter most', async () => {
    const proxy = await proxyTo(await alternativesUpstream(), { adminToken: ADMIN })
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    await api('/rental-companies?kennitala=6912749999')
    await api('/vehicles?plate=AB123')
    const vehicle = (await api('/vehicles', { body: vehicleBody() })).body
    await api(vehicle.link)
    await api('/vehicles', { body: vehicleBody({ plate: 7 }) })
    await api('/payment', {
      body: {
        location: randomUUID(),
        vehicle: { owner: '6912749999', plate: 'AB123', acquiredOn: '2025-01-01' },
        visit: { startedOn: '2026-11-21 09:14:05', endedOn: '2026-11-21 09:31:47' },
        payment: { amount: 2490, currency: 'ISK' },
      },
    })
    await api('/payment', {
      body: {
        location: randomUUID(),
        vehicle: { owner: '6803488209', plate: 'AB123', acquiredOn: '2025-01-01' },
        visit: { startedOn: '2026-11-21 09:14:05', endedOn: '2026-11-21 09:31:47' },
        payment: { amount: 2490, currency: 'EUR' },
      },
    })
    await api('/rental-comapnies?kennitala=6803488209')
    await api('/payment')
    await call(`${proxy.url}/vehicles?plate=AB123`, undefined)

    const whole = await report(proxy.url)
    const expected: Record<string, string> = {
      'create.status': '200-no-location',
      'invalid.status': '400',
      'error.body': 'json-message',
      'auth.refusal': '403',
      'simple.answer': 'id-only',
      'simple.refusal-status': '400',
      'simple.unknown-owner': 'accepted',
      'records.extra-fields': 'extra',
      'links.fetchable': 'not-fetchable',
      'slip.path': 'served',
      'slip.method': '404',
    }
    for (const [id, alternative] of Object.entries(expected)) {
      const standing = statusOf(whole, id)
      expect(standing.status, id).toBe('contradicted')
      expect(
        standing.variants?.map((v) => v.alternative),
        id,
      ).toContain(alternative)
      expect(standing.evidence[0].seq, id).toBeGreaterThan(0)
    }
    const createStatus = statusOf(whole, 'create.status')
    expect(createStatus.evidence[0]).toMatchObject({
      request: 'POST /vehicles',
      relayMock: '201 with Location',
      came: '200 without Location',
      alternative: '200-no-location',
    })
    expect(createStatus.variants![0].command).toBe(variantCases('create.status', '200-no-location').command)
    // An alternative relay-mock serves no variant of says why instead of naming cases.
    const slip = statusOf(whole, 'slip.method').variants!.find((v) => v.alternative === '404')!
    expect(slip).toMatchObject({ cases: null, command: null })
    expect(slip.notServed).toMatch(/never meets it/)
  })
})

describe('links.fetchable', () => {
  it('is judged on the link of a record a lookup listed, not only of one a create answered', async () => {
    const listed = randomUUID()
    const url = await handUpstream((req, res) => {
      req.resume().on('end', () => {
        const path = new URL(req.url!, 'http://upstream').pathname
        res.writeHead(path === '/vehicles' || path === '/rental-companies' ? 200 : 404, {
          'content-type': 'application/json',
        })
        res.end(
          path === '/vehicles'
            ? JSON.stringify([{ id: listed, plate: 'AB123', country: 'is' }])
            : path === '/rental-companies'
              ? '[]'
              : '{"message":"Not found"}',
        )
      })
    })
    const proxy = await proxyTo(url, { adminToken: ADMIN })
    // A link the proxy never saw a record for tells nothing.
    await call(`${proxy.url}/vehicles/${randomUUID()}`, TOKEN)
    expect(statusOf(await report(proxy.url), 'links.fetchable').status).toBe('unseen')
    await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    await call(`${proxy.url}/vehicles/${listed}`, TOKEN)
    const standing = statusOf(await report(proxy.url), 'links.fetchable')
    expect(standing).toMatchObject({
      status: 'contradicted',
      evidence: [
        expect.objectContaining({ request: `GET /vehicles/${listed}`, came: '404', alternative: 'not-fetchable' }),
      ],
    })
  })
})

describe('in front of a service that departs from the interface', () => {
  it('reports each departure as a finding: ids not UUIDs, a link of another form, a field missing or of another type, a body that is not JSON', async () => {
    const url = await handUpstream((req, res) => {
      req.resume().on('end', () => {
        const path = new URL(req.url!, 'http://upstream').pathname
        if (path === '/vehicles' && req.method === 'POST') {
          res.writeHead(201, { 'content-type': 'application/json', location: '/vehicle/42' })
          return res.end(JSON.stringify({ id: '42', link: '/vehicle/42' }))
        }
        if (path === '/rental-companies') {
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(JSON.stringify([{ id: randomUUID(), kennitala: 6803488209 }]))
        }
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<html>Maintenance</html>')
      })
    })
    const proxy = await proxyTo(url, { adminToken: ADMIN })
    await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    await call(`${proxy.url}/rental-companies?kennitala=6803488209`, TOKEN)
    await call(`${proxy.url}/rental-companies?kennitala=6803488209`, TOKEN)
    await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    const { findings } = await report(proxy.url)
    const kinds = findings.map((f) => f.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['id-not-uuid', 'link-form', 'field-missing', 'field-type', 'not-json']),
    )
    expect(findings.find((f) => f.kind === 'id-not-uuid')!.message).toMatch(
      /POST \/vehicles answered id "42", not in UUID form/,
    )
    expect(findings.find((f) => f.kind === 'field-missing')).toMatchObject({
      count: 2,
      message: expect.stringMatching(/without the documented field name/),
    })
    expect(findings.find((f) => f.kind === 'not-json')!.message).toMatch(
      /GET \/vehicles answered 200 with a body that is not JSON \(text\/html\)/,
    )
  })
})

describe('the report as a page', () => {
  it("is linked from the proxy's live page (not serve's) and answered as HTML to a browser", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    const live = await call(`${proxy.url}/__relay/`, undefined, { headers: { accept: 'text/html' } })
    expect(live.text).toContain('id="assumptions-link"')
    expect(live.text).toContain(`Assumptions against ${upstream.url}`)
    expect(
      (await call(`${upstream.url}/__relay/`, undefined, { headers: { accept: 'text/html' } })).text,
    ).not.toContain('assumptions-link')
    const page = await call(`${proxy.url}/__relay/assumptions`, TOKEN, { headers: { accept: 'text/html' } })
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.text).toContain(`relay-mock's assumptions against ${upstream.url}`)
    expect(page.text).toMatch(/✓ confirmed: <code>create\.status<\/code>/)
    expect(page.text).not.toContain(TOKEN)
    // The ledger's prose as formatted text: its backticks are code, and each sentence ends with one stop.
    expect(page.text).not.toContain('`')
    expect(page.text).not.toMatch(/\.\.(?!\.)/)
    expect(page.text).toContain('<code>Location</code>')
  })

  it('suggests a command that runs for an assumption conform does not vary, and reads it as prose', async () => {
    const url = await handUpstream((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(400, { 'content-type': 'application/problem+json' })
        res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, message: 'plate is invalid' }))
      })
    })
    const proxy = await proxyTo(url, { adminToken: ADMIN })
    await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody({ plate: 7 }) })
    const page = await call(`${proxy.url}/__relay/assumptions?scope=all`, ADMIN, { headers: { accept: 'text/html' } })
    expect(page.text).toMatch(/✗ contradicted: <code>invalid\.status<\/code>/)
    expect(page.text).toContain(
      'Run <code>relay-mock serve --variant invalid.status=400</code> (conform has no cases for it',
    )
    expect(page.text).not.toContain('variants/invalid.status')
  })
})
