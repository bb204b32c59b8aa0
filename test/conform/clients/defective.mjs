// A location client with one deliberate defect, chosen by name: the correct flow of the reference
// client (resilient: a timeout on every request, Retry-After obeyed, at most 3 attempts, a lookup
// retried after a lost answer or a 5xx, a POST whose answer was lost never sent again, `unknown` when
// a payment's answer was lost), with each defect a single changed line marked `defect(...)`. It runs in-process
// (createDefectiveClient(name) is a runConformance client function) or as a real process:
//   node test/conform/clients/defective.mjs <defect>
// The process reads the RELAY_* variables, writes RELAY_RESULT_FILE and exits 0 (unless the defect says otherwise).
import { spawn } from 'node:child_process'
import http from 'node:http'
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

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
      const request = http.request(url, { method, headers: text === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(text) }, agent, timeout: timeoutMs }, (response) => {
        answered = true
        let raw = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (raw += chunk))
        response.on('error', reject)
        response.on('close', () => (response.complete ? resolve({ status: response.statusCode, ok: response.statusCode >= 200 && response.statusCode < 300, text: async () => raw, headers: { get: (name) => response.headers[name] ?? null } }) : reject(new Error('answer cut off'))))
      })
      request.on('timeout', () => request.destroy(new Error('timed out')))
      request.on('error', (error) => {
        if (mayResend && !answered && method === 'GET' && request.reusedSocket && error.code === 'ECONNRESET') attempt(false)
        else reject(error)
      })
      request.end(text)
    }
    attempt(true)
  })
}

/** No answer the client could read: the connection failed, timed out, or a 2xx was not JSON. */
const LOST = { lost: true, status: 0, ok: false, body: undefined }
const ambiguous = (answer) => answer.lost || answer.status === 500 || answer.status === 502 || answer.status === 504
const retryAfterMs = (value) => {
  if (value === null || value === undefined) return 1000
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now())
}
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)
/** An error the defective client does not recover from: it ends the run with exit 1. */
class Fatal extends Error {}
const FIELDS = { '/rental-companies': ['id', 'name', 'kennitala'], '/vehicles': ['id', 'plate', 'country'] }
function strictRecords(path, body) {
  const [route] = path.split('?')
  const allowed = Array.isArray(body) ? FIELDS[route] : ['id', 'link']
  for (const record of Array.isArray(body) ? body : [body]) {
    const extra = isRecord(record) && allowed ? Object.keys(record).filter((key) => !allowed.includes(key)) : []
    if (extra.length > 0 && !(route === '/payment')) throw new Fatal(`${route}: unexpected field ${extra[0]}`)
  }
}
const idOf = (v) => (isRecord(v) && typeof v.id === 'string' && v.id ? v.id : undefined)

/** Runs the flow with `defect`; resolves with { report, exitCode }. */
export async function runDefective(defect, env) {
  const has = (name) => defect.split('+').includes(name)
  const visit = JSON.parse(env.RELAY_VISIT)
  const timeoutMs = Number(env.RELAY_REQUEST_TIMEOUT_MS) || 5000
  const send = async (method, path, body) => {
    const headers = {}
    if (!has('no-auth')) headers.authorization = `Bearer ${has('wrong-token') ? 'rm_000000000000000000000000' : env.RELAY_API_TOKEN}`
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
        ? await sendKeptAlive(method, env.RELAY_BASE_URL + path, headers, text, timeoutMs)
        : await fetch(env.RELAY_BASE_URL + path, { method, headers, body: has('no-content-type') && text !== undefined ? new TextEncoder().encode(text) : text, ...(has('no-timeout') ? {} : { signal: AbortSignal.timeout(timeoutMs) }) })
      const raw = await response.text()
      let parsed
      try {
        parsed = raw ? JSON.parse(raw) : undefined
      } catch {
        if (response.ok) return LOST
      }
      const answer = { status: response.status, ok: response.ok, body: parsed, retryAfter: response.headers.get('retry-after'), location: response.headers.get('location') }
      // defect(strict-records): refuses a record that carries a field it does not know.
      if (has('strict-records') && response.ok) strictRecords(path, parsed)
      // defect(problem-title): logs an advanced error's title, as a problem document has one.
      if (has('problem-title') && !response.ok && visit.flow === 'advanced') console.error(`${method} ${path}: ${parsed.title.trim()}`)
      // defect(throws-on-403): takes a 403 for a bug of its own, where a refused token is 401.
      if (has('throws-on-403') && response.status === 403) throw new Fatal(`${method} ${path}: 403 Forbidden`)
      // defect(needs-challenge): reads the scheme of a 401's WWW-Authenticate.
      if (has('needs-challenge') && response.status === 401) console.error(`refused: ${response.headers.get('www-authenticate').split(' ')[0]}`)
      return answer
    } catch (error) {
      if (error instanceof Fatal || error instanceof TypeError && !/fetch failed|terminated/.test(error.message)) throw error
      return LOST
    }
  }
  const call = async (method, path, body) => {
    // defect(retry-forever): 6 attempts in all. defect(four-attempts): 4, as axios-retry's defaults make.
    // defect(retries-past-deadline): 5, and keeps waiting out each Retry-After past the case's deadline.
    const attempts = has('retry-forever') ? 6 : has('four-attempts') ? 4 : has('retries-past-deadline') ? 5 : 3
    let answer = await send(method, path, body)
    for (let attempt = 1; attempt < attempts; attempt++) {
      let wait
      // defect(gives-up-on-503): stops at the first 503 or 429. defect(no-retry-after): retries it at once.
      // defect(own-backoff): ignores Retry-After and waits a back-off of its own, 1 s.
      if (answer.status === 503 || answer.status === 429) {
        if (has('gives-up-on-503')) break
        wait = has('no-retry-after') ? 0 : has('own-backoff') ? 1000 : retryAfterMs(answer.retryAfter)
      } else if (method === 'GET' && (answer.lost || answer.status >= 500)) {
        // defect(gives-up-on-lookup): stops at the first lookup that failed.
        if (has('gives-up-on-lookup')) break
        // defect(quick-retry): retries a 5xx at once, as axios-retry's and urllib3's first retry does.
        // (keep-alive-resend backs off 500 ms after a lost answer: its own retries wait, its library's do not.)
        wait = answer.lost ? (has('keep-alive-resend') ? 500 : 0) : has('quick-retry') ? 0 : 600
      }
      // defect(retry-refusal): sends a refused request again (and again). defect(retry-refusal-once): once.
      else if ((has('retry-refusal') || (has('retry-refusal-once') && attempt === 1)) && answer.status >= 400 && answer.status < 500) wait = 0
      // defect(resend-payment): sends a payment whose answer was lost once more.
      else if (has('resend-payment') && attempt === 1 && /^\/payments?$/.test(path) && ambiguous(answer)) wait = 600
      else break
      await new Promise((resolve) => setTimeout(resolve, wait))
      answer = await send(method, path, body)
    }
    return answer
  }
  const lostPayment = (answer) => ({
    // defect(paid-after-failure) claims a payment it has no id for; defect(rejected-when-unknown) says rejected.
    report: { outcome: has('paid-after-failure') ? 'paid' : has('rejected-when-unknown') ? 'rejected' : 'unknown', message: `payment: HTTP ${answer.status || 'no answer'}` },
    exitCode: 0,
  })
  const rejected = (what, answer) => ({ report: { outcome: 'rejected', message: `${what}: HTTP ${answer.status}` }, exitCode: 0 })

  if (visit.flow === 'simple') {
    if (has('simple-two-requests')) await call('GET', `/rental-companies?kennitala=${visit.ownerKennitala}`)
    const answer = await call(has('simple-get-payment') ? 'GET' : 'POST', '/payment', has('simple-get-payment') ? undefined : {
      location: visit.locationId,
      vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: has('simple-acquired-timestamp') ? `${visit.registrationDate} 00:00:00` : visit.registrationDate },
      visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
      payment: { amount: has('simple-amount-string') ? String(visit.amount) : visit.amount, currency: visit.currency },
    })
    // defect(refusal-as-lost): takes any error answer to the payment, a refusal too, for a lost one.
    if (ambiguous(answer) || (has('refusal-as-lost') && answer.status >= 400)) return lostPayment(answer)
    // defect(stale-owner-list): an owner missing from its own list of rental companies is never recorded, it holds.
    if (has('stale-owner-list') && !(env.RELAY_REGISTERED_OWNERS ?? '').split(',').includes(visit.ownerKennitala)) return { report: { outcome: 'rejected' }, exitCode: 0 }
    // defect(id-from-location): reads the payment's id from Location.
    const id = has('id-from-location') ? answer.location?.split('/').at(-1) : idOf(answer.body)
    // defect(refusal-422-only): a refusal is a 422; any other status without an id is a bug to it.
    if (has('refusal-422-only') && !id && answer.status !== 422) throw new Fatal(`POST /payment: unexpected ${answer.status}`)
    // defect(only-201-created): only a 201 is a recorded payment. defect(paid-from-status-new): paid when `status` is `new`.
    if (has('only-201-created') || has('paid-from-status-new')) {
      const paid = has('only-201-created') ? answer.status === 201 : answer.body?.status === 'new'
      return { report: paid ? { outcome: 'paid', ...(id ? { paymentId: id } : {}) } : { outcome: 'rejected', message: answer.body?.message }, exitCode: 0 }
    }
    if (has('simple-keys-on-status') ? answer.ok : id) return { report: { outcome: 'paid', ...(id ? { paymentId: id } : {}) }, exitCode: 0 }
    return { report: { outcome: 'rejected', message: answer.body?.message }, exitCode: has('simple-exit-1-when-refused') ? 1 : 0 }
  }

  if (has('ping-first')) await call('GET', '/status')
  let companyId
  if (!has('skip-company-lookup')) {
    const kennitala = has('kennitala-with-hyphen') ? `${visit.ownerKennitala.slice(0, 6)}-${visit.ownerKennitala.slice(6)}` : visit.ownerKennitala
    const answer = await call('GET', `/${has('misspelled-path') ? 'rental-comapnies' : 'rental-companies'}?kennitala=${kennitala}`)
    if (!answer.ok || !Array.isArray(answer.body)) return rejected('company lookup', answer)
    if (answer.body.length === 0 && !has('continue-unknown-owner')) {
      return { report: { outcome: has('paid-when-skipped') ? 'paid' : 'skipped' }, exitCode: has('exit-1-unknown-owner') ? 1 : 0 }
    }
    companyId = idOf(answer.body[0])
  }
  let answer = await call('GET', `/vehicles?${has('vehicle-query-param') ? 'number' : 'plate'}=${encodeURIComponent(visit.plate)}`)
  if (!answer.ok || !Array.isArray(answer.body)) return rejected('vehicle lookup', answer)
  const listed = answer.body
  let vehicleId = idOf(has('last-vehicle') ? listed.at(-1) : listed[0])
  if (!vehicleId || has('create-when-found')) {
    answer = await call('POST', '/vehicles', { plate: visit.plate, country: has('country-upper-case') ? 'IS' : 'is' })
    if (!answer.ok || (has('only-201-created') && answer.status !== 201)) return rejected('vehicle creation', answer)
    vehicleId = has('id-from-location') ? answer.location?.split('/').at(-1) : idOf(answer.body)
    answer = await call('POST', '/custodians', {
      vehicleId,
      rentalCompanyId: has('custodian-wrong-company') ? visit.locationId : companyId,
      acquiredOn: `${has('acquired-on-visit-date') ? visit.visitStart.slice(0, 10) : visit.registrationDate} 00:00:00`,
    })
    if (!answer.ok) return rejected('custodian creation', answer)
  } else if (has('custodian-when-found')) {
    // defect(custodian-when-found): links the vehicle it found to the owner again: a custodian, but no vehicle, created.
    answer = await call('POST', '/custodians', { vehicleId, rentalCompanyId: companyId, acquiredOn: `${visit.registrationDate} 00:00:00` })
    if (!answer.ok) return rejected('custodian creation', answer)
  }
  const toIso = (t) => (has('iso-timestamps') ? t.replace(' ', 'T') : t)
  let endedOn = visit.visitEnd
  if (has('bump-equal-end') && endedOn === visit.visitStart) endedOn = endedOn.replace(/:(\d\d)$/, (_, s) => `:${String(Number(s) + 1).padStart(2, '0')}`)
  const payment = {
    locationId: visit.locationId,
    vehicleId,
    amount: { amount: has('amount-string') ? String(visit.amount) : visit.amount, currency: has('wrong-currency') ? 'EUR' : visit.currency },
    startedOn: toIso(visit.visitStart),
    endedOn: toIso(endedOn),
    status: 'new',
  }
  answer = await call('POST', '/payments', payment)
  // defect(retry-until-200): retries until it sees 200, but the service answers 201: it pays again and again, 5 attempts in all.
  for (let attempt = 2; has('retry-until-200') && answer.status !== 200 && attempt <= 5; attempt++) answer = await call('POST', '/payments', payment)
  if (has('two-payments')) answer = await call('POST', '/payments', payment)
  if (has('payment-not-last')) await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (ambiguous(answer) || (has('refusal-as-lost') && answer.status >= 400)) return lostPayment(answer)
  const paymentId = idOf(answer.body)
  if (!answer.ok || !paymentId) return rejected('payment', answer)
  return { report: { outcome: 'paid', paymentId }, exitCode: 0, hang: has('hang-after-paying') }
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
  if (hang) setInterval(() => {}, 60_000) // e.g. an open handle: the process never ends by itself
  else process.exit(exitCode)
}
