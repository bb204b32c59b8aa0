// The visit a location reports, written once for the library clients beside it (ky.mjs, got.mjs,
// axios-retry.mjs): both flows as the interface text tells them, whatever HTTP library carries the
// requests. Each library file hands runVisit one function, `send(method, path, body)`, that makes a
// request with that library (and its retries) and says what it came to; everything else is here, so
// two library clients differ only in their HTTP layer.
//
// Written as a developer would against the interface text alone: success is any 2xx, a record's id is
// the `id` of the body, a refusal's reason its `message` (no status code, header or field beyond that
// is relied on). A payment whose answer was lost is reported `unknown`, never sent again here; a vehicle
// creation whose answer was lost is followed by a lookup, and created again only if still missing.
//
// A library client runs in-process (its createClient(mode) is a runConformance client function, with
// a connection pool of its own per case) or as a real process: `node <library>.mjs defaults|recipe`.
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/**
 * What one request came to, from its status and body text: a 2xx whose body is not JSON (a proxy's
 * page) tells the client nothing, as good as no answer; any other body that is not JSON is only unread.
 * @example toAnswer(201, '{"id":"p1"}') // { lost: false, status: 201, body: { id: 'p1' } }
 */
export function toAnswer(status, text) {
  try {
    return { lost: false, status, body: text ? JSON.parse(text) : undefined }
  } catch {
    return status >= 200 && status < 300 ? { lost: true, why: `HTTP ${status} with a body that is not JSON` } : { lost: false, status, body: undefined }
  }
}

/** The request timeout the runner asks for (RELAY_REQUEST_TIMEOUT_MS), 5 s otherwise. */
export function requestTimeoutMs(env) {
  const ms = Number(env.RELAY_REQUEST_TIMEOUT_MS || 5000)
  if (!Number.isInteger(ms) || ms <= 0) throw new Error('RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds')
  return ms
}

/** The modes of a library client: `defaults` (the library as it comes) or `recipe` (docs/http-libraries.md). */
const MODES = ['defaults', 'recipe']

class Finished extends Error {
  constructor(result) {
    super(result.outcome)
    this.result = result
  }
}
const finish = (outcome, extra = {}) => {
  throw new Finished({ outcome, ...extra })
}

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value)
const idOf = (value) => (isRecord(value) && value.id !== undefined && value.id !== null && value.id !== '' ? String(value.id) : undefined)
const messageOf = (value) => (isRecord(value) && typeof value.message === 'string' && value.message !== '' ? value.message : undefined)
const ok = (answer) => !answer.lost && answer.status >= 200 && answer.status < 300
/** The service may have done the request: no readable answer, or a 500, 502 or 504. */
const ambiguous = (answer) => answer.lost || [500, 502, 504].includes(answer.status)
const said = (answer) => (answer.lost ? answer.why : `HTTP ${answer.status}${messageOf(answer.body) ? `: ${messageOf(answer.body)}` : ''}`)

function require2xx(what, answer) {
  if (!ok(answer)) finish('rejected', { message: `${what} failed: ${said(answer)}` })
}
const requireList = (what, answer) => (Array.isArray(answer.body) ? answer.body : finish('rejected', { message: `${what}: the answer is not a list` }))
const requireId = (what, value) => idOf(value) ?? finish('rejected', { message: `${what}: the answer has no id` })
const unknown = (answer) => finish('unknown', { message: `the payment may or may not be recorded (${said(answer)}): look it up before charging again` })

async function advanced(send, visit) {
  let answer = await send('GET', `/rental-companies?kennitala=${encodeURIComponent(visit.ownerKennitala)}`)
  require2xx('rental company lookup', answer)
  const companies = requireList('rental company lookup', answer)
  if (companies.length === 0) finish('skipped', { message: `owner ${visit.ownerKennitala} is not part of the service` })
  const companyId = requireId('rental company lookup', companies[0])

  const lookUpVehicle = async () => {
    const found = await send('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
    require2xx('vehicle lookup', found)
    return requireList('vehicle lookup', found)
  }
  let vehicles = await lookUpVehicle()
  let vehicleId
  if (vehicles.length === 0) {
    const vehicle = { plate: visit.plate, country: 'is' }
    answer = await send('POST', '/vehicles', vehicle)
    if (ambiguous(answer)) {
      // The vehicle may exist now: look before creating it again.
      vehicles = await lookUpVehicle()
      if (vehicles.length === 0) answer = await send('POST', '/vehicles', vehicle)
    }
    if (vehicles.length > 0) vehicleId = requireId('vehicle lookup', vehicles[0])
    else {
      require2xx('vehicle creation', answer)
      vehicleId = requireId('vehicle creation', answer.body)
    }
    answer = await send('POST', '/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` })
    require2xx('custodian creation', answer)
  } else {
    vehicleId = requireId('vehicle lookup', vehicles[0])
  }

  answer = await send('POST', '/payments', {
    locationId: visit.locationId,
    vehicleId,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
    status: 'new',
  })
  if (ambiguous(answer)) unknown(answer)
  require2xx('payment creation', answer)
  finish('paid', { paymentId: requireId('payment creation', answer.body) })
}

async function simple(send, visit) {
  const answer = await send('POST', '/payment', {
    location: visit.locationId,
    vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
    visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
    payment: { amount: visit.amount, currency: visit.currency },
  })
  // Accepted iff the answer carries an id, whatever the status; otherwise its message says why.
  const body = answer.lost ? undefined : answer.body
  const paymentId = idOf(body)
  if (paymentId) finish('paid', { paymentId })
  if (ambiguous(answer)) unknown(answer)
  finish('rejected', { message: messageOf(body) ?? `the answer has no id and no message (${said(answer)})` })
}

/** Runs the visit of RELAY_VISIT with `send`; resolves with the outcome, whatever the service answered. */
export async function runVisit(send, env) {
  const visit = JSON.parse(env.RELAY_VISIT)
  try {
    await (visit.flow === 'simple' ? simple : advanced)(send, visit)
  } catch (error) {
    if (!(error instanceof Finished)) throw error
    return error.result
  }
  throw new Error('the flow ended without an outcome')
}

/**
 * A library's client, from `connect(mode, env, log)`, which makes that library's `send` for one case
 * (with a connection pool of its own, closed by `close`).
 * - `createClient(mode)`: a runConformance client function, run in-process; what it would print is dropped.
 * - `main(meta)`: when the file is run as a process (`node ky.mjs recipe`), runs the visit of the RELAY_*
 *   variables, writes the outcome to RELAY_RESULT_FILE and exits 0 whatever the service answered (the
 *   customer's payment completes).
 */
export function libraryClient(name, connect) {
  const checkMode = (mode) => {
    if (!MODES.includes(mode)) throw new Error(`Expected the mode "defaults" or "recipe", got "${mode}"`)
    return mode
  }
  return {
    createClient(mode) {
      checkMode(mode)
      const client = async (_visit, env) => {
        const { send, close } = connect(mode, env, () => {})
        try {
          return await runVisit(send, env)
        } finally {
          await close()
        }
      }
      Object.defineProperty(client, 'name', { value: `${name} ${mode}` })
      return client
    },
    async main(meta) {
      if (meta.url !== pathToFileURL(process.argv[1] ?? '').href) return
      let mode, connection
      try {
        mode = checkMode(process.argv[2] ?? 'defaults')
        connection = connect(mode, process.env, (line) => console.error(line))
      } catch (error) {
        console.error(error.message)
        process.exit(2)
      }
      const result = await runVisit(connection.send, process.env)
      console.error(`outcome: ${JSON.stringify(result)}`)
      if (process.env.RELAY_RESULT_FILE) writeFileSync(process.env.RELAY_RESULT_FILE, JSON.stringify(result))
      process.exit(0)
    },
  }
}
