// A location client, in-process, that runs both flows correctly (the reference flow,
// src/node/reference-client/client-flow.ts, with no retries) but for one lenient form of a request: what relay-mock
// accepts beyond the interface's text and a stricter service may refuse. The form is the transport's:
// over node:http, which (unlike fetch) sends a body with a GET.
import { request } from 'node:http'
import { runFlow, toAnswer, type Answer, type FlowRequest } from '../../../src/node/reference-client/client-flow.js'
import type { ClientFunction, ClientVisit, RelayEnv } from '../../../src/node/runner/contract.js'

/** The lenient forms the client can use; `none` is the correct client. */
export const LENIENT_FORMS = [
  'none',
  'lower-case-bearer',
  'double-space-bearer',
  'cache-buster',
  'repeated-plate',
  'vendor-json',
  'utf8-charset',
  'get-body',
  'date-only-acquired-on',
  'lower-case-plate',
  'hyphenated-plate',
  'fraction-amount',
  'exponent-amount',
  'duplicate-key',
] as const
export type LenientFormName = (typeof LENIENT_FORMS)[number]

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        agent: false,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve(toAnswer(res.statusCode ?? 0, text, res.headers['retry-after'])))
      },
    )
    req.on('error', (error) => resolve({ lost: true, why: error.message }))
    req.end(body)
  })
}

/** The plate as the form writes it, in the query and in the bodies. */
function plateOf(form: LenientFormName, plate: string) {
  if (form === 'lower-case-plate') return plate.toLowerCase()
  if (form === 'hyphenated-plate') return plate.replace(/^([^0-9]+)/, '$1-')
  return plate
}

/** The body's text as the form writes it: the amount (in both flows `"amount":<n>,"currency"`), the currency named twice, the date alone. */
function bodyText(form: LenientFormName, visit: ClientVisit, { path, body }: FlowRequest): string {
  const plate = plateOf(form, visit.plate)
  let edited = body
  if (path === '/vehicles') edited = { ...body, plate }
  if (path === '/payment') edited = { ...body, vehicle: { ...(body?.vehicle as object), plate } }
  if (path === '/custodians' && form === 'date-only-acquired-on')
    edited = { ...body, acquiredOn: visit.registrationDate }
  const text = JSON.stringify(edited)
  const amount = `"amount":${visit.amount},"currency"`
  if (form === 'fraction-amount') return text.replace(amount, `"amount":${visit.amount}.0,"currency"`)
  if (form === 'exponent-amount') return text.replace(amount, `"amount":${visit.amount.toExponential()},"currency"`)
  if (form === 'duplicate-key') return text.replace(/"currency":("[^"]*")/, '"currency":$1,"currency":$1')
  return text
}

/** The form's transport: every request as the form writes it. */
function lenientSend(form: LenientFormName, visit: ClientVisit, env: RelayEnv) {
  const authorization =
    form === 'lower-case-bearer'
      ? `bearer ${env.RELAY_API_TOKEN}`
      : form === 'double-space-bearer'
        ? `Bearer  ${env.RELAY_API_TOKEN}`
        : `Bearer ${env.RELAY_API_TOKEN}`
  const type =
    form === 'vendor-json'
      ? 'application/vnd.relay+json'
      : form === 'utf8-charset'
        ? 'application/json; charset=utf8'
        : 'application/json'
  return (flowRequest: FlowRequest): Promise<Answer> => {
    const { method, path, query } = flowRequest
    if (method === 'POST')
      return send(
        env.RELAY_BASE_URL,
        'POST',
        path,
        { authorization, 'content-type': type },
        bodyText(form, visit, flowRequest),
      )
    const search = new URLSearchParams(
      query.map(([name, value]) => [name, name === 'plate' ? plateOf(form, value) : value]),
    )
    if (form === 'cache-buster') search.append('_', String(Date.now()))
    if (form === 'repeated-plate' && search.has('plate')) search.append('plate', search.get('plate')!)
    const body = form === 'get-body' ? JSON.stringify(Object.fromEntries(search)) : undefined
    return send(
      env.RELAY_BASE_URL,
      'GET',
      `${path}?${search}`,
      { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
    )
  }
}

/**
 * The client that uses `form` (one of LENIENT_FORMS) and is correct otherwise.
 * @example await runConformance({ client: lenientClient('cache-buster'), cases: ['advanced/new-vehicle'] })
 */
export function lenientClient(form: LenientFormName): ClientFunction {
  const client: ClientFunction = (visit, env) => runFlow(visit, lenientSend(form, visit, env))
  Object.defineProperty(client, 'name', { value: `lenient-${form}` })
  return client
}
