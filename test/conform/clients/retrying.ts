// A correct client that retries: the reference flow, except that a call the service fails (5xx) is
// sent once more after the Retry-After the service gave. It reaches `paid` where the service fails
// only the first attempt, and passes every case (test/conform/resilience.test.ts).
import type { ClientReport } from '../../../src/core/rules/types.js'
import type { ClientFunction } from '../../../src/node/runner.js'

interface Answer {
  status: number
  body: any
}

const idOf = (value: any): string | undefined => (typeof value?.id === 'string' && value.id !== '' ? value.id : undefined)
const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300

/** Runs one visit, retrying each failed call once; never throws on an answer of the service. */
export const retryingClient: ClientFunction = async function retryingClient(visit, env, { signal }): Promise<ClientReport> {
  const send = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Answer & { retryAfter: number }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${env.RELAY_API_TOKEN}` }
    if (body) headers['content-type'] = 'application/json'
    const response = await fetch(`${env.RELAY_BASE_URL}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal })
    const text = await response.text()
    const seconds = Number(response.headers.get('retry-after') ?? '1')
    return { status: response.status, body: text ? JSON.parse(text) : undefined, retryAfter: Number.isFinite(seconds) ? seconds : 1 }
  }
  const call = async (method: 'GET' | 'POST', path: string, body?: object): Promise<Answer> => {
    const answer = await send(method, path, body)
    if (answer.status < 500) return answer
    await new Promise((resolve) => setTimeout(resolve, Math.min(answer.retryAfter, 5) * 1000))
    return send(method, path, body)
  }
  const rejected = (what: string, answer: Answer): ClientReport => ({ outcome: 'rejected', message: `${what} failed: HTTP ${answer.status}` })

  if (visit.flow === 'simple') {
    const answer = await call('POST', '/payment', {
      location: visit.locationId,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: visit.amount, currency: visit.currency },
    })
    const paymentId = idOf(answer.body)
    return paymentId ? { outcome: 'paid', paymentId } : { outcome: 'rejected', message: answer.body?.message ?? `HTTP ${answer.status}` }
  }

  let answer = await call('GET', `/rental-companies?kennitala=${encodeURIComponent(visit.ownerKennitala)}`)
  if (!ok(answer) || !Array.isArray(answer.body)) return rejected('The company lookup', answer)
  if (answer.body.length === 0) return { outcome: 'skipped' }
  const companyId = idOf(answer.body[0])
  answer = await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (!ok(answer) || !Array.isArray(answer.body)) return rejected('The vehicle lookup', answer)
  let vehicleId = idOf(answer.body[0])
  if (!vehicleId) {
    answer = await call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
    vehicleId = idOf(answer.body)
    if (!ok(answer) || !vehicleId) return rejected('Creating the vehicle', answer)
    answer = await call('POST', '/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` })
    if (!ok(answer)) return rejected('Creating the custodian', answer)
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
  return ok(answer) && paymentId ? { outcome: 'paid', paymentId } : rejected('The payment', answer)
}
