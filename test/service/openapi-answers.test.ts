// The published OpenAPI documents say everything a client may get. One request for every answer they
// document (each operation, each status, each media type) goes through the real pipeline, and what
// comes back must be that status and media type, with a body its schema accepts; a documented answer no
// request here produces fails. Then every fault kind on every step, and every malformed request on every
// operation: whatever comes back must be an answer the operation's document lists, as it is sent.
import { Ajv } from 'ajv'
import { beforeAll, describe, expect, it, type ExpectStatic } from 'vitest'
import {
  FAULT_KINDS,
  FAULT_STEPS,
  type ArmedFault,
  type FaultKind,
  type FaultRoute,
} from '../../src/core/service/faults.js'
import { createRelayService, type RelayResponse, type RelayService } from '../../src/core/service/mock.js'
import { openApiJson } from '../support/openapi-json.js'
import type { World } from '../../src/core/service/world.js'
import { custodianBody, paymentBody, simpleBody, vehicleBody } from '../support/bodies.js'

const BODY_LIMIT = 4096
const NO_RECORD = '00000000-0000-4000-8000-000000000000'

interface Probe {
  scenario?: string
  fault?: FaultKind
  /** Makes what the request needs in the world first (a payment to fetch). */
  prepare?(world: World, service: RelayService): Promise<unknown>
  /** The request, built in a fresh world of the scenario. */
  build(world: World): { method: string; url: string; headers?: Record<string, string>; body?: string }
}

type Build = Probe['build']

const json = (world: World) => ({ authorization: `Bearer ${world.token}`, 'content-type': 'application/json' })
const existing = (world: World) => world.store.vehicles.activeByPlate(world.visit.plate)[0].id

/** A request that reaches each route's handler and succeeds, by route id. */
const success: Record<string, Build> = {
  'GET /rental-companies': (w) => ({ method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` }),
  'GET /vehicles': (w) => ({ method: 'GET', url: `/vehicles?plate=${w.visit.plate}` }),
  'POST /vehicles': (w) => ({
    method: 'POST',
    url: '/vehicles',
    body: JSON.stringify(vehicleBody()),
    headers: json(w),
  }),
  'POST /custodians': (w) => ({
    method: 'POST',
    url: '/custodians',
    body: JSON.stringify(custodianBody(w, existing(w))),
    headers: json(w),
  }),
  'POST /payments': (w) => ({
    method: 'POST',
    url: '/payments',
    body: JSON.stringify(paymentBody(w, existing(w))),
    headers: json(w),
  }),
  'POST /payment': (w) => ({ method: 'POST', url: '/payment', body: JSON.stringify(simpleBody(w)), headers: json(w) }),
  'GET /rental-companies/{id}': (w) => ({
    method: 'GET',
    url: `/rental-companies/${w.store.rentalCompanies.all()[0].id}`,
  }),
  'GET /vehicles/{id}': (w) => ({ method: 'GET', url: `/vehicles/${existing(w)}` }),
  'GET /custodians/{id}': (w) => ({ method: 'GET', url: `/custodians/${w.store.custodians.all()[0].id}` }),
  'GET /payments/{id}': (w) => ({ method: 'GET', url: `/payments/${w.store.payments.all()[0]?.id ?? 'none'}` }),
}

/** A request the schemas accept and the handler itself refuses (422), by route id: the routes whose handler refuses any. */
const handlerRefusal: Record<string, Probe> = {
  'POST /custodians': {
    build: (w) => ({ ...success['POST /custodians'](w), body: JSON.stringify(custodianBody(w, NO_RECORD)) }),
  },
  'POST /payments': {
    build: (w) => ({ ...success['POST /payments'](w), body: JSON.stringify(paymentBody(w, NO_RECORD)) }),
  },
  'POST /payment': { scenario: 'simple-failure', build: success['POST /payment'] },
}

/** A request that gets `status` as `mediaType` from `operation`; undefined when this test knows none. */
function probe(operation: string, status: number, mediaType: string): Probe | undefined {
  const ok = success[operation]
  const [method] = operation.split(' ')
  const withBody = method === 'POST'
  const broken =
    (body: string, type = 'application/json'): Build =>
    (w) => ({ ...ok(w), body, headers: { ...json(w), 'content-type': type } })
  // The fault garbage sends the status of the handler's answer with a proxy's page instead of its body.
  if (mediaType === 'text/html') {
    const answered = status === 422 ? handlerRefusal[operation] : probe(operation, status, 'application/json')
    return answered && { ...answered, fault: 'garbage' }
  }
  switch (status) {
    case 200:
      if (operation === 'POST /payment') return { scenario: 'simple-failure-ok-status', build: ok }
      if (operation === 'GET /payments/{id}') {
        return {
          prepare: (w, service) => service.handle({ headers: json(w), ...success['POST /payments'](w) }),
          build: ok,
        }
      }
      return { build: ok }
    case 201:
      return { build: ok }
    case 401:
      // The simple endpoint answers a revoked token in its own shape, plain JSON; a token it does not know as a problem.
      if (mediaType === 'application/json') return { fault: 'token-revoked', build: ok }
      return {
        build: (w) => ({ ...ok(w), headers: { ...(ok(w).headers ?? {}), authorization: 'Bearer not-a-token' } }),
      }
    case 400:
      return withBody ? { build: broken('{"plate": ') } : undefined
    case 413:
      return withBody ? { build: broken(JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT) })) } : undefined
    case 415:
      return withBody ? { build: broken('{}', 'text/plain') } : undefined
    case 422:
      return withBody
        ? { build: broken('{}') }
        : { build: (w) => ({ ...ok(w), url: ok(w).url.replace(/=.*$/, '=%20') }) }
    case 404:
      return { build: (w) => ({ ...ok(w), url: ok(w).url.replace(/\/[^/]+$/, `/${NO_RECORD}`) }) }
    case 429:
      return { fault: 'rate-limited', build: ok }
    case 500:
      return { fault: 'server-error', build: ok }
    case 503:
      return { fault: 'unavailable', build: ok }
  }
  return undefined
}

interface Operation {
  operation: string
  path: string
  responses: Record<string, any>
}

function operationsOf(document: any): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]: [string, any]) => ({
      operation: `${method.toUpperCase()} ${path}`,
      path,
      responses: op.responses,
    })),
  )
}

const documents = { advanced: openApiJson('advanced'), simple: openApiJson('simple') }
const operations = [...operationsOf(documents.advanced), ...operationsOf(documents.simple)]
const responsesOf = (operation: string) => operations.find((o) => o.operation === operation)!.responses
/** A URL of the path, its parameters filled in (with an id that names nothing). */
const urlOf = (path: string) => path.replace(/\{\w+\}/g, NO_RECORD)

const ajv = new Ajv({ strict: false, allErrors: true })

/**
 * Checks that `responses` lists the answer as it came: its status, its media type under that status,
 * a body that media type's schema accepts, every header it carries (but Content-Type), and every header
 * the status requires.
 */
function expectListed(
  responses: Record<string, any>,
  answer: RelayResponse,
  what: string,
  check: ExpectStatic = expect,
): void {
  check(Object.keys(responses), `${what} answered ${answer.status}, which its document does not list`).toContain(
    String(answer.status),
  )
  const documented = responses[String(answer.status)]
  const mediaType = String(answer.headers['content-type']).split(';')[0].trim()
  check(
    Object.keys(documented.content ?? {}),
    `${what} answered ${answer.status} as ${mediaType}, which its document does not list`,
  ).toContain(mediaType)
  const validate = ajv.compile(documented.content[mediaType].schema)
  const body = mediaType.endsWith('json') ? JSON.parse(answer.text) : answer.text
  check(validate(body), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true)
  const names = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase())
  for (const name of Object.keys(answer.headers).filter((name) => name !== 'content-type')) {
    check(names, `${what} sent the header ${name}, which its document does not list for ${answer.status}`).toContain(
      name,
    )
  }
  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    if (header.required) check(answer.headers[name.toLowerCase()], `${what}: ${name}`).toBeDefined()
  }
}

describe('the OpenAPI documents list every answer, as it is sent', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createRelayService({ tokens: [], bodyLimit: BODY_LIMIT })
  })

  /** Sends a probe's request in a fresh world of its scenario, with its fault armed. */
  async function send(found: Probe, route?: string): Promise<{ world: World; answer: RelayResponse }> {
    const faults: ArmedFault[] = found.fault ? [{ route: route as FaultRoute, kind: found.fault, mode: 'once' }] : []
    const world = await service.addWorld({ scenario: found.scenario ?? 'existing-vehicle', faults })
    await found.prepare?.(world, service)
    const request = found.build(world)
    const answer = await service.handle({
      ...request,
      headers: request.headers ?? { authorization: `Bearer ${world.token}` },
    })
    return { world, answer }
  }

  const documented = operations.flatMap(({ operation, responses }) =>
    Object.entries<any>(responses).flatMap(([status, response]) =>
      Object.keys(response.content ?? {}).map((mediaType) => ({ operation, status: Number(status), mediaType })),
    ),
  )

  it('documents each answer of the pipeline, each media type it is sent as', () => {
    expect(documented.length).toBeGreaterThan(60)
    const simple = responsesOf('POST /payment')
    const typesOf = (status: string) => Object.keys(simple[status].content).sort()
    expect(Object.keys(simple)).toEqual(['200', '201', '400', '401', '413', '415', '422', '429', '500', '503'])
    expect(typesOf('201')).toEqual(['application/json', 'text/html'])
    expect(typesOf('401')).toEqual(['application/json', 'application/problem+json'])
    expect(Object.keys(simple['201'].headers)).toEqual(['Location'])
    expect(Object.keys(responsesOf('POST /vehicles')['201'].content).sort()).toEqual(['application/json', 'text/html'])
    // A link is no step of a flow: no fault breaks it.
    expect(Object.keys(responsesOf('GET /vehicles/{id}')['200'].content)).toEqual(['application/json'])
    expect(Object.keys(documents.advanced.components.responses)).toEqual(['MethodNotAllowed', 'UnknownPath'])
  })

  it.each(documented)(
    '$operation answers $status as $mediaType as documented',
    async ({ operation, status, mediaType }) => {
      const found = probe(operation, status, mediaType)
      expect(
        found,
        `no request in this test produces ${status} as ${mediaType} for ${operation}: add one`,
      ).toBeDefined()
      const { answer } = await send(found!, operation)
      expect(answer.status).toBe(status)
      expect(String(answer.headers['content-type']).split(';')[0]).toBe(mediaType)
      expectListed(responsesOf(operation), answer, operation)
    },
  )

  // The faults that break the transport send no answer to document: reset and hang no status line at
  // all, truncated the handler's status and headers with a body cut short, which no schema describes.
  const TRANSPORT: FaultKind[] = ['reset', 'hang', 'truncated']
  const faulted = (Object.keys(FAULT_KINDS) as FaultKind[])
    .filter((kind) => !TRANSPORT.includes(kind))
    .flatMap((kind) =>
      Object.entries(FAULT_STEPS).flatMap(([step, route]) => [
        { kind, step, route, request: 'accepted', found: { build: success[route] } },
        ...(handlerRefusal[route]
          ? [{ kind, step, route, request: 'refused by the handler', found: handlerRefusal[route] }]
          : []),
      ]),
    )

  // Concurrent: each of the six `slow` ones takes 2 s.
  it.concurrent.for(faulted)(
    'the fault $kind on $step ($route), a request $request: a documented answer',
    async ({ kind, route, found }, { expect }) => {
      const { world, answer } = await send({ ...found, fault: kind }, route)
      expect(world.journal.entries().at(-1)?.fault?.kind, 'the fault was met').toBe(kind)
      expectListed(responsesOf(route), answer, `${route} with the fault ${kind}`, expect)
    },
  )

  const malformed: Record<string, (request: ReturnType<Build>, world: World) => ReturnType<Build>> = {
    'no token': (r) => ({ ...r, headers: { ...r.headers, authorization: '' } }),
    'a token that is not Bearer': (r) => ({ ...r, headers: { ...r.headers, authorization: 'Basic dXNlcjpwYXNz' } }),
    'an unknown token': (r) => ({ ...r, headers: { ...r.headers, authorization: 'Bearer not-a-token' } }),
    'a body as text/plain': (r, w) => ({
      ...r,
      headers: { ...json(w), 'content-type': 'text/plain' },
      body: r.body ?? '{}',
    }),
    'a body in latin1': (r, w) => ({
      ...r,
      headers: { ...json(w), 'content-type': 'application/json; charset=latin1' },
      body: r.body ?? '{}',
    }),
    'a body with no Content-Type': (r, w) => ({
      ...r,
      headers: { authorization: `Bearer ${w.token}` },
      body: r.body ?? '{}',
    }),
    'an empty body': (r, w) => ({ ...r, headers: json(w), body: '' }),
    'a body that is not JSON': (r, w) => ({ ...r, headers: json(w), body: '{"plate": ' }),
    'a body nested 100 deep': (r, w) => ({ ...r, headers: json(w), body: '['.repeat(100) + ']'.repeat(100) }),
    'a body over the limit': (r, w) => ({
      ...r,
      headers: json(w),
      body: JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT) }),
    }),
    'a body with a field of the wrong type': (r, w) => ({ ...r, headers: json(w), body: '{"plate": 7}' }),
    'an empty query': (r) => ({ ...r, url: r.url.replace(/\?.*$/, '') }),
  }
  const wrong = operations.flatMap(({ operation }) => Object.keys(malformed).map((request) => ({ operation, request })))

  it.each(wrong)('$operation, sent $request: a documented answer', async ({ operation, request }) => {
    const world = await service.addWorld({ scenario: 'existing-vehicle' })
    const sent = malformed[request](success[operation](world), world)
    const answer = await service.handle({ headers: { authorization: `Bearer ${world.token}` }, ...sent })
    expectListed(responsesOf(operation), answer, `${operation} sent ${request}`)
  })

  // A method a path lacks, and a path no operation has, are the path's answers: the documents list them
  // once, under components.responses. HEAD and OPTIONS are left out of the documents (see the README).
  const methods = [...new Set(operations.map((o) => o.path))].flatMap((path) =>
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
      .filter((method) => !operations.some((o) => o.operation === `${method} ${path}`))
      .map((method) => ({ method, path })),
  )

  it.each(methods)('$method $path, a method the path lacks: the 405 the documents list', async ({ method, path }) => {
    const world = await service.addWorld({ scenario: 'existing-vehicle' })
    const answer = await service.handle({
      method,
      url: urlOf(path),
      headers: json(world),
      body: method === 'GET' ? undefined : '{}',
    })
    expect(answer.status).toBe(405)
    expectListed({ 405: documents.advanced.components.responses.MethodNotAllowed }, answer, `${method} ${path}`)
  })

  it.each(['GET /rental-comapnies', 'POST /payments/', 'DELETE /nowhere'])(
    '%s, a path no operation has: the 404 the documents list',
    async (request) => {
      const [method, url] = request.split(' ')
      const world = await service.addWorld({ scenario: 'existing-vehicle' })
      const answer = await service.handle({
        method,
        url,
        headers: json(world),
        body: method === 'POST' ? '{}' : undefined,
      })
      expect(answer.status).toBe(404)
      expectListed({ 404: documents.simple.components.responses.UnknownPath }, answer, request)
    },
  )
})
