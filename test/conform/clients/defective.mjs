// A location client with one deliberate defect, chosen by name: the reference client's flow
// (src/node/reference-client/client-flow.ts, as built in dist/: this client also runs as a plain process) and its retries,
// with each defect one parameter of it, marked `defect(...)`: how a request is written (edit), sent
// (send), sent again (wait, attempts), what else is sent around it or read of its answer (around), or
// how the outcome is reported (report). It runs in-process (createDefectiveClient(name) is a
// runConformance client function) or as a real process:
//   node test/conform/clients/defective.mjs <defect>
// The process reads the RELAY_* variables, writes RELAY_RESULT_FILE and exits 0 (unless the defect says otherwise).
import { spawn } from 'node:child_process'
import http from 'node:http'
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import {
  ambiguous,
  idOf,
  isRecord,
  ok,
  referenceWait,
  runFlow,
  toAnswer,
  withRetries,
} from '../../../dist/src/node/reference-client/client-flow.js'

export const DEFECTS = [
  'none',
  'misspelled-path',
  'ping-first',
  'no-auth',
  'wrong-token',
  'text-plain',
  'invalid-json',
  'skip-company-lookup',
  'kennitala-with-hyphen',
  'continue-unknown-owner',
  'vehicle-query-param',
  'country-upper-case',
  'custodian-wrong-company',
  'acquired-on-visit-date',
  'create-when-found',
  'custodian-when-found',
  'last-vehicle',
  'amount-string',
  'wrong-currency',
  'iso-timestamps',
  'bump-equal-end',
  'two-payments',
  'payment-not-last',
  'exit-1-unknown-owner',
  'paid-when-skipped',
  'bad-result-file',
  'hang-after-paying',
  'spawn-sleeper',
  'simple-two-requests',
  'simple-get-payment',
  'simple-acquired-timestamp',
  'simple-amount-string',
  'simple-keys-on-status',
  'simple-exit-1-when-refused',
  'retry-until-200',
  'resend-payment',
  'no-retry-after',
  'own-backoff',
  'retry-forever',
  'retry-refusal',
  'no-timeout',
  'paid-after-failure',
  'rejected-when-unknown',
  'gives-up-on-503',
  'gives-up-on-lookup',
  // Correct against relay-mock, but each leaning on one of its choices where the interface is silent:
  'only-201-created',
  'id-from-location',
  'strict-records',
  'problem-title',
  'paid-from-status-new',
  'throws-on-403',
  'needs-challenge',
  'refusal-422-only',
  'stale-owner-list',
  'four-attempts',
  'quick-retry',
  'retry-refusal-once',
  'retries-past-deadline',
  'keep-alive-resend',
  'no-content-type',
  'refusal-as-lost',
]

/** Whether `defect` names a known defect, or several joined by `+` (e.g. `amount-string+simple-amount-string`). */
const known = (defect) => defect.split('+').every((name) => DEFECTS.includes(name))

/** Kept-alive connections, for defect(keep-alive-resend). */
const agent = new http.Agent({ keepAlive: true })

/**
 * A request through node:http on kept-alive connections that, as Node's http docs advise, sends a GET
 * again at once, on a new connection, when the kept-alive connection it was sent on was reset before any
 * answer: the resend an HTTP library makes by itself (Go's net/http and java.net.http do the same).
 * Resolves with what the flow reads of a fetch Response.
 */
function sendKeptAlive(method, url, headers, text, timeoutMs) {
  return new Promise((resolve, reject) => {
    const attempt = (mayResend) => {
      let answered = false
      const request = http.request(
        url,
        {
          method,
          headers: text === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(text) },
          agent,
          timeout: timeoutMs,
        },
        (response) => {
          answered = true
          let raw = ''
          response.setEncoding('utf8')
          response.on('data', (chunk) => (raw += chunk))
          response.on('error', reject)
          response.on('close', () =>
            response.complete
              ? resolve({
                  status: response.statusCode,
                  ok: response.statusCode >= 200 && response.statusCode < 300,
                  text: async () => raw,
                  headers: { get: (name) => response.headers[name] ?? null },
                })
              : reject(new Error('answer cut off')),
          )
        },
      )
      request.on('timeout', () => request.destroy(new Error('timed out')))
      request.on('error', (error) => {
        if (mayResend && !answered && method === 'GET' && request.reusedSocket && error.code === 'ECONNRESET')
          attempt(false)
        else reject(error)
      })
      request.end(text)
    }
    attempt(true)
  })
}

/** An error the defective client does not recover from: it ends the run with exit 1. */
class Fatal extends Error {}
const FIELDS = { '/rental-companies': ['id', 'name', 'kennitala'], '/vehicles': ['id', 'plate', 'country'] }
function strictRecords(route, body) {
  const allowed = Array.isArray(body) ? FIELDS[route] : ['id', 'link']
  for (const record of Array.isArray(body) ? body : [body]) {
    const extra = isRecord(record) && allowed ? Object.keys(record).filter((key) => !allowed.includes(key)) : []
    if (extra.length > 0 && !(route === '/payment')) throw new Fatal(`${route}: unexpected field ${extra[0]}`)
  }
}
const GET = (path, name, value) => ({ method: 'GET', path, query: [[name, value]] })
const withoutId = (answer) => ({ ...answer, body: { ...(isRecord(answer.body) ? answer.body : {}), id: undefined } })
const bumped = (time) => time.replace(/:(\d\d)$/, (_, s) => `:${String(Number(s) + 1).padStart(2, '0')}`)

/** The request as the defects write it. */
function edit(has, visit, request) {
  const { method, path } = request
  let { query, body } = request
  if (path === '/rental-companies' && has('kennitala-with-hyphen'))
    query = query.map(([name, value]) => [name, `${value.slice(0, 6)}-${value.slice(6)}`])
  // defect(misspelled-path): asks for /rental-comapnies.
  if (path === '/rental-companies' && has('misspelled-path')) return { method, path: '/rental-comapnies', query }
  if (path === '/vehicles' && method === 'GET' && has('vehicle-query-param')) query = [['number', visit.plate]]
  if (path === '/vehicles' && method === 'POST' && has('country-upper-case')) body = { ...body, country: 'IS' }
  if (path === '/custodians' && has('custodian-wrong-company')) body = { ...body, rentalCompanyId: visit.locationId }
  if (path === '/custodians' && has('acquired-on-visit-date'))
    body = { ...body, acquiredOn: `${visit.visitStart.slice(0, 10)} 00:00:00` }
  if (path === '/payments') {
    if (has('amount-string') || has('wrong-currency'))
      body = {
        ...body,
        amount: {
          amount: has('amount-string') ? String(visit.amount) : visit.amount,
          currency: has('wrong-currency') ? 'EUR' : visit.currency,
        },
      }
    if (has('bump-equal-end') && visit.visitEnd === visit.visitStart)
      body = { ...body, endedOn: bumped(visit.visitEnd) }
    if (has('iso-timestamps'))
      body = { ...body, startedOn: body.startedOn.replace(' ', 'T'), endedOn: body.endedOn.replace(' ', 'T') }
  }
  if (path === '/payment') {
    if (has('simple-get-payment')) return { method: 'GET', path, query }
    if (has('simple-acquired-timestamp'))
      body = { ...body, vehicle: { ...body.vehicle, acquiredOn: `${visit.registrationDate} 00:00:00` } }
    if (has('simple-amount-string')) body = { ...body, payment: { ...body.payment, amount: String(visit.amount) } }
  }
  return { method, path, query, body }
}

/** The answer to `response` (fetch's or sendKeptAlive's), as the defects read it; throws what the client does not recover from. */
async function read(has, visit, { method, path }, response) {
  const raw = await response.text()
  const answer = {
    ...toAnswer(response.status, raw, response.headers.get('retry-after')),
    location: response.headers.get('location'),
  }
  const parsed = answer.body
  // defect(strict-records): refuses a record that carries a field it does not know.
  if (has('strict-records') && response.ok && !answer.lost) strictRecords(path, parsed)
  // defect(problem-title): logs an advanced error's title, as a problem document has one.
  if (has('problem-title') && !response.ok && visit.flow === 'advanced')
    console.error(`${method} ${path}: ${parsed.title.trim()}`)
  // defect(throws-on-403): takes a 403 for a bug of its own, where a refused token is 401.
  if (has('throws-on-403') && response.status === 403) throw new Fatal(`${method} ${path}: 403 Forbidden`)
  // defect(needs-challenge): reads the scheme of a 401's WWW-Authenticate.
  if (has('needs-challenge') && response.status === 401)
    console.error(`refused: ${response.headers.get('www-authenticate').split(' ')[0]}`)
  return answer
}

/** One request, sent as the defects send it. */
async function send(has, visit, env, request) {
  const { method, path, query, body } = request
  const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) || 5000
  const url = `${env.RELAY_BASE_URL}${path}${query.length > 0 ? `?${query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}` : ''}`
  const headers = {}
  if (!has('no-auth'))
    headers.authorization = `Bearer ${has('wrong-token') ? 'rm_000000000000000000000000' : env.RELAY_API_TOKEN}`
  let text
  if (body !== undefined) {
    // defect(no-content-type): sends its JSON with no Content-Type (as bytes, which fetch sends without one).
    if (!has('no-content-type')) headers['content-type'] = has('text-plain') ? 'text/plain' : 'application/json'
    text = has('invalid-json') ? JSON.stringify(body).replace(/\}$/, ',}') : JSON.stringify(body)
  }
  try {
    // defect(no-timeout): waits for an answer however long it takes.
    // defect(keep-alive-resend): its HTTP layer sends a GET again by itself after a kept-alive connection was reset.
    const response = has('keep-alive-resend')
      ? await sendKeptAlive(method, url, headers, text, timeoutMs)
      : await fetch(url, {
          method,
          headers,
          body: has('no-content-type') && text !== undefined ? new TextEncoder().encode(text) : text,
          ...(has('no-timeout') ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
        })
    return await read(has, visit, request, response)
  } catch (error) {
    if (error instanceof Fatal || (error instanceof TypeError && !/fetch failed|terminated/.test(error.message)))
      throw error
    return { lost: true, why: error.message }
  }
}

/** When the defects send a request again: the reference client's retries, but for the defects'. */
function wait(has) {
  return (answer, request, attempt) => {
    if (!answer.lost && (answer.status === 503 || answer.status === 429)) {
      // defect(gives-up-on-503): stops at the first 503 or 429. defect(no-retry-after): retries it at once.
      if (has('gives-up-on-503')) return undefined
      if (has('no-retry-after')) return 0
      // defect(own-backoff): ignores Retry-After and waits a back-off of its own, 1 s.
      if (has('own-backoff')) return 1000
      // defect(retries-past-deadline): waits out each Retry-After however long, past the case's deadline.
      if (has('retries-past-deadline')) return answer.retryAfterMs ?? 1000
    } else if (request.method === 'GET' && (answer.lost || answer.status >= 500)) {
      // defect(gives-up-on-lookup): stops at the first lookup that failed.
      if (has('gives-up-on-lookup')) return undefined
      // (keep-alive-resend backs off 500 ms after a lost answer: its own retries wait, its library's do not.)
      if (answer.lost && has('keep-alive-resend')) return 500
      // defect(quick-retry): retries a 5xx at once, as axios-retry's and urllib3's first retry does.
      if (!answer.lost && has('quick-retry')) return 0
    }
    // defect(retry-refusal): sends a refused request again (and again). defect(retry-refusal-once): once.
    else if (
      (has('retry-refusal') || (has('retry-refusal-once') && attempt === 1)) &&
      !answer.lost &&
      answer.status >= 400 &&
      answer.status < 500
    )
      return 0
    // defect(resend-payment): sends a payment whose answer was lost once more.
    else if (has('resend-payment') && attempt === 1 && /^\/payments?$/.test(request.path) && ambiguous(answer))
      return 600
    return referenceWait(answer, request, attempt)
  }
}

// defect(retry-forever): 6 attempts in all. defect(four-attempts): 4, as axios-retry's defaults make. defect(retries-past-deadline): 5.
const attemptsOf = (has) => (has('retry-forever') ? 6 : has('four-attempts') ? 4 : has('retries-past-deadline') ? 5 : 3)

/** What else the defects send around a request, and what they read of its answer; `seen` keeps what the report needs. */
function around(has, visit, env, call, seen) {
  let companyId
  let pinged = false
  const linkCustodian = (vehicleId) =>
    call({
      method: 'POST',
      path: '/custodians',
      query: [],
      body: { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` },
    })
  return async (request) => {
    const { method, path } = request
    // defect(ping-first): asks for GET /status before the advanced flow. defect(simple-two-requests): looks the owner up first.
    if (has('ping-first') && !pinged && visit.flow === 'advanced')
      await call({ method: 'GET', path: '/status', query: [] })
    pinged = true
    if (has('simple-two-requests') && path === '/payment')
      await call(GET('/rental-companies', 'kennitala', visit.ownerKennitala))
    // defect(skip-company-lookup): never asks, and takes the owner for a company without an id.
    if (has('skip-company-lookup') && path === '/rental-companies') return { lost: false, status: 200, body: [{}] }
    let answer = await call(request)
    const list = ok(answer) && Array.isArray(answer.body) ? answer.body : undefined
    if (path === '/rental-companies' && list) {
      // defect(continue-unknown-owner): goes on without a company when the owner is none.
      if (has('continue-unknown-owner') && list.length === 0) answer = { ...answer, body: [{}] }
      companyId = idOf(list[0])
    }
    if (path === '/vehicles' && method === 'GET' && list) {
      // defect(last-vehicle): takes the last vehicle listed. defect(create-when-found): creates the vehicle all the same.
      if (has('last-vehicle')) answer = { ...answer, body: [...list].reverse() }
      if (has('create-when-found')) answer = { ...answer, body: [] }
      else if (has('custodian-when-found') && list.length > 0) {
        // defect(custodian-when-found): links the vehicle it found to the owner again: a custodian, but no vehicle, created.
        const custodian = await linkCustodian(idOf(list[0]))
        if (!ok(custodian)) return custodian
      }
    }
    if (path === '/payments') {
      // defect(retry-until-200): retries until it sees 200, but the service answers 201: it pays again and again, 5 attempts in all.
      for (let attempt = 2; has('retry-until-200') && answer.status !== 200 && attempt <= 5; attempt++)
        answer = await call(request)
      if (has('two-payments')) answer = await call(request)
      if (has('payment-not-last')) await call(GET('/vehicles', 'plate', visit.plate))
    }
    if (method === 'POST' && (path === '/vehicles' || path === '/payment') && !answer.lost) {
      // defect(id-from-location): reads the record's id from Location.
      if (has('id-from-location'))
        answer = {
          ...answer,
          body: { ...(isRecord(answer.body) ? answer.body : {}), id: answer.location?.split('/').at(-1) },
        }
      // With no Location, it links a vehicle without an id, and is refused.
      if (has('id-from-location') && path === '/vehicles' && ok(answer) && !idOf(answer.body)) {
        const custodian = await linkCustodian(undefined)
        return ok(custodian) ? answer : custodian
      }
      // defect(only-201-created): only a 201 is a record created.
      if (has('only-201-created') && ok(answer) && answer.status !== 201) answer = withoutId(answer)
    }
    if (path === '/payment' && !ambiguous(answer)) answer = readPayment(has, answer, seen)
    // defect(refusal-as-lost): takes any error answer to the payment, a refusal too, for a lost one.
    if (/^\/payments?$/.test(path) && has('refusal-as-lost') && !answer.lost && answer.status >= 400)
      answer = { lost: true, why: `HTTP ${answer.status}` }
    return answer
  }
}

/** The simple payment's answer as the defects read it. */
function readPayment(has, answer, seen) {
  // defect(refusal-422-only): a refusal is a 422; any other status without an id is a bug to it.
  if (has('refusal-422-only') && !idOf(answer.body) && answer.status !== 422)
    throw new Fatal(`POST /payment: unexpected ${answer.status}`)
  // defect(only-201-created) on a refusal; defect(paid-from-status-new): paid when `status` is `new`.
  if (has('only-201-created') && answer.status !== 201) return withoutId(answer)
  if (has('paid-from-status-new') && answer.body?.status !== 'new') return withoutId(answer)
  // defect(simple-keys-on-status): paid iff the status is 2xx, whether the answer has an id or not.
  if (has('simple-keys-on-status')) {
    seen.paidWithoutId = ok(answer) && !idOf(answer.body)
    if (!ok(answer)) return withoutId(answer)
  }
  return answer
}

/** The outcome as the defects report it, with the process's exit code. */
function report(has, visit, env, flowReport, seen) {
  const { outcome } = flowReport
  // defect(paid-after-failure) claims a payment it has no id for; defect(rejected-when-unknown) says rejected.
  if (outcome === 'unknown' && (has('paid-after-failure') || has('rejected-when-unknown')))
    return { report: { ...flowReport, outcome: has('paid-after-failure') ? 'paid' : 'rejected' }, exitCode: 0 }
  // defect(stale-owner-list): an owner missing from its own list of rental companies is never recorded, it holds.
  if (
    has('stale-owner-list') &&
    visit.flow === 'simple' &&
    outcome !== 'unknown' &&
    !(env.RELAY_REGISTERED_OWNERS ?? '').split(',').includes(visit.ownerKennitala)
  )
    return { report: { outcome: 'rejected' }, exitCode: 0 }
  if (seen.paidWithoutId && outcome === 'rejected') return { report: { outcome: 'paid' }, exitCode: 0 }
  // defect(paid-when-skipped): says paid for an owner who is not part of the service. defect(exit-1-unknown-owner): exits 1 there.
  if (outcome === 'skipped')
    return {
      report: has('paid-when-skipped') ? { outcome: 'paid' } : flowReport,
      exitCode: has('exit-1-unknown-owner') ? 1 : 0,
    }
  // defect(simple-exit-1-when-refused): exits 1 when the simple payment was refused.
  return {
    report: flowReport,
    exitCode: has('simple-exit-1-when-refused') && visit.flow === 'simple' && outcome === 'rejected' ? 1 : 0,
    hang: has('hang-after-paying') && outcome === 'paid',
  }
}

/** Runs the flow with `defect`; resolves with { report, exitCode, hang }. */
export async function runDefective(defect, env) {
  const has = (name) => defect.split('+').includes(name)
  const visit = JSON.parse(env.RELAY_VISIT)
  const seen = {}
  // Edited before the retries: they see the request as sent (defect(simple-get-payment)'s GET is retried as a lookup).
  const retried = withRetries((request) => send(has, visit, env, request), {
    attempts: attemptsOf(has),
    wait: wait(has),
  })
  const call = (request) => retried(edit(has, visit, request))
  return report(has, visit, env, await runFlow(visit, around(has, visit, env, call, seen)), seen)
}

/** The defective client as an in-process client function for runConformance. */
export function createDefectiveClient(defect, extraEnv = {}) {
  if (!known(defect)) throw new Error(`No such defect: ${defect}`)
  return async function defective(_visit, env) {
    const { report, exitCode } = await runDefective(defect, { ...env, ...extraEnv })
    if (exitCode !== 0) throw new Error(`exit ${exitCode}`)
    return report
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const defect = process.argv[2] ?? 'none'
  if (!known(defect)) {
    console.error(`No such defect: ${defect}. Known: ${DEFECTS.join(', ')}`)
    process.exit(2)
  }
  if (defect === 'spawn-sleeper') {
    // A client that starts a child and waits on it forever: only killing the process tree ends it.
    spawn('sleep', [process.argv[3] ?? '317'], { stdio: 'inherit' })
    await new Promise(() => {})
  }
  let ran
  try {
    ran = await runDefective(defect, process.env)
  } catch (error) {
    console.error(String(error?.stack ?? error))
    process.exit(1)
  }
  const { report, exitCode, hang } = ran
  const file = process.env.RELAY_RESULT_FILE
  if (file) writeFileSync(file, defect === 'bad-result-file' ? report.outcome : JSON.stringify(report))
  console.error(`outcome: ${report.outcome}`)
  if (hang)
    setInterval(() => {}, 60_000) // e.g. an open handle: the process never ends by itself
  else process.exit(exitCode)
}
