// Fixture conversations for the report, the live page and HAR: real requests answered by the real mock,
// with times and durations frozen so that rendered pages are stable. Checks are written by hand here
// (as a broken client would earn them) so a rule's wording can change without churning snapshots.
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import type { CaseResult, CaseVisit, Check, ExpectedCall, RunResult } from '../../src/core/rules/types.js'
import { countCases } from '../../src/core/rules/verdict.js'
import type { World } from '../../src/core/service/world.js'

export const FIXTURE_TOKEN = 'rm_fixture0000000000000001'
export const FROZEN = new Date('2026-11-21T10:00:00.000Z')

export interface Call {
  method: string
  url: string
  body?: unknown
  /** The body as sent, when it is not JSON. */
  rawBody?: string
  headers?: Record<string, string>
  /** Send no Authorization header. */
  noAuth?: boolean
}

/** Sends calls to a fresh mock in `scenario` and returns its world and the journal entries, times frozen. */
export async function converse(
  scenario: string,
  calls: (world: World) => Call[],
): Promise<{ service: RelayService; world: World; entries: JournalEntry[] }> {
  const service = await createServedService({ tokens: [FIXTURE_TOKEN], scenario })
  const world = service.world
  for (const call of calls(world)) {
    const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body))
    await service.handle({
      method: call.method,
      url: call.url,
      headers: {
        ...(call.noAuth ? {} : { authorization: `Bearer ${FIXTURE_TOKEN}` }),
        ...(body !== undefined && call.rawBody === undefined ? { 'content-type': 'application/json' } : {}),
        ...call.headers,
      },
      ...(body !== undefined ? { body } : {}),
    })
  }
  return { service, world, entries: freeze(service.journal.entries()) }
}

/** The entries with times one second apart from FROZEN and a fixed duration. */
export function freeze(entries: JournalEntry[]): JournalEntry[] {
  return entries.map((entry, i) => ({
    ...entry,
    time: new Date(FROZEN.getTime() + i * 1000).toISOString(),
    durationMs: 1.5,
  }))
}

export function caseVisit(world: World): CaseVisit {
  return { ...world.visit, locationId: world.location.id }
}

const ADVANCED_NEW: ExpectedCall[] = [
  { method: 'GET', path: '/rental-companies', note: 'look the owner up by kennitala' },
  { method: 'GET', path: '/vehicles', note: 'a company was found: look the plate up' },
  { method: 'POST', path: '/vehicles', note: 'no vehicle was listed: create it' },
  { method: 'POST', path: '/custodians', note: 'link the new vehicle to the company' },
  { method: 'POST', path: '/payments', note: 'record the payment' },
]

/** The broken advanced client: it creates the vehicle, skips the custodian, and pays. */
export async function skippedCustodianCase(): Promise<CaseResult> {
  const { world, entries } = await converse('new-vehicle', (w) => [
    { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
    { method: 'GET', url: `/vehicles?plate=${w.visit.plate}` },
    { method: 'POST', url: '/vehicles', body: { plate: w.visit.plate, country: 'is' } },
    {
      method: 'POST',
      url: '/payments',
      body: {
        locationId: w.location.id,
        vehicleId: '00000000-0000-4000-8000-000000000000',
        amount: { amount: w.visit.amount, currency: 'ISK' },
        startedOn: w.visit.visitStart,
        endedOn: w.visit.visitEnd,
      },
    },
  ])
  const payment = entries[3]
  const checks: Check[] = [
    { rule: 'auth.bearer', status: 'passed', message: "All 4 requests carried the case's bearer token." },
    { rule: 'http.known-endpoint', status: 'passed', message: 'All 4 requests were documented endpoints.' },
    {
      rule: 'advanced.custodian-after-create',
      status: 'failed',
      seq: payment.seq,
      message:
        "Expected POST /custodians with the new vehicle's id after POST /vehicles (request 3 of 4); the client sent POST /payments (request 4 of 4) instead (interface: §1 Advanced flow, rule 4).",
    },
    {
      rule: 'advanced.first-vehicle',
      status: 'failed',
      seq: payment.seq,
      message:
        'Expected the payment\'s vehicleId to be the created vehicle\'s id; POST /payments (request 4 of 4) sent "00000000-0000-4000-8000-000000000000" (interface: §4 Advanced integration, rule 3).',
    },
    {
      rule: 'simple.one-request',
      status: 'skipped',
      message: "The simple flow's rule does not apply to an advanced case.",
    },
  ]
  return {
    id: 'advanced/new-vehicle',
    flow: 'advanced',
    scenario: 'new-vehicle',
    title: 'The plate is unknown: the client creates the vehicle and its custodian, then pays',
    status: 'failed',
    durationMs: 412,
    exitCode: 0,
    signal: null,
    timedOut: false,
    stdout: 'paid\n',
    stderr: '',
    visit: caseVisit(world),
    checks,
    expected: ADVANCED_NEW,
    requests: entries,
    expectedOutcome: 'paid',
  }
}

/** A correct advanced client on an existing vehicle. */
export async function existingVehicleCase(): Promise<CaseResult> {
  const { world, entries } = await converse('existing-vehicle', (w) => {
    const vehicle = w.store.vehicles.activeByPlate(w.visit.plate)[0]
    return [
      { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
      { method: 'GET', url: `/vehicles?plate=${w.visit.plate}` },
      {
        method: 'POST',
        url: '/payments',
        body: {
          locationId: w.location.id,
          vehicleId: vehicle.id,
          amount: { amount: w.visit.amount, currency: 'ISK' },
          startedOn: w.visit.visitStart,
          endedOn: w.visit.visitEnd,
          status: 'new',
        },
      },
    ]
  })
  return {
    id: 'advanced/existing-vehicle',
    flow: 'advanced',
    scenario: 'existing-vehicle',
    title: "The plate is known: the client pays with the listed vehicle's id",
    status: 'passed',
    durationMs: 305,
    exitCode: 0,
    signal: null,
    timedOut: false,
    stdout: '',
    stderr: '',
    visit: caseVisit(world),
    checks: [
      { rule: 'auth.bearer', status: 'passed', message: "All 3 requests carried the case's bearer token." },
      { rule: 'advanced.first-vehicle', status: 'passed', message: 'The payment used the first listed vehicle.' },
      {
        rule: 'simple.one-request',
        status: 'skipped',
        message: "The simple flow's rule does not apply to an advanced case.",
      },
    ],
    expected: [
      { method: 'GET', path: '/rental-companies', note: 'look the owner up by kennitala' },
      { method: 'GET', path: '/vehicles', note: 'a company was found: look the plate up' },
      { method: 'POST', path: '/payments', note: 'the vehicle is listed: pay with its id' },
    ],
    requests: entries,
    expectedOutcome: 'paid',
  }
}

/** A simple client that sends its body as text/plain and then fails the customer's payment. */
export async function rejectedSimpleCase(): Promise<CaseResult> {
  const { world, entries } = await converse('simple-failure', (w) => [
    {
      method: 'POST',
      url: '/payment',
      rawBody: JSON.stringify({
        location: w.location.id,
        vehicle: { owner: w.visit.ownerKennitala, plate: w.visit.plate, acquiredOn: w.visit.registrationDate },
        visit: { startedOn: w.visit.visitStart, endedOn: w.visit.visitEnd },
        payment: { amount: w.visit.amount, currency: 'ISK' },
      }),
      headers: { 'content-type': 'text/plain' },
    },
  ])
  return {
    id: 'simple/rejected',
    flow: 'simple',
    scenario: 'simple-failure',
    title: "The service refuses the payment (4xx with a message): the customer's payment still completes",
    status: 'failed',
    durationMs: 1210,
    exitCode: 1,
    signal: null,
    timedOut: false,
    stdout: '',
    stderr: 'Error: payment refused\n    at main (client.js:12:11)\n',
    visit: caseVisit(world),
    checks: [
      {
        rule: 'http.json-body',
        status: 'failed',
        seq: entries[0].seq,
        message:
          'Expected Content-Type: application/json on a request with a body; POST /payment (request 1 of 1) sent "text/plain" (interface: §4 Endpoints).',
      },
      {
        rule: 'client.completes',
        status: 'failed',
        message:
          "Expected the client to exit 0 (the customer's payment completes even when the service refuses); it exited 1 (interface: §1 Simple flow, rule 3).",
      },
      { rule: 'simple.one-request', status: 'passed', message: 'Exactly one request: POST /payment.' },
    ],
    expected: [{ method: 'POST', path: '/payment', note: 'the whole visit in one request' }],
    requests: entries,
    expectedOutcome: 'rejected',
  }
}

/** A run of the three cases above, as the runner would return it. */
export async function fixtureRun(): Promise<RunResult> {
  const cases = [await skippedCustodianCase(), await existingVehicleCase(), await rejectedSimpleCase()]
  return {
    summary: {
      ...countCases(cases),
      clientMs: cases.reduce((sum, c) => sum + c.durationMs, 0),
      wallMs: 2104,
      startedAt: FROZEN.toISOString(),
      version: '0.1.0',
      client: 'node ./pos/relay-client.js --verbose',
      flows: ['advanced', 'simple'],
    },
    cases,
  }
}

export const XSS = '<script>alert("x")</script>'
const ATTR = '"><img src=x onerror=alert(1)>'

/** A run where everything the client controls carries markup. */
export async function hostileRun(): Promise<RunResult> {
  const run = await fixtureRun()
  const kase = await skippedCustodianCase()
  const entry = kase.requests[1]
  kase.id = `advanced/${XSS}`
  kase.title = ATTR
  kase.visit = { ...kase.visit!, plate: XSS }
  kase.stdout = XSS
  kase.stderr = ATTR
  kase.requests[1] = {
    ...entry,
    request: {
      ...entry.request,
      path: `/vehicles/${ATTR}`,
      search: `?plate=${XSS}`,
      headers: { ...entry.request.headers, [`x-${ATTR}`]: XSS },
      bodyText: XSS,
    },
    response: { ...entry.response, body: { message: XSS, id: ATTR } },
  }
  kase.checks = [{ rule: `rule.${XSS}`, status: 'failed', seq: entry.seq, message: XSS }]
  kase.expected = [{ method: 'GET', path: XSS, note: `\`${ATTR}\`` }]
  return { summary: { ...run.summary, client: XSS, rulesBroken: [XSS] }, cases: [kase] }
}

export const RULE_TITLES: Record<string, { title: string; cite: string }> = {
  'advanced.custodian-after-create': {
    title:
      "then POST `/custodians` with the new vehicle's id, the company's id, and `acquiredOn` on the registration date",
    cite: '§1 Advanced flow, rule 4',
  },
  'advanced.first-vehicle': {
    title: "the payment uses the first listed vehicle's id",
    cite: '§1 Advanced flow, rule 5',
  },
  'http.json-body': {
    title: 'every request with a body sends `Content-Type: application/json` and valid JSON',
    cite: '§4 Endpoints',
  },
  'client.completes': { title: 'the client exits 0 in every case', cite: '§1 Simple flow, rule 3' },
}

export const describeRule = (id: string) => RULE_TITLES[id]
