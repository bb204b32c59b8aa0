// The project's own reference client, in-process: both flows exactly as the interface says, over
// real HTTP with fetch, and resilient the way the conformance rules ask: every request has a timeout
// (RELAY_REQUEST_TIMEOUT_MS), a 503 or 429 is retried after its Retry-After, a lookup after a lost
// answer or a 5xx (500 ms later), at most 3 attempts in all; a POST whose answer was lost is never
// sent again blind, and a payment whose answer was lost is reported `unknown`. `relay-mock demo` runs
// it; tests use it as the known-good client.
import { isRecord, leavesWriteUnknown, parseRetryAfter } from '../core/exchange/answer.js'
import type { ClientReport } from '../core/rules/types.js'
import type { ClientFunction, ClientVisit, RelayEnv } from './runner.js'

/** What one request came to: an answer the client could read, or none (`lost`, with why). */
type Answer = { lost: false; status: number; body: unknown; retryAfterMs?: number } | { lost: true; why: string }

type Call = (method: 'GET' | 'POST', path: string, body?: object) => Promise<Answer>

const idOf = (value: unknown): string | undefined => (isRecord(value) && typeof value.id === 'string' && value.id !== '' ? value.id : undefined)
const messageOf = (value: unknown): string | undefined => (isRecord(value) && typeof value.message === 'string' ? value.message : undefined)
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

/** No readable answer, or a 500, 502 or 504: the service may or may not have done the request. */
const ambiguous = (answer: Answer) => answer.lost || leavesWriteUnknown(answer.status)

/**
 * The reference client: `retries` is how many more times it tries a request that failed in a way
 * worth retrying (default 2: 3 attempts in all); `fetch` is what it sends with (a test's client that
 * reads the answers otherwise wraps it).
 * @example await runConformance({ client: createReferenceClient({ retries: 1 }) })
 */
export function createReferenceClient({ retries = 2, fetch = globalThis.fetch }: { retries?: number; fetch?: typeof globalThis.fetch } = {}): ClientFunction {
  return async function referenceClient(visit: ClientVisit, env: RelayEnv, { signal }): Promise<ClientReport> {
    const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) > 0 ? Number(env.RELAY_REQUEST_TIMEOUT_MS) : 5000
    const send = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Answer> => {
      const headers: Record<string, string> = { authorization: `Bearer ${env.RELAY_API_TOKEN}` }
      if (body) headers['content-type'] = 'application/json'
      // One controller for the run's signal and the timeout (Node 20's AbortSignal.any may lose a
      // composed signal to garbage collection, and with it the timeout).
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
      const stop = () => controller.abort(signal.reason)
      signal.addEventListener('abort', stop, { once: true })
      try {
        const response = await fetch(`${env.RELAY_BASE_URL}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: controller.signal })
        const text = await response.text()
        let parsed: unknown
        try {
          parsed = text ? JSON.parse(text) : undefined
        } catch {
          // A 2xx the client cannot read (a proxy's page) tells it nothing: as good as no answer.
          if (response.ok) return { lost: true, why: `HTTP ${response.status} with a body that is not JSON` }
        }
        return { lost: false, status: response.status, body: parsed, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now())?.ms }
      } catch (error) {
        const err = error as Error
        return { lost: true, why: err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `the connection failed (${err.message})` }
      } finally {
        clearTimeout(timer)
        signal.removeEventListener('abort', stop)
      }
    }
    const call: Call = async (method, path, body) => {
      let answer = await send(method, path, body)
      for (let attempt = 0; attempt < retries && !signal.aborted; attempt++) {
        let wait: number
        // A little past the time asked for: the service's clock and ours need not agree to the millisecond.
        if (!answer.lost && (answer.status === 503 || answer.status === 429)) wait = Math.min(answer.retryAfterMs ?? 1000, 10_000) + 100
        // A lookup is safe to repeat; a POST whose fate is unknown is not (the caller looks it up instead).
        else if (method === 'GET' && answer.lost) wait = 0
        else if (method === 'GET' && !answer.lost && answer.status >= 500) wait = 600
        else break
        await sleep(wait, signal)
        answer = await send(method, path, body)
      }
      return answer
    }
    return flow(visit, call)
  }
}

/**
 * Reports one visit's payment with the flow `visit.flow` and returns the outcome; never throws on
 * an answer of the service (the customer's payment completes whatever it says).
 * @example await runConformance({ client: referenceClient })
 */
export const referenceClient: ClientFunction = createReferenceClient()

const said = (answer: Answer) => (answer.lost ? answer.why : `HTTP ${answer.status}${messageOf(answer.body) ? `: ${messageOf(answer.body)}` : ''}`)
const ok = (answer: Answer): answer is Answer & { lost: false } => !answer.lost && answer.status >= 200 && answer.status < 300
const list = (answer: Answer): unknown[] | undefined => (ok(answer) && Array.isArray(answer.body) ? answer.body : undefined)

/** Both flows exactly as the interface says, over `call`. */
async function flow(visit: ClientVisit, call: Call): Promise<ClientReport> {
  const refused = (what: string, answer: Answer): ClientReport => ({ outcome: 'rejected', message: `${what} failed: ${said(answer)}` })
  const unknown = (answer: Answer): ClientReport => ({
    outcome: 'unknown',
    message: `The payment may or may not be recorded (${said(answer)}): look it up before charging again.`,
  })

  if (visit.flow === 'simple') {
    const answer = await call('POST', '/payment', {
      location: visit.locationId,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: visit.amount, currency: visit.currency },
    })
    if (ambiguous(answer)) return unknown(answer)
    // Accepted iff the answer carries `id`, whatever the HTTP status.
    const paymentId = answer.lost ? undefined : idOf(answer.body)
    return paymentId ? { outcome: 'paid', paymentId } : { outcome: 'rejected', message: (!answer.lost && messageOf(answer.body)) || `no id (${said(answer)})` }
  }

  const companies = await call('GET', `/rental-companies?kennitala=${encodeURIComponent(visit.ownerKennitala)}`)
  const found = list(companies)
  if (!found) return refused('The company lookup', companies)
  if (found.length === 0) return { outcome: 'skipped', message: `The owner ${visit.ownerKennitala} is not part of the service.` }
  const companyId = idOf(found[0])

  const lookUp = () => call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  let answer = await lookUp()
  const vehicles = list(answer)
  if (!vehicles) return refused('The vehicle lookup', answer)
  let vehicleId = idOf(vehicles[0])
  if (!vehicleId) {
    const create = () => call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
    answer = await create()
    if (ambiguous(answer)) {
      // It may have been created: look before creating it again.
      const again = await lookUp()
      const listed = list(again)
      if (!listed) return refused('Creating the vehicle', answer)
      vehicleId = idOf(listed[0])
      if (!vehicleId) answer = await create()
    }
    vehicleId ??= ok(answer) ? idOf(answer.body) : undefined
    if (!vehicleId) return refused('Creating the vehicle', answer)
    answer = await call('POST', '/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` })
    if (!ok(answer)) return refused('Creating the custodian', answer)
  }

  answer = await call('POST', '/payments', {
    locationId: visit.locationId,
    vehicleId,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
    status: 'new',
  })
  if (ambiguous(answer)) return unknown(answer)
  const paymentId = ok(answer) ? idOf(answer.body) : undefined
  return paymentId ? { outcome: 'paid', paymentId } : refused('The payment', answer)
}
