// The published OpenAPI documents say everything a client may get: one request for every answer they
// document (each operation, each status) goes through the real pipeline, and what comes back must be
// that status, with the media type the document gives, and a body its schema accepts. An answer the
// document does not list fails, and so does a documented answer no request here produces.
import { Ajv } from 'ajv'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ArmedFault, FaultKind } from '../../src/core/faults.js'
import { createRelayService, type RelayService } from '../../src/core/mock.js'
import { toOpenApi } from '../../src/core/openapi.js'
import type { World } from '../../src/core/world.js'
import { custodianBody, paymentBody, simpleBody, vehicleBody } from '../support/bodies.js'

const BODY_LIMIT = 4096

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
  'POST /vehicles': (w) => ({ method: 'POST', url: '/vehicles', body: JSON.stringify(vehicleBody()), headers: json(w) }),
  'POST /custodians': (w) => ({ method: 'POST', url: '/custodians', body: JSON.stringify(custodianBody(w, existing(w))), headers: json(w) }),
  'POST /payments': (w) => ({ method: 'POST', url: '/payments', body: JSON.stringify(paymentBody(w, existing(w))), headers: json(w) }),
  'POST /payment': (w) => ({ method: 'POST', url: '/payment', body: JSON.stringify(simpleBody(w)), headers: json(w) }),
  'GET /rental-companies/{id}': (w) => ({ method: 'GET', url: `/rental-companies/${w.store.rentalCompanies.all()[0].id}` }),
  'GET /vehicles/{id}': (w) => ({ method: 'GET', url: `/vehicles/${existing(w)}` }),
  'GET /custodians/{id}': (w) => ({ method: 'GET', url: `/custodians/${w.store.custodians.all()[0].id}` }),
  'GET /payments/{id}': (w) => ({ method: 'GET', url: `/payments/${w.store.payments.all()[0]?.id ?? 'none'}` }),
}

function probe(operation: string, status: number): Probe | undefined {
  const ok = success[operation]
  const [method] = operation.split(' ')
  const withBody = method === 'POST'
  const broken = (body: string, type = 'application/json'): Build => (w) => ({ ...ok(w), body, headers: { ...json(w), 'content-type': type } })
  switch (status) {
    case 200:
      if (operation === 'POST /payment') return { scenario: 'simple-failure-ok-status', build: ok }
      if (operation === 'GET /payments/{id}') {
        return { prepare: (w, service) => service.handle({ headers: json(w), ...success['POST /payments'](w) }), build: ok }
      }
      return { build: ok }
    case 201:
      return { build: ok }
    case 401:
      return { build: (w) => ({ ...ok(w), headers: { ...(ok(w).headers ?? {}), authorization: 'Bearer not-a-token' } }) }
    case 400:
      return withBody ? { build: broken('{"plate": ') } : undefined
    case 413:
      return withBody ? { build: broken(JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT) })) } : undefined
    case 415:
      return withBody ? { build: broken('{}', 'text/plain') } : undefined
    case 422:
      return withBody ? { build: broken('{}') } : { build: (w) => ({ ...ok(w), url: ok(w).url.replace(/=.*$/, '=%20') }) }
    case 404:
      return { build: (w) => ({ ...ok(w), url: ok(w).url.replace(/\/[^/]+$/, '/00000000-0000-4000-8000-000000000000') }) }
    case 429:
      return { fault: 'rate-limited', build: ok }
    case 500:
      return { fault: 'server-error', build: ok }
    case 503:
      return { fault: 'unavailable', build: ok }
  }
  return undefined
}

function operationsOf(document: any): Array<{ operation: string; responses: Record<string, any> }> {
  return Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]: [string, any]) => ({ operation: `${method.toUpperCase()} ${path}`, responses: op.responses })),
  )
}

describe('the OpenAPI documents list every answer, as it is sent', () => {
  let service: RelayService
  const ajv = new Ajv({ strict: false, allErrors: true })
  beforeAll(async () => {
    service = await createRelayService({ tokens: [], bodyLimit: BODY_LIMIT })
  })

  const cases = (['advanced', 'simple'] as const).flatMap((integration) =>
    operationsOf(toOpenApi(integration)).flatMap(({ operation, responses }) => Object.keys(responses).map((status) => ({ operation, status: Number(status), responses }))),
  )

  it('documents every status a request to each operation can get from the pipeline', () => {
    expect(cases.length).toBeGreaterThan(40)
    const simple = operationsOf(toOpenApi('simple'))[0].responses
    expect(Object.keys(simple).sort()).toEqual(['200', '201', '400', '401', '413', '415', '422', '429', '500', '503'])
  })

  it.each(cases)('$operation answers $status as documented', async ({ operation, status, responses }) => {
    const found = probe(operation, status)
    expect(found, `no request in this test produces ${status} for ${operation}: add one`).toBeDefined()
    const world = await service.addWorld({ scenario: found!.scenario ?? 'existing-vehicle', faults: found!.fault ? [faultOn(operation, found!.fault)] : [] })
    await found!.prepare?.(world, service)
    const request = found!.build(world)
    const answer = await service.handle({ headers: { authorization: `Bearer ${world.token}` }, ...request })
    expect(Object.keys(responses), `${operation} answered ${answer.status}, which its document does not list`).toContain(String(answer.status))
    expect(answer.status).toBe(status)
    const documented = responses[String(status)]
    const [mediaType] = Object.keys(documented.content ?? {})
    expect(answer.headers['content-type'].split(';')[0]).toBe(mediaType)
    const validate = ajv.compile(documented.content[mediaType].schema)
    expect(validate(JSON.parse(answer.text)), JSON.stringify(validate.errors)).toBe(true)
    for (const name of Object.keys(documented.headers ?? {})) expect(answer.headers[name.toLowerCase()], name).toBeDefined()
  })
})

function faultOn(operation: string, kind: FaultKind): ArmedFault {
  return { route: operation as ArmedFault['route'], kind, mode: 'once' }
}

