// The project's own reference client, in-process: both flows exactly as the interface says, over
// real HTTP with fetch. `relay-mock demo` runs it; tests use it as the known-good client.
import type { ClientReport } from '../core/rules/types.js'
import type { ClientFunction, ClientVisit, RelayEnv } from './runner.js'

interface Answer {
  status: number
  body: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const idOf = (value: unknown): string | undefined => (isRecord(value) && typeof value.id === 'string' && value.id !== '' ? value.id : undefined)
const messageOf = (value: unknown): string | undefined => (isRecord(value) && typeof value.message === 'string' ? value.message : undefined)

/**
 * The reference client, optionally retrying: a call the service fails (5xx) is sent again after the
 * Retry-After it gave (at most 5 s), up to `retries` more times, before the flow stops.
 * @example await runConformance({ client: createReferenceClient({ retries: 1 }) })
 */
export function createReferenceClient({ retries = 0 }: { retries?: number } = {}): ClientFunction {
  return async function referenceClient(visit: ClientVisit, env: RelayEnv, { signal }): Promise<ClientReport> {
    const send = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Answer & { retryAfter: number }> => {
      const headers: Record<string, string> = { authorization: `Bearer ${env.RELAY_API_TOKEN}` }
      if (body) headers['content-type'] = 'application/json'
      const response = await fetch(`${env.RELAY_BASE_URL}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal })
      const text = await response.text()
      let parsed: unknown
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      const seconds = Number(response.headers.get('retry-after') ?? '1')
      return { status: response.status, body: parsed, retryAfter: Number.isFinite(seconds) ? seconds : 1 }
    }
    const call = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Answer> => {
      let answer = await send(method, path, body)
      for (let attempt = 0; attempt < retries && answer.status >= 500; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(answer.retryAfter, 5) * 1000))
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

/** Both flows exactly as the interface says, over `call`. */
async function flow(visit: ClientVisit, call: (method: 'GET' | 'POST', path: string, body?: object) => Promise<Answer>): Promise<ClientReport> {
  const refused = (what: string, answer: Answer): ClientReport => ({
    outcome: 'rejected',
    message: `${what} failed: HTTP ${answer.status}${messageOf(answer.body) ? `: ${messageOf(answer.body)}` : ''}`,
  })
  const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300

  if (visit.flow === 'simple') {
    const answer = await call('POST', '/payment', {
      location: visit.locationId,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: visit.amount, currency: visit.currency },
    })
    // Accepted iff the answer carries `id`, whatever the HTTP status.
    const paymentId = idOf(answer.body)
    return paymentId ? { outcome: 'paid', paymentId } : { outcome: 'rejected', message: messageOf(answer.body) ?? `no id (HTTP ${answer.status})` }
  }

  let answer = await call('GET', `/rental-companies?kennitala=${encodeURIComponent(visit.ownerKennitala)}`)
  if (!ok(answer) || !Array.isArray(answer.body)) return refused('The company lookup', answer)
  if (answer.body.length === 0) return { outcome: 'skipped', message: `The owner ${visit.ownerKennitala} is not part of the service.` }
  const companyId = idOf(answer.body[0])

  answer = await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (!ok(answer) || !Array.isArray(answer.body)) return refused('The vehicle lookup', answer)
  let vehicleId = idOf(answer.body[0])
  if (!vehicleId) {
    answer = await call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
    vehicleId = idOf(answer.body)
    if (!ok(answer) || !vehicleId) return refused('Creating the vehicle', answer)
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
  const paymentId = idOf(answer.body)
  return ok(answer) && paymentId ? { outcome: 'paid', paymentId } : refused('The payment', answer)
}
