// The rules on journals made by driving the mock directly (no sockets): applicability, skipped
// versus not-checked versus passed, live checks without the case, messages, and the expected calls.
import { describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { maskToken } from '../../src/core/service/journal.js'
import { caseStatus, evaluate, expectedCalls, ruleById, rules } from '../../src/core/rules/index.js'
import type { CaseContext, CaseVisit, ClientRun, Flow } from '../../src/core/rules/types.js'
import type { World } from '../../src/core/service/world.js'

type Call = {
  method: 'GET' | 'POST'
  url: string | ((world: World, last: unknown) => string)
  body?: (world: World, answers: unknown[]) => unknown
  headers?: Record<string, string>
}

/** Runs calls against a fresh world of `scenario` and returns the case context they make. */
async function caseOf(
  flow: Flow,
  scenario: string,
  calls: Call[],
  extra: Partial<CaseContext> = {},
): Promise<CaseContext & { world: World }> {
  const service = await createRelayService({ tokens: [] })
  const world = await service.addWorld({ scenario })
  const answers: unknown[] = []
  for (const call of calls) {
    const body = call.body?.(world, answers)
    const answer = await service.handle({
      method: call.method,
      url: typeof call.url === 'string' ? call.url : call.url(world, answers.at(-1)),
      headers: {
        authorization: `Bearer ${world.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...call.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      world,
    })
    answers.push(JSON.parse(answer.text))
  }
  const visit: CaseVisit = { ...world.visit, locationId: world.location.id }
  return { world, flow, requests: world.journal.entries(), token: world.token, visit, ...extra }
}

const run = (exitCode = 0): ClientRun => ({
  command: 'client',
  exitCode,
  signal: null,
  timedOut: false,
  durationMs: 10,
  stdout: '',
  stderr: '',
})
const statusOf = (context: CaseContext, rule: string) => evaluate(context).find((check) => check.rule === rule)?.status
const companyLookup: Call = { method: 'GET', url: (w) => `/rental-companies?kennitala=${w.visit.ownerKennitala}` }
const vehicleLookup: Call = { method: 'GET', url: (w) => `/vehicles?plate=${w.visit.plate}` }
const idOf = (answer: unknown) => (answer as { id: string }).id
const firstId = (answer: unknown) => (answer as { id: string }[])[0].id
const payment = (vehicleId: (answers: unknown[]) => string): Call => ({
  method: 'POST',
  url: '/payments',
  body: (w, answers) => ({
    locationId: w.location.id,
    vehicleId: vehicleId(answers),
    amount: { amount: w.visit.amount, currency: 'ISK' },
    startedOn: w.visit.visitStart,
    endedOn: w.visit.visitEnd,
  }),
})

const createVehicle: Call = { method: 'POST', url: '/vehicles', body: (w) => ({ plate: w.visit.plate, country: 'is' }) }
const custodian: Call = {
  method: 'POST',
  url: '/custodians',
  body: (w, a) => ({
    vehicleId: idOf(a[2]),
    rentalCompanyId: firstId(a[0]),
    acquiredOn: `${w.visit.registrationDate} 00:00:00`,
  }),
}

describe('evaluate', () => {
  it('gives one check per rule of the flow that applies, in the rules order (a fidelity rule only where its assumption is varied, but fidelity.strict everywhere)', async () => {
    const context = await caseOf('simple', 'default', [])
    const everywhere = (id: string) => !id.startsWith('fidelity.') || id === 'fidelity.strict'
    expect(evaluate(context).map((check) => check.rule)).toEqual(
      rules.filter((rule) => rule.flows.includes('simple') && everywhere(rule.id)).map((rule) => rule.id),
    )
    const varied = evaluate({ ...context, variants: { 'simple.answer': 'id-only' } }).map((check) => check.rule)
    expect(varied.filter((id) => id.startsWith('fidelity.'))).toEqual(['fidelity.simple.answer', 'fidelity.strict'])
  })

  it('reports rules that do not apply as skipped, never passed', async () => {
    const context = await caseOf('advanced', 'unknown-owner', [companyLookup], { client: run() })
    const checks = evaluate(context)
    for (const rule of [
      'advanced.vehicle-lookup',
      'advanced.create-vehicle-when-missing',
      'advanced.custodian-after-create',
      'advanced.no-create-when-found',
      'advanced.first-vehicle',
      'advanced.payment-body',
      'advanced.single-payment',
      'http.json-body',
    ]) {
      expect(checks.find((check) => check.rule === rule)).toMatchObject({ status: 'skipped' })
    }
    expect(checks.find((check) => check.rule === 'advanced.unknown-owner-stops')?.status).toBe('passed')
  })

  it('skips custodian-after-create when the vehicle was found', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
    ])
    expect(evaluate(context).find((check) => check.rule === 'advanced.custodian-after-create')).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('found the vehicle'),
    })
  })

  it('reports the case-only rules live as not checked, naming the input they lack, never as skipped or passed', async () => {
    const {
      visit: _visit,
      token: _token,
      world: _world,
      client: _client,
      ...live
    } = await caseOf('advanced', 'existing-vehicle', [companyLookup, vehicleLookup, payment((a) => firstId(a[1]))])
    const checks = evaluate(live, { hint: 'pass it with --visits' })
    expect(checks.filter((check) => check.status === 'not-checked').map((check) => check.rule)).toEqual(
      expect.arrayContaining(['client.completes', 'client.outcome']),
    )
    expect(checks.find((check) => check.rule === 'client.completes')).toMatchObject({
      missing: ['client'],
      message:
        "Not checked: it needs the client's run (its exit status and RELAY_RESULT_FILE), which was not given (pass it with --visits).",
    })
    expect(checks.filter((check) => check.status === 'failed')).toEqual([])
    expect(caseStatus(checks)).toBe('partial')
  })

  it("reports advanced.custodian-after-create not checked without the visit, though the ids were right (the registration date is the visit's)", async () => {
    const context = await caseOf('advanced', 'new-vehicle', [
      companyLookup,
      vehicleLookup,
      createVehicle,
      custodian,
      payment((a) => idOf(a[2])),
    ])
    expect(statusOf(context, 'advanced.custodian-after-create')).toBe('passed')
    const live = evaluate({ flow: 'advanced', requests: context.requests }).find(
      (check) => check.rule === 'advanced.custodian-after-create',
    )!
    expect(live).toMatchObject({ status: 'not-checked', missing: ['visit'] })
    expect(live.message).toMatch(
      /^Not checked: it needs the visit the client was given \(.*RELAY_REGISTRATION_DATE.*\), which was not given\. Without it: The client linked the new vehicle/,
    )
  })

  it('keeps a failure found without the visit a failure, and a rule that does not apply skipped', async () => {
    const context = await caseOf('advanced', 'new-vehicle', [
      companyLookup,
      vehicleLookup,
      createVehicle,
      payment((a) => idOf(a[2])),
    ])
    const live = evaluate({ flow: 'advanced', requests: context.requests })
    expect(live.find((check) => check.rule === 'advanced.custodian-after-create')?.status).toBe('failed')
    expect(live.find((check) => check.rule === 'advanced.first-vehicle')?.status).toBe('skipped')
  })

  it('runs the visit-free checks live: a payment for the second listed vehicle fails without the case', async () => {
    const context = await caseOf('advanced', 'multiple-vehicles', [
      companyLookup,
      vehicleLookup,
      payment((a) => (a[1] as { id: string }[])[1].id),
    ])
    expect(statusOf({ flow: 'advanced', requests: context.requests }, 'advanced.first-vehicle')).toBe('failed')
  })

  it('checks the visit values only when the case gives the visit', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      {
        ...payment((a) => firstId(a[1])),
        body: (w, a) => ({
          locationId: w.location.id,
          vehicleId: firstId(a[1]),
          amount: { amount: 100, currency: 'ISK' },
          startedOn: w.visit.visitStart,
          endedOn: w.visit.visitEnd,
        }),
      },
    ])
    expect(statusOf(context, 'advanced.payment-body')).toBe('failed')
    expect(statusOf({ flow: 'advanced', requests: context.requests }, 'advanced.payment-body')).toBe('not-checked')
  })

  it('names the request by method, path and position, the field, and the values', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      {
        ...payment((a) => firstId(a[1])),
        body: (w, a) => ({
          locationId: w.location.id,
          vehicleId: firstId(a[1]),
          amount: { amount: w.visit.amount, currency: 'EUR' },
          startedOn: w.visit.visitStart,
          endedOn: w.visit.visitEnd,
        }),
      },
    ])
    const check = evaluate(context).find((c) => c.rule === 'advanced.payment-body')!
    expect(check.message).toContain('POST /payments (request 3 of 3)')
    expect(check.message).toContain('amount.currency is "EUR", expected "ISK"')
    expect(check.message).toContain(`(interface: ${ruleById('advanced.payment-body')!.cite})`)
    expect(check.seq).toBe(context.requests[2].seq)
  })

  it('judges the bearer token of a request to an unknown path by its header', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      {
        method: 'GET',
        url: '/rental-comapnies?kennitala=1',
        headers: { authorization: 'Bearer rm_someone_elses_token' },
      },
    ])
    expect(statusOf(context, 'auth.bearer')).toBe('failed')
    expect(statusOf({ flow: 'advanced', requests: context.requests }, 'auth.bearer')).toBe('not-checked')
  })

  it("needs the case's token only for a request the mock did not route: its own verdict holds for the rest", async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
    ])
    expect(statusOf({ flow: 'advanced', requests: context.requests }, 'auth.bearer')).toBe('passed')
  })

  it('compares a masked token (from a HAR) with the masked header of a request to an unknown path', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      { method: 'GET', url: '/rental-comapnies?kennitala=1' },
    ])
    expect(statusOf({ ...context, token: maskToken(context.token!) }, 'auth.bearer')).toBe('passed')
    expect(statusOf({ ...context, token: maskToken('rm_someone_elses_token') }, 'auth.bearer')).toBe('failed')
  })

  it('judges a body longer than the journal keeps as the mock read it: JSON, its fields not checked rather than guessed from its start', async () => {
    const service = await createRelayService({ tokens: [] })
    const world = await service.addWorld({ scenario: 'existing-vehicle' })
    const headers = { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' }
    await service.handle({
      method: 'GET',
      url: `/rental-companies?kennitala=${world.visit.ownerKennitala}`,
      headers,
      world,
    })
    const vehicles = JSON.parse(
      (await service.handle({ method: 'GET', url: `/vehicles?plate=${world.visit.plate}`, headers, world })).text,
    ) as { id: string }[]
    const body = {
      locationId: world.location.id,
      vehicleId: vehicles[0].id,
      amount: { amount: world.visit.amount, currency: 'ISK' },
      startedOn: world.visit.visitStart,
      endedOn: world.visit.visitEnd,
    }
    // Valid JSON that starts with 5,000 spaces: the journal's 4 KiB prefix is blank, the mock reads it whole.
    const answer = await service.handle({
      method: 'POST',
      url: '/payments',
      headers,
      body: `${' '.repeat(5_000)}${JSON.stringify(body)}`,
      world,
    })
    expect(answer.status).toBe(201)
    const context = {
      flow: 'advanced' as const,
      requests: world.journal.entries(),
      token: world.token,
      visit: { ...world.visit, locationId: world.location.id },
    }
    expect(context.requests[2].request.bodyTruncated).toBe(true)
    expect(statusOf(context, 'http.json-body')).toBe('passed')
    for (const rule of ['advanced.payment-body', 'advanced.first-vehicle']) {
      expect(evaluate(context).find((check) => check.rule === rule)).toMatchObject({
        status: 'skipped',
        message: expect.stringContaining('the journal kept only its first 4096 characters'),
      })
    }
  })

  it("names the mock's reason for a long body it could not read, though the journal kept only its start", async () => {
    const service = await createRelayService({ tokens: [] })
    const world = await service.addWorld({ scenario: 'existing-vehicle' })
    const headers = { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' }
    await service.handle({ method: 'POST', url: '/payments', headers, body: `{"note": "${'x'.repeat(5_000)}"`, world })
    const context = { flow: 'advanced' as const, requests: world.journal.entries(), token: world.token }
    expect(evaluate(context).find((check) => check.rule === 'http.json-body')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('(the start of it), which the service refuses: The body is not valid JSON'),
    })
  })

  it('reports a crashing rule as a failure that names relay-mock, not as a pass', async () => {
    const context = await caseOf('simple', 'default', [])
    const broken = {
      ...context,
      get requests(): never {
        throw new Error('boom')
      },
    }
    const checks = evaluate(broken)
    expect(checks.filter((check) => check.status === 'passed')).toEqual([])
    expect(checks.find((check) => check.rule === 'simple.body')?.message).toContain('This is a bug in relay-mock')
  })
})

describe('client.outcome', () => {
  it('accepts "rejected" when the simple answer has no id, even with status 200', async () => {
    const context = await caseOf('simple', 'simple-failure-ok-status', [
      {
        method: 'POST',
        url: '/payment',
        body: (w) => ({
          location: w.location.id,
          vehicle: { owner: w.visit.ownerKennitala, plate: w.visit.plate, acquiredOn: w.visit.registrationDate },
          visit: { startedOn: w.visit.visitStart, endedOn: w.visit.visitEnd },
          payment: { amount: w.visit.amount, currency: 'ISK' },
        }),
      },
    ])
    expect(statusOf({ ...context, client: { ...run(), report: { outcome: 'rejected' } } }, 'client.outcome')).toBe(
      'passed',
    )
    expect(statusOf({ ...context, client: { ...run(), report: { outcome: 'paid' } } }, 'client.outcome')).toBe('failed')
  })

  it('fails a paid report with another payment id', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
    ])
    const paid = idOf(context.requests[2].response.body)
    expect(
      statusOf({ ...context, client: { ...run(), report: { outcome: 'paid', paymentId: paid } } }, 'client.outcome'),
    ).toBe('passed')
    expect(
      statusOf(
        { ...context, client: { ...run(), report: { outcome: 'paid', paymentId: 'not-it' } } },
        'client.outcome',
      ),
    ).toBe('failed')
  })

  it('is skipped when the client wrote no result file', async () => {
    const context = await caseOf('advanced', 'unknown-owner', [companyLookup], { client: run() })
    expect(statusOf(context, 'client.outcome')).toBe('skipped')
  })
})

describe('client.stops-on-failure', () => {
  const simplePayment: Call = {
    method: 'POST',
    url: '/payment',
    body: (w) => ({
      location: w.location.id,
      vehicle: { owner: w.visit.ownerKennitala, plate: w.visit.plate, acquiredOn: w.visit.registrationDate },
      visit: { startedOn: w.visit.visitStart, endedOn: w.visit.visitEnd },
      payment: { amount: w.visit.amount, currency: 'ISK' },
    }),
  }

  it('is skipped when no call failed', async () => {
    const context = await caseOf('advanced', 'existing-vehicle', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
    ])
    expect(evaluate(context).find((check) => check.rule === 'client.stops-on-failure')).toMatchObject({
      status: 'skipped',
      message: expect.stringContaining('no call failed'),
    })
  })

  it('passes a client that retries a failed POST /payments once and pays, which advanced.single-payment counts as one payment', async () => {
    const context = await caseOf('advanced', 'payment-unavailable', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
      payment((a) => firstId(a[1])),
    ])
    expect(context.requests.map((entry) => entry.response.status)).toEqual([200, 200, 503, 201])
    expect(statusOf(context, 'client.stops-on-failure')).toBe('passed')
    expect(statusOf(context, 'advanced.single-payment')).toBe('passed')
  })

  it('warns at a fourth attempt at a call that keeps failing, and fails a sixth', async () => {
    const context = await caseOf('advanced', 'payment-unavailable', [
      companyLookup,
      vehicleLookup,
      payment((a) => firstId(a[1])),
    ])
    const failed = context.requests[2]
    const again = (n: number) => [
      ...context.requests,
      ...Array.from({ length: n }, (_, i) => ({ ...failed, seq: failed.seq + i + 1 })),
    ]
    const fourth = evaluate({ ...context, requests: again(3) }).find((c) => c.rule === 'resilience.bounded-retries')
    expect(fourth).toMatchObject({ status: 'warning', seq: failed.seq + 3, expected: 3, actual: 4 })
    expect(fourth?.message).toMatch(/^Expected 3 attempts in all at POST \/payments to be enough/)
    const sixth = evaluate({ ...context, requests: again(5) }).find((c) => c.rule === 'resilience.bounded-retries')
    expect(sixth).toMatchObject({ status: 'failed', seq: failed.seq + 5, expected: 5, actual: 6 })
    expect(sixth?.message).toMatch(/^Expected at most 5 attempts in all at POST \/payments/)
  })

  it('fails a POST /payments after POST /custodians failed, and charges no custodian or payment rule', async () => {
    const context = await caseOf('advanced', 'custodian-unavailable', [
      companyLookup,
      vehicleLookup,
      createVehicle,
      custodian,
      payment((a) => idOf(a[2])),
    ])
    const checks = evaluate(context)
    expect(checks.filter((check) => check.status === 'failed').map((check) => check.rule)).toEqual([
      'client.stops-on-failure',
    ])
    expect(checks.find((check) => check.rule === 'client.stops-on-failure')?.message).toContain(
      'Expected the client to retry POST /custodians or stop after POST /custodians (request 4 of 5) failed (it answered 503); it went on with POST /payments (request 5 of 5)',
    )
  })

  it('lets a simple client send a failed POST /payment again: still one request', async () => {
    const context = await caseOf('simple', 'simple-unavailable', [simplePayment, simplePayment])
    expect(statusOf(context, 'simple.one-request')).toBe('passed')
    expect(statusOf(context, 'client.stops-on-failure')).toBe('passed')
  })
})

describe('expectedCalls', () => {
  const paths = (context: CaseContext) => expectedCalls(context).map((call) => `${call.method} ${call.path}`)

  it('expects only the company lookup when it answers an empty list', async () => {
    expect(paths(await caseOf('advanced', 'unknown-owner', [companyLookup]))).toEqual(['GET /rental-companies'])
  })

  it('expects the two creations when the vehicle list is empty', async () => {
    expect(paths(await caseOf('advanced', 'new-vehicle', [companyLookup, vehicleLookup]))).toEqual([
      'GET /rental-companies',
      'GET /vehicles',
      'POST /vehicles',
      'POST /custodians',
      'POST /payments',
    ])
  })

  it('expects the payment straight after a vehicle is found', async () => {
    expect(paths(await caseOf('advanced', 'existing-vehicle', [companyLookup, vehicleLookup]))).toEqual([
      'GET /rental-companies',
      'GET /vehicles',
      'POST /payments',
    ])
  })

  it('expects one POST /payment in the simple flow', async () => {
    expect(paths(await caseOf('simple', 'default', []))).toEqual(['POST /payment'])
  })

  it('ends the expected calls at a call whose last attempt failed, saying to retry it or stop', async () => {
    const context = await caseOf('advanced', 'custodian-unavailable', [
      companyLookup,
      vehicleLookup,
      createVehicle,
      custodian,
    ])
    const calls = expectedCalls(context)
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /rental-companies',
      'GET /vehicles',
      'POST /vehicles',
      'POST /custodians',
    ])
    expect(calls.at(-1)?.note).toMatch(/answered 503: retry it \(3 attempts in all are enough\) or stop/)
  })

  it('expects the whole flow again once a retried call succeeds', async () => {
    const context = await caseOf('advanced', 'custodian-unavailable', [
      companyLookup,
      vehicleLookup,
      createVehicle,
      custodian,
      custodian,
    ])
    expect(paths(context)).toEqual([
      'GET /rental-companies',
      'GET /vehicles',
      'POST /vehicles',
      'POST /custodians',
      'POST /payments',
    ])
  })

  it('uses the case outcome when the client never looked the owner up', () => {
    expect(paths({ flow: 'advanced', requests: [], outcome: 'skipped' })).toEqual(['GET /rental-companies'])
  })
})
