// `relay-mock probe`: the requests that settle the assumption ledger against a real service without
// leaving a record there (lookups, the link of a listed record, requests the service refuses for a
// missing or unknown token, invalid fields, malformed JSON, a path or method it lacks, HEAD, OPTIONS,
// extra query parameters), and with `allowWrites` the few creates that settle what only a create shows.
// Plain data: each request goes through `send` (the proxy's pipeline, so that the journal and the
// ledger's checks see it exactly as they see a proxied client's), and its answer steers what comes next.
import { isRecord } from '../exchange/answer.js'
import { ASSUMPTION_CHECKS } from '../ledger/checks.js'
import type { AssumptionReport } from '../ledger/report.js'
import { checkDigit } from '../kennitala.js'
import type { RelayRequest, RelayResponse } from '../service/service.js'

export interface ProbeOptions {
  /** The token the service issued (staging's): sent as `Authorization: Bearer <token>`. */
  token: string
  /** A rental company's kennitala the service knows: its lookup lists a record whose link is fetched (and a custodian names it). */
  kennitala?: string
  /** A plate the service knows: its lookup lists vehicles whose link is fetched. */
  plate?: string
  /** The location's id, for the payment and the simple payment `allowWrites` sends. */
  location?: string
  /** Send the few creates that settle what only a create shows (staging only). */
  allowWrites?: boolean
  /** The plate of the test vehicle `allowWrites` creates. */
  testPlate?: string
}

/** A record the probe created on the service. */
export interface Written {
  /** What it is: `vehicle`, `custodian`, `payment`, `simple payment`. */
  kind: string
  /** Its id, or its link, as the service answered it. */
  id: string
  /** The request that made it, e.g. `POST /vehicles` with the plate. */
  request: string
}

export interface ProbeResult {
  /** How many requests it sent. */
  sent: number
  written: Written[]
  /** Why it stopped before its last request, when it did (the upstream in trouble). */
  stopped?: string
  /** What it left out, and why (a write without --allow-writes, a payment without --location). */
  skipped: string[]
}

/** A kennitala of a company that is surely unknown: a valid number whose day is a company's (41–71), in a year no service holds. */
export const PROBE_UNKNOWN_KENNITALA = unknownKennitala()
/** The token the probe sends as one the service does not know. */
export const PROBE_UNKNOWN_TOKEN = 'relay-mock-probe-unknown-token-0000'
/** The plate of the test vehicle, unless given. */
export const PROBE_TEST_PLATE = 'ZZ9T99'
/** The most requests a probe sends, writes and all. */
export const PROBE_MAX_REQUESTS = 40
/** Consecutive answers of upstream trouble (502/504 of the proxy's own) after which the probe stops. */
const TROUBLE_STOP = 2

/** The assumptions only a write settles: what the probe says of them when it did not write. */
const NEEDS_WRITE: Readonly<Record<string, string>> = {
  'create.status': 'only a create shows it',
  'simple.answer': "only a simple payment the service records shows its answer's fields",
  'simple.unknown-owner':
    'only a simple payment for an owner the service does not know shows it (the service may record it)',
  'vehicle.country': 'only a vehicle created with another country code shows it',
  'request.duplicate-keys':
    'only a create that names a key twice shows it (the custodian names rentalCompanyId twice, the same value)',
  'request.number-form': 'only a create whose amount is written 1.0 shows it (the payment)',
}

/**
 * Sends the probe's requests through `send`, one at a time, and returns what it sent and wrote.
 * @example const result = await probe((request) => service.handle(request), { token: 'staging-token' })
 */
export async function probe(
  send: (request: RelayRequest) => Promise<RelayResponse>,
  options: ProbeOptions,
): Promise<ProbeResult> {
  const result: ProbeResult = { sent: 0, written: [], skipped: [] }
  const step: ProbeStep = {
    ask: asker(send, result),
    bearer: { authorization: `Bearer ${options.token}` },
    options,
    result,
  }
  const company = await askLookups(step)
  await askRefusals(step)
  if (!options.allowWrites) {
    result.skipped.push(
      'the creates (a vehicle, a custodian, a payment and a simple payment): they need --allow-writes, against staging only',
    )
    return result
  }
  const newVehicle = await createVehicle(step, company)
  if (!options.location) {
    result.skipped.push('the payment and the simple payment: they need --location, your location id on the service')
    return result
  }
  await createPayments(step, options.location, newVehicle)
  return result
}

/** An answer as the probe reads it: its body parsed as JSON (undefined when it is not). */
interface ProbeAnswer {
  status: number
  headers: RelayResponse['headers']
  body: unknown
}

/** One request; undefined once the probe has stopped (the upstream in trouble, or the bound reached). */
type Ask = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
) => Promise<ProbeAnswer | undefined>

/** What each step of the probe sends with, and the result it adds to. */
interface ProbeStep {
  ask: Ask
  bearer: Record<string, string>
  options: ProbeOptions
  result: ProbeResult
}

const json = { 'content-type': 'application/json' }

/** The probe's one way to send: counts each request, and stops at the bound or on upstream trouble. */
function asker(send: (request: RelayRequest) => Promise<RelayResponse>, result: ProbeResult): Ask {
  let troubled = 0
  return async (method, url, headers, body) => {
    if (result.stopped !== undefined) return undefined
    if (result.sent >= PROBE_MAX_REQUESTS) {
      result.stopped = `it reached its bound of ${PROBE_MAX_REQUESTS} requests`
      return undefined
    }
    result.sent++
    const answer = await send({
      method,
      url,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(byteLength(body)) },
      ...(body === undefined ? {} : { body }),
    })
    // The proxy's own 502/504 (the upstream refused, hung or answered garbage) says so in its message.
    const trouble = (answer.status === 502 || answer.status === 504) && answer.text.includes('relay-mock proxy:')
    troubled = trouble ? troubled + 1 : 0
    if (troubled >= TROUBLE_STOP)
      result.stopped = `the upstream was in trouble on ${TROUBLE_STOP} requests in a row (see the upstream-trouble findings)`
    return { status: answer.status, headers: answer.headers, body: parse(answer.text) }
  }
}

/** The lookups and the ways of asking one: returns the company the kennitala's lookup listed, if any. */
async function askLookups({ ask, bearer, options }: ProbeStep): Promise<{ id: string } | undefined> {
  const unknown = PROBE_UNKNOWN_KENNITALA
  // Lookups: the lists' form and fields, and the links of the records they list.
  const companies = await ask('GET', `/rental-companies?kennitala=${options.kennitala ?? unknown}`, bearer)
  if (options.kennitala) await ask('GET', `/rental-companies?kennitala=${unknown}`, bearer)
  const plate = lookupPlate(options)
  const vehicles = await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}`, bearer)
  const company = firstRecord(companies?.body)
  const vehicle = firstRecord(vehicles?.body)
  if (company) await ask('GET', `/rental-companies/${encodeURIComponent(company.id)}`, bearer)
  if (vehicle) await ask('GET', `/vehicles/${encodeURIComponent(vehicle.id)}`, bearer)
  // The same plate written otherwise, and the kennitala with a hyphen: how the service matches them.
  if (vehicle) await ask('GET', `/vehicles?plate=${encodeURIComponent(plate.toLowerCase())}`, bearer)
  if (options.kennitala)
    await ask(
      'GET',
      `/rental-companies?kennitala=${options.kennitala.slice(0, 6)}-${options.kennitala.slice(6)}`,
      bearer,
    )
  // Extra query parameters on a lookup.
  await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}&page=2&limit=10`, bearer)
  // A lookup with a body, which RFC 9110 gives no meaning.
  await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}`, { ...bearer, ...json }, JSON.stringify({ plate }))
  // The scheme written otherwise (`bearer`, two spaces): how exactly the service reads Authorization.
  await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}`, { authorization: `bearer  ${options.token}` })
  // HEAD and OPTIONS.
  await ask('HEAD', `/vehicles?plate=${encodeURIComponent(plate)}`, bearer)
  await ask('OPTIONS', '/vehicles', bearer)
  return company
}

/** The plate the lookups ask for: the one given, else the test vehicle's. */
function lookupPlate(options: ProbeOptions): string {
  return options.plate ?? options.testPlate ?? PROBE_TEST_PLATE
}

/** The requests the service refuses: for the token, the fields, the JSON, the path or the method. */
async function askRefusals({ ask, bearer, options }: ProbeStep): Promise<void> {
  const plate = lookupPlate(options)
  // Refusals for the token: none, and one the service does not know.
  await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}`, {})
  await ask('GET', `/vehicles?plate=${encodeURIComponent(plate)}`, { authorization: `Bearer ${PROBE_UNKNOWN_TOKEN}` })
  // Invalid fields: empty bodies, which no service records (a custodian of no vehicle, a payment of nothing).
  await ask('POST', '/custodians', { ...bearer, ...json }, '{}')
  await ask('POST', '/payments', { ...bearer, ...json }, '{}')
  await ask('POST', '/payment', { ...bearer, ...json }, '{}')
  // Malformed JSON, and a body without its Content-Type (the lenient form, on a body refused for its fields too).
  await ask('POST', '/vehicles', { ...bearer, ...json }, '{"plate":')
  await ask('POST', '/custodians', { ...bearer, 'content-type': 'text/plain' }, '{}')
  // The token and the body both wrong: which the service checks first.
  await ask('POST', '/custodians', json, '{}')
  // A path and a method the service lacks, and the interface's two slips.
  await ask('GET', '/vehicle', bearer)
  await ask('PUT', `/vehicles/${PROBE_ABSENT_ID}`, bearer)
  await ask('GET', `/rental-comapnies?kennitala=${options.kennitala ?? PROBE_UNKNOWN_KENNITALA}`, bearer)
  await ask('GET', '/payment', bearer)
}

/** Creates the test vehicle, fetches its link, and makes the company its custodian: returns the vehicle. */
async function createVehicle(
  { ask, bearer, options, result }: ProbeStep,
  company: { id: string } | undefined,
): Promise<{ id: string } | undefined> {
  const testPlate = options.testPlate ?? PROBE_TEST_PLATE
  // A vehicle of another country code (vehicle.country); refused, then the interface's `is`: one vehicle at most.
  let created = await ask(
    'POST',
    '/vehicles',
    { ...bearer, ...json },
    JSON.stringify({ plate: testPlate, country: 'de' }),
  )
  if (created && created.status >= 400 && created.status < 500)
    created = await ask(
      'POST',
      '/vehicles',
      { ...bearer, ...json },
      JSON.stringify({ plate: testPlate, country: 'is' }),
    )
  const newVehicle = createdRecord(created)
  if (newVehicle) {
    result.written.push({ kind: 'vehicle', id: newVehicle.id, request: `POST /vehicles with the plate ${testPlate}` })
    await ask('GET', newVehicle.link ?? `/vehicles/${encodeURIComponent(newVehicle.id)}`, bearer)
    if (company) {
      // rentalCompanyId named twice, the same value (request.duplicate-keys): read as once, or refused.
      const custodianText = JSON.stringify({
        vehicleId: newVehicle.id,
        rentalCompanyId: company.id,
        acquiredOn: `${today()} 00:00:00`,
      }).replace('"acquiredOn"', `"rentalCompanyId":${JSON.stringify(company.id)},"acquiredOn"`)
      const custodian = createdRecord(await ask('POST', '/custodians', { ...bearer, ...json }, custodianText))
      if (custodian)
        result.written.push({
          kind: 'custodian',
          id: custodian.id,
          request: `POST /custodians of the vehicle ${testPlate} and the company ${options.kennitala}`,
        })
    } else result.skipped.push('the custodian: it needs --kennitala of a rental company the service knows')
  }
  return newVehicle
}

/** The payment for the test vehicle (when it was created), and the simple payment for an unknown owner. */
async function createPayments(
  { ask, bearer, options, result }: ProbeStep,
  location: string,
  newVehicle: { id: string } | undefined,
): Promise<void> {
  const unknown = PROBE_UNKNOWN_KENNITALA
  const testPlate = options.testPlate ?? PROBE_TEST_PLATE
  const visit = { startedOn: `${today()} 09:00:00`, endedOn: `${today()} 09:01:00` }
  if (newVehicle) {
    // The amount written 1.0 (request.number-form): read as 1, or refused; nothing later needs the payment.
    const paymentText = JSON.stringify({
      locationId: location,
      vehicleId: newVehicle.id,
      amount: { amount: 1, currency: 'ISK' },
      ...visit,
      status: 'new',
    }).replace('"amount":1,', '"amount":1.0,')
    const payment = createdRecord(await ask('POST', '/payments', { ...bearer, ...json }, paymentText))
    if (payment)
      result.written.push({
        kind: 'payment',
        id: payment.id,
        request: `POST /payments of 1 ISK for the vehicle ${testPlate}`,
      })
  }
  // The simple payment names an owner the service does not know (simple.unknown-owner): recorded or refused, the answer tells.
  const simple = await ask(
    'POST',
    '/payment',
    { ...bearer, ...json },
    JSON.stringify({
      location,
      vehicle: { owner: unknown, plate: testPlate, acquiredOn: today() },
      visit,
      payment: { amount: 1, currency: 'ISK' },
    }),
  )
  const recorded = createdRecord(simple)
  if (recorded)
    result.written.push({
      kind: 'simple payment',
      id: recorded.id,
      request: `POST /payment of 1 ISK for the plate ${testPlate}, owner ${unknown}`,
    })
}

/** A record id no service holds, for the wrong method on a record's path. */
const PROBE_ABSENT_ID = '00000000-0000-4000-8000-000000000000'

/**
 * Why each assumption the probe left unseen stayed so: traffic cannot show it, it needs a write, or
 * the answers did not tell. Added to the report as `unseen` on each unseen standing.
 * @example explainUnseen(report, { allowWrites: false }).assumptions.find((a) => a.id === 'create.status')?.unseen // 'needs a write: only a create shows it (--allow-writes, against staging only)'
 */
export function explainUnseen(
  report: AssumptionReport,
  options: Pick<ProbeOptions, 'allowWrites' | 'location' | 'kennitala' | 'plate'> & { stopped?: string },
): AssumptionReport {
  const checks = ASSUMPTION_CHECKS as Record<string, unknown>
  return {
    ...report,
    assumptions: report.assumptions.map((standing) => {
      if (standing.status !== 'unseen') return standing
      const check = checks[standing.id] as { notObservable?: string } | undefined
      const write = NEEDS_WRITE[standing.id]
      let why: string
      if (check && typeof check === 'object' && check.notObservable)
        why = `traffic cannot show it: ${check.notObservable}`
      else if (options.stopped !== undefined) why = `not asked: the probe stopped early, as ${options.stopped}`
      else if (write && !options.allowWrites) why = `needs a write: ${write} (--allow-writes, against staging only)`
      else if (write && !options.location && standing.id.startsWith('simple.'))
        why = `needs a write that needs --location: ${write}`
      else why = `the answers did not tell: ${DID_NOT_TELL[standing.id] ?? 'no answer the probe got bore on it'}`
      return { ...standing, unseen: why }
    }),
  }
}

/** What the answers would have had to show, for the assumptions the probe asks about but may not settle. */
const DID_NOT_TELL: Readonly<Record<string, string>> = {
  'links.fetchable':
    'no lookup listed a record, and nothing was created (give --plate or --kennitala of a record the service holds, or --allow-writes)',
  'records.extra-fields': 'no lookup listed a record (give --plate or --kennitala of a record the service holds)',
  'plate.format': 'the plate written otherwise found no vehicle (seen only when the service matches it)',
  'vehicles.several': 'no lookup listed two vehicles of one plate',
  'kennitala.format':
    'the kennitala with a hyphen was asked only with --kennitala, and is judged only when the service lists the company for it',
  'simple.unknown-owner': 'the simple payment for an unknown owner was not answered as a refusal or a record',
}

function firstRecord(body: unknown): { id: string } | undefined {
  const first: unknown = Array.isArray(body) ? body[0] : undefined
  return isRecord(first) && typeof first.id === 'string' ? (first as { id: string }) : undefined
}

function createdRecord(
  answer: { status: number; body: unknown } | undefined,
): { id: string; link?: string } | undefined {
  if (!answer || answer.status < 200 || answer.status >= 300) return undefined
  const body = answer.body as { id?: unknown; link?: unknown } | null
  if (typeof body !== 'object' || body === null || typeof body.id !== 'string') return undefined
  return { id: body.id, ...(typeof body.link === 'string' && body.link.startsWith('/') ? { link: body.link } : {}) }
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length
}

function today(): string {
  return new Date().toISOString().slice(0, 10)
}

/** A company kennitala of the year 1900 (a service's companies were founded later), day 41, valid. */
function unknownKennitala(): string {
  for (let serial = 20; serial < 100; serial++) {
    const firstEight = `410100${serial}`
    const check = checkDigit(firstEight)
    if (check !== undefined) return `${firstEight}${check}9`
  }
  throw new Error('unreachable: some serial has a check digit')
}
