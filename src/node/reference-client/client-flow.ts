// A location's visit as the interface tells it, over any transport: the flow of the reference client
// (reference-client.ts), and of every test client built on it. Both flows: advanced (the company looked
// up by kennitala, skipped if none; the vehicle looked up by plate, created with its custodian if none;
// the payment) and simple (one POST /payment). A request goes out as a FlowRequest, and what the
// transport makes of it comes back as an Answer: how it is sent (fetch, node:http, a library), with
// which habits or lenient forms, is the transport's; when a request is tried again is withRetries'.
import { isRecord, isSuccess, leavesWriteUnknown, parseRetryAfter } from '../../core/exchange/answer.js'
import type { ClientReport } from '../../core/rules/types.js'
import type { ClientVisit } from '../runner/contract.js'

export type Method = 'GET' | 'POST'

/** One request of the flow: the query as name-value pairs, to be written by the transport. */
export interface FlowRequest {
  method: Method
  path: string
  query: Array<[name: string, value: string]>
  body?: Record<string, unknown>
}

/** What one request came to: an answer the client could read, or none (`lost`, with why). */
export type Answer = { lost: false; status: number; body: unknown; retryAfterMs?: number } | { lost: true; why: string }

/** Sends one request and says what it came to; never throws on what the service did. */
export type Send = (request: FlowRequest) => Promise<Answer>

export { isRecord }
export const idOf = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.id === 'string' && value.id !== '' ? value.id : undefined
const messageOf = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.message === 'string' ? value.message : undefined
export const ok = (answer: Answer): answer is Answer & { lost: false } => !answer.lost && isSuccess(answer.status)
const list = (answer: Answer): unknown[] | undefined =>
  ok(answer) && Array.isArray(answer.body) ? answer.body : undefined
const said = (answer: Answer) =>
  answer.lost ? answer.why : `HTTP ${answer.status}${messageOf(answer.body) ? `: ${messageOf(answer.body)}` : ''}`

/** A 500, 502 or 504, or no answer: the service may or may not have done the request. */
export const ambiguous = (answer: Answer) => answer.lost || leavesWriteUnknown(answer.status)

/**
 * Retry-After in ms from now: seconds, or an HTTP-date; undefined when absent or unreadable.
 * @example retryAfterMs('2') // 2000
 */
export const retryAfterMs = (value: string | null | undefined): number | undefined =>
  parseRetryAfter(value, Date.now())?.ms

/**
 * The answer to a response's status and body text: a 2xx the client cannot read (a proxy's page) tells it
 * nothing, as good as no answer; any other body that is not JSON is only unread.
 * @example toAnswer(201, '{"id":"p1"}', null) // { lost: false, status: 201, body: { id: 'p1' }, retryAfterMs: undefined }
 */
export function toAnswer(status: number, text: string, retryAfter: string | null | undefined): Answer {
  try {
    return { lost: false, status, body: text ? JSON.parse(text) : undefined, retryAfterMs: retryAfterMs(retryAfter) }
  } catch {
    if (isSuccess(status)) return { lost: true, why: `HTTP ${status} with a body that is not JSON` }
    return { lost: false, status, body: undefined, retryAfterMs: retryAfterMs(retryAfter) }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

/** How long to wait before sending `request` again after `answer` (its `attempt`th), or undefined not to. */
export type RetryWait = (answer: Answer, request: FlowRequest, attempt: number) => number | undefined

/**
 * The conformance rules' retries: a 503 or 429 after its Retry-After (a little past it: the service's
 * clock and ours need not agree to the millisecond), a lookup after a lost answer (at once) or a 5xx
 * (600 ms later); a POST whose fate is unknown never (the flow looks it up instead).
 */
export const referenceWait: RetryWait = (answer, { method }) => {
  if (!answer.lost && (answer.status === 503 || answer.status === 429))
    return Math.min(answer.retryAfterMs ?? 1000, 10_000) + 100
  if (method === 'GET' && answer.lost) return 0
  if (method === 'GET' && !answer.lost && answer.status >= 500) return 600
  return undefined
}

/**
 * `send`, sending a request again as `wait` says (default referenceWait), `attempts` in all (default 3);
 * stops when `signal` aborts.
 * @example withRetries(send, { attempts: 2 })
 */
export function withRetries(
  send: Send,
  { attempts = 3, signal, wait = referenceWait }: { attempts?: number; signal?: AbortSignal; wait?: RetryWait } = {},
): Send {
  return async (request) => {
    let answer = await send(request)
    for (let attempt = 1; attempt < attempts && !signal?.aborted; attempt++) {
      const ms = wait(answer, request, attempt)
      if (ms === undefined) break
      await sleep(ms, signal)
      answer = await send(request)
    }
    return answer
  }
}

const refused = (what: string, answer: Answer): ClientReport => ({
  outcome: 'rejected',
  message: `${what} failed: ${said(answer)}`,
})
const unknown = (answer: Answer): ClientReport => ({
  outcome: 'unknown',
  message: `The payment may or may not be recorded (${said(answer)}): look it up before charging again.`,
})
const post = (path: string, body: Record<string, unknown>): FlowRequest => ({ method: 'POST', path, query: [], body })
const get = (path: string, name: string, value: string): FlowRequest => ({
  method: 'GET',
  path,
  query: [[name, value]],
})

/**
 * Reports one visit's payment with the flow `visit.flow` over `send` and returns the outcome; never
 * throws on an answer of the service (the customer's payment completes whatever it says).
 * @example await runFlow(visit, withRetries(fetchSend))
 */
export function runFlow(visit: ClientVisit, send: Send): Promise<ClientReport> {
  return visit.flow === 'simple' ? simple(visit, send) : advanced(visit, send)
}

async function simple(visit: ClientVisit, send: Send): Promise<ClientReport> {
  const answer = await send(
    post('/payment', {
      location: visit.locationId,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: visit.amount, currency: visit.currency },
    }),
  )
  if (ambiguous(answer)) return unknown(answer)
  // Accepted iff the answer carries `id`, whatever the HTTP status.
  const paymentId = answer.lost ? undefined : idOf(answer.body)
  return paymentId
    ? { outcome: 'paid', paymentId }
    : { outcome: 'rejected', message: (!answer.lost && messageOf(answer.body)) || `no id (${said(answer)})` }
}

async function advanced(visit: ClientVisit, send: Send): Promise<ClientReport> {
  const companies = await send(get('/rental-companies', 'kennitala', visit.ownerKennitala))
  const found = list(companies)
  if (!found) return refused('The company lookup', companies)
  if (found.length === 0)
    return { outcome: 'skipped', message: `The owner ${visit.ownerKennitala} is not part of the service.` }
  const companyId = idOf(found[0])

  const lookUp = () => send(get('/vehicles', 'plate', visit.plate))
  let answer = await lookUp()
  const vehicles = list(answer)
  if (!vehicles) return refused('The vehicle lookup', answer)
  let vehicleId = idOf(vehicles[0])
  if (!vehicleId) {
    const create = () => send(post('/vehicles', { plate: visit.plate, country: 'is' }))
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
    answer = await send(
      post('/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` }),
    )
    if (!ok(answer)) return refused('Creating the custodian', answer)
  }

  answer = await send(
    post('/payments', {
      locationId: visit.locationId,
      vehicleId,
      amount: { amount: visit.amount, currency: visit.currency },
      startedOn: visit.visitStart,
      endedOn: visit.visitEnd,
      status: 'new',
    }),
  )
  if (ambiguous(answer)) return unknown(answer)
  const paymentId = ok(answer) ? idOf(answer.body) : undefined
  return paymentId ? { outcome: 'paid', paymentId } : refused('The payment', answer)
}
