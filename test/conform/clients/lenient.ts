// A location client, in-process, that runs both flows correctly but for one lenient form of a request:
// what relay-mock accepts beyond the interface's text and a stricter service may refuse. Over node:http,
// which (unlike fetch) sends a body with a GET.
import { request } from 'node:http'
import type { ClientFunction } from '../../../src/node/runner.js'
import { paymentBody, simplePaymentBody } from './bodies.js'

/** The lenient forms the client can use; `none` is the correct client. */
export const LENIENT_FORMS = ['none', 'lower-case-bearer', 'double-space-bearer', 'cache-buster', 'repeated-plate', 'vendor-json', 'utf8-charset', 'get-body', 'date-only-acquired-on', 'lower-case-plate', 'hyphenated-plate', 'fraction-amount', 'exponent-amount', 'duplicate-key'] as const
export type LenientFormName = (typeof LENIENT_FORMS)[number]

interface Answer {
  status: number
  body: unknown
}

function send(base: string, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => {
        let parsed: unknown
        try {
          parsed = text ? JSON.parse(text) : undefined
        } catch {
          parsed = text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

const idOf = (body: unknown) => (typeof body === 'object' && body !== null && typeof (body as { id?: unknown }).id === 'string' ? (body as { id: string }).id : undefined)

/**
 * The client that uses `form` (one of LENIENT_FORMS) and is correct otherwise.
 * @example await runConformance({ client: lenientClient('cache-buster'), cases: ['advanced/new-vehicle'] })
 */
export function lenientClient(form: LenientFormName): ClientFunction {
  const client: ClientFunction = async (visit, env) => {
    const base = env.RELAY_BASE_URL
    const authorization = form === 'lower-case-bearer' ? `bearer ${env.RELAY_API_TOKEN}` : form === 'double-space-bearer' ? `Bearer  ${env.RELAY_API_TOKEN}` : `Bearer ${env.RELAY_API_TOKEN}`
    const type = form === 'vendor-json' ? 'application/vnd.relay+json' : form === 'utf8-charset' ? 'application/json; charset=utf8' : 'application/json'
    const plate = form === 'lower-case-plate' ? visit.plate.toLowerCase() : form === 'hyphenated-plate' ? visit.plate.replace(/^([^0-9]+)/, '$1-') : visit.plate
    const get = (path: string, query: Record<string, string>) => {
      const search = new URLSearchParams(query)
      if (form === 'cache-buster') search.append('_', String(Date.now()))
      if (form === 'repeated-plate' && 'plate' in query) search.append('plate', query.plate)
      const body = form === 'get-body' ? JSON.stringify(query) : undefined
      return send(base, 'GET', `${path}?${search}`, { authorization, ...(body ? { 'content-type': 'application/json' } : {}) }, body)
    }
    const post = (path: string, body: object) => send(base, 'POST', path, { authorization, 'content-type': type }, written(JSON.stringify(body)))
    // The body's text as the form writes it: the amount (in both flows `"amount":<n>,"currency"`), or the currency named twice.
    const written = (text: string) => {
      const amount = `"amount":${visit.amount},"currency"`
      if (form === 'fraction-amount') return text.replace(amount, `"amount":${visit.amount}.0,"currency"`)
      if (form === 'exponent-amount') return text.replace(amount, `"amount":${visit.amount.toExponential()},"currency"`)
      if (form === 'duplicate-key') return text.replace(/"currency":("[^"]*")/, '"currency":$1,"currency":$1')
      return text
    }
    if (visit.flow === 'simple') {
      const answer = await post('/payment', simplePaymentBody(visit, plate))
      const id = idOf(answer.body)
      return id ? { outcome: 'paid', paymentId: id } : { outcome: 'rejected' }
    }
    const companies = await get('/rental-companies', { kennitala: visit.ownerKennitala })
    if (!Array.isArray(companies.body)) return { outcome: 'rejected' }
    if (companies.body.length === 0) return { outcome: 'skipped' }
    const companyId = idOf(companies.body[0])!
    const vehicles = await get('/vehicles', { plate })
    if (!Array.isArray(vehicles.body)) return { outcome: 'rejected' }
    let vehicleId = idOf(vehicles.body[0])
    if (!vehicleId) {
      vehicleId = idOf((await post('/vehicles', { plate, country: 'is' })).body)
      if (!vehicleId) return { outcome: 'rejected' }
      const acquiredOn = form === 'date-only-acquired-on' ? visit.registrationDate : `${visit.registrationDate} 00:00:00`
      if (!idOf((await post('/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn })).body)) return { outcome: 'rejected' }
    }
    const payment = await post('/payments', paymentBody(visit, vehicleId))
    const id = idOf(payment.body)
    return id ? { outcome: 'paid', paymentId: id } : { outcome: 'rejected' }
  }
  Object.defineProperty(client, 'name', { value: `lenient-${form}` })
  return client
}
