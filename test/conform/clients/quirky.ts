// A location client with habits real clients have, chosen by option: a cache-buster on every lookup
// (`&_=1795791066550`, fresh each attempt), the query's parameters and the body's keys in another order
// and layout each attempt, a User-Agent that changes each attempt, as many attempts as asked, and
// (its one defect when asked) a plate pasted into the query unencoded. Over node:http, so what it
// sends is what it wrote: nothing percent-encodes the path behind its back. Otherwise it is the
// reference flow: a lookup retried after a lost answer (at once) or a 5xx (600 ms later), a 503 or
// 429 after its Retry-After, a POST whose answer was lost never sent again, `unknown` for a lost payment.
import http from 'node:http'
import type { ClientReport } from '../../../src/core/rules/types.js'
import type { ClientFunction, ClientVisit, RelayEnv } from '../../../src/node/runner.js'
import { paymentBody, simplePaymentBody } from './bodies.js'

export interface Quirks {
  /** Adds `_=<a fresh number>` to every query, first. */
  cacheBuster?: boolean
  /** Turns the body's keys around and indents it differently on every other attempt. */
  shuffle?: boolean
  /** Attempts at a request in all (default 3). */
  attempts?: number
  /** The defect: `plate=${plate}` as it comes, not percent-encoded. */
  pastePlate?: boolean
  /** The defect: the JSON body's bytes in Latin-1 (one byte a letter), not UTF-8. */
  latin1Body?: boolean
}

type Answer = { lost: true; why: string } | { lost: false; status: number; body: unknown; retryAfterMs?: number }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const idOf = (value: unknown) => (isRecord(value) && typeof value.id === 'string' && value.id !== '' ? value.id : undefined)
const ok = (answer: Answer): answer is Answer & { lost: false } => !answer.lost && answer.status >= 200 && answer.status < 300
const ambiguous = (answer: Answer) => answer.lost || answer.status === 500 || answer.status === 502 || answer.status === 504
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A JSON value with its objects' keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversed(item)]))
}

let stamp = 1_795_791_066_550

export function createQuirkyClient(quirks: Quirks = {}): ClientFunction {
  const attempts = quirks.attempts ?? 3
  return async function quirkyClient(visit: ClientVisit, env: RelayEnv): Promise<ClientReport> {
    const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) || 5000
    let sent = 0
    const send = (method: 'GET' | 'POST', path: string, query: [string, string][], body?: object) =>
      new Promise<Answer>((resolve) => {
        const n = ++sent
        const pairs = quirks.cacheBuster ? [['_', String(stamp++)], ...query] : query
        const search = pairs.map(([name, value]) => `${name}=${quirks.pastePlate && name === 'plate' ? value : encodeURIComponent(value)}`).join('&')
        const text = body === undefined ? undefined : quirks.shuffle && n % 2 === 0 ? JSON.stringify(reversed(body), null, 2) : JSON.stringify(body)
        const headers: Record<string, string> = { authorization: `Bearer ${env.RELAY_API_TOKEN}`, 'user-agent': `quirky/1.${n}` }
        if (text !== undefined) headers['content-type'] = 'application/json'
        let request: http.ClientRequest
        try {
          // The path as written: a URL string would be percent-encoded by the URL parser on the way.
          const base = new URL(env.RELAY_BASE_URL)
          const target = `${base.pathname.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}`
          request = http.request({ host: base.hostname, port: base.port, path: target, method, headers, timeout: timeoutMs })
        } catch (error) {
          // Node refuses a path with a space in it: the request never leaves.
          throw new Error(`${method} ${path}: ${(error as Error).message}`)
        }
        request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
        request.on('error', (error) => resolve({ lost: true, why: error.message }))
        request.on('response', (response) => {
          let raw = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (raw += chunk))
          response.on('error', (error) => resolve({ lost: true, why: error.message }))
          response.on('end', () => {
            const status = response.statusCode ?? 0
            let parsed: unknown
            try {
              parsed = raw ? JSON.parse(raw) : undefined
            } catch {
              if (status < 300) return resolve({ lost: true, why: 'not JSON' })
            }
            const after = response.headers['retry-after']
            const retryAfterMs = after === undefined ? undefined : /^\d+$/.test(after) ? Number(after) * 1000 : Math.max(0, Date.parse(after) - Date.now())
            resolve({ lost: false, status, body: parsed, retryAfterMs })
          })
        })
        request.end(text === undefined ? undefined : Buffer.from(text, quirks.latin1Body ? 'latin1' : 'utf8'))
      })
    const call = async (method: 'GET' | 'POST', path: string, query: [string, string][], body?: object) => {
      let answer = await send(method, path, query, body)
      for (let attempt = 1; attempt < attempts; attempt++) {
        let wait: number
        if (!answer.lost && (answer.status === 503 || answer.status === 429)) wait = Math.min(answer.retryAfterMs ?? 1000, 10_000) + 100
        else if (method === 'GET' && answer.lost) wait = 0
        else if (method === 'GET' && !answer.lost && answer.status >= 500) wait = 600
        else break
        await sleep(wait)
        answer = await send(method, path, query, body)
      }
      return answer
    }
    const refused = (what: string): ClientReport => ({ outcome: 'rejected', message: `${what} failed` })

    if (visit.flow === 'simple') {
      const answer = await call('POST', '/payment', [], simplePaymentBody(visit))
      if (ambiguous(answer)) return { outcome: 'unknown' }
      const paymentId = answer.lost ? undefined : idOf(answer.body)
      return paymentId ? { outcome: 'paid', paymentId } : refused('The payment')
    }
    const companies = await call('GET', '/rental-companies', [['kennitala', visit.ownerKennitala]])
    if (!ok(companies) || !Array.isArray(companies.body)) return refused('The company lookup')
    if (companies.body.length === 0) return { outcome: 'skipped' }
    const companyId = idOf(companies.body[0])
    let answer = await call('GET', '/vehicles', [['plate', visit.plate]])
    if (!ok(answer) || !Array.isArray(answer.body)) return refused('The vehicle lookup')
    let vehicleId = idOf(answer.body[0])
    if (!vehicleId) {
      answer = await call('POST', '/vehicles', [], { plate: visit.plate, country: 'is' })
      vehicleId = ok(answer) ? idOf(answer.body) : undefined
      if (!vehicleId) return refused('Creating the vehicle')
      answer = await call('POST', '/custodians', [], { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` })
      if (!ok(answer)) return refused('Creating the custodian')
    }
    answer = await call('POST', '/payments', [], paymentBody(visit, vehicleId))
    if (ambiguous(answer)) return { outcome: 'unknown' }
    const paymentId = ok(answer) ? idOf(answer.body) : undefined
    return paymentId ? { outcome: 'paid', paymentId } : refused('The payment')
  }
}
