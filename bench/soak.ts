// `npm run soak`: relay-mock served in a process of its own, under (a) a fuzz run of generated
// requests, counting 5xx answers and crashes (both must be 0), then (b) a mixed load at full speed,
// printing the server's resident memory and the p99 latency per interval. It fails (exit 1) on a 5xx
// or a crash, when memory reaches 512 MB, or when the last interval's p99 is over twice the first's.
// Last, (c) large bodies: POST /payments of 1 MB each, half refused (an unknown field) and half accepted,
// printing the server's RSS and its heap after a collection before and after; it fails when the heap grew
// by more than 64 MB (the journal keeps 4 KiB of each body) or the RSS reached 1 GB.
//
// With --proxy, a `relay-mock proxy` in a process of its own stands in front of that server (its
// upstream) and every phase's traffic goes through it: the limits above are the proxy's, the upstream's
// memory is printed beside, and a 502 or 504 of the proxy's own (the upstream in trouble) is a 5xx too,
// counted apart.
//
// Flags: --requests N (fuzz requests, default 1,000,000), --minutes D (soak length, default 10),
// --seconds S (soak length in seconds instead), --every S (interval, default 60), --seed N,
// --large N (large bodies, default 2,500; 0 skips them), --proxy, --json.
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import http from 'node:http'
import { fileURLToPath } from 'node:url'

const TOKEN = 'relay-mock-token'
const ADMIN = 'soak-admin-token-0001'
const RSS_LIMIT = 512 * 1024 * 1024
const MB = 1024 * 1024
/** What the large bodies may leave behind: the heap after a collection, over its start; and the RSS after them. */
const LARGE_HEAP_GROWTH_LIMIT = 64 * MB
const LARGE_RSS_LIMIT = 1024 * MB
const CONNECTIONS = 16

/** The soak's caps: smaller than serve's defaults, so that a run of minutes reaches every one of them. */
export const SOAK_SETTINGS = {
  tokens: [TOKEN],
  adminToken: ADMIN,
  journalBytes: 64 * 1024 * 1024,
  worldRecords: 2_000,
  maxWorlds: 200,
}

// --- The server ---

export interface Served {
  baseUrl: string
  child: ChildProcess
  /** Set when the server process ended on its own: a crash. */
  exited(): { code: number | null; signal: string | null } | undefined
  rss(): Promise<number>
  /** The server's RSS and its heap used after a full collection. */
  memory(): Promise<Memory>
  stop(): Promise<void>
}

export interface Memory {
  rss: number
  heapUsed: number
}

/** Starts the server process with the soak's caps (or `options`). */
export function startServer(options: object = SOAK_SETTINGS): Promise<Served> {
  return startProcess('soak-server', options)
}

/** Starts a proxy process in front of `upstream` (as `relay-mock proxy --upstream`), with the soak's caps that apply to it. */
export function startProxy(
  upstream: Served,
  options: Pick<typeof SOAK_SETTINGS, 'adminToken' | 'journalBytes' | 'maxWorlds'> = SOAK_SETTINGS,
): Promise<Served> {
  const { adminToken, journalBytes, maxWorlds } = options
  return startProcess('soak-proxy', { upstream: upstream.baseUrl, adminToken, journalBytes, maxWorlds })
}

async function startProcess(name: string, options: object): Promise<Served> {
  // Imported from its TypeScript source (by a test), the process is the build's (npm test builds first).
  const fromSource = import.meta.url.endsWith('.ts')
  const script = fileURLToPath(new URL(fromSource ? `../dist-bench/bench/${name}.js` : `./${name}.js`, import.meta.url))
  if (!existsSync(script))
    throw new Error(`${script} is not built. Please run node scripts/build-bench.mjs (npm test does).`)
  const child = fork(script, [JSON.stringify(options)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc'],
  })
  let exit: { code: number | null; signal: string | null } | undefined
  child.on('exit', (code, signal) => (exit = { code, signal }))
  const [message] = (await once(child, 'message')) as [{ baseUrl: string }]
  return {
    baseUrl: message.baseUrl,
    child,
    exited: () => exit,
    async rss() {
      child.send('rss')
      for (;;) {
        const [reply] = (await once(child, 'message')) as [{ rss?: number }]
        if (reply.rss !== undefined) return reply.rss
      }
    },
    async memory() {
      child.send('memory')
      for (;;) {
        const [reply] = (await once(child, 'message')) as [{ memory?: Memory }]
        if (reply.memory !== undefined) return reply.memory
      }
    },
    async stop() {
      if (exit) return
      child.disconnect()
      await once(child, 'exit')
    },
  }
}

/** Set when the server, or the upstream behind a proxy, ended on its own. */
function down(server: Served, upstream?: Served): boolean {
  return server.exited() !== undefined || upstream?.exited() !== undefined
}

// --- Requests ---

export interface Sent {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/** An answer: its status (0 when the connection failed: reset, refused), and its body when it was read. */
interface Answer {
  status: number
  /** Read for a 5xx (to tell whose it is) and, when asked, for a 200. */
  text?: string
}

/** One request; resolves with its answer, reading a 200's body when `read200`. */
function send(agent: http.Agent, baseUrl: string, request: Sent, read200 = false): Promise<Answer> {
  const url = new URL(baseUrl)
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0
        const chunks: Buffer[] = []
        const read = (read200 && status === 200) || status >= 500
        if (read) res.on('data', (chunk: Buffer) => chunks.push(chunk))
        else res.resume()
        res.on('end', () => resolve(read ? { status, text: Buffer.concat(chunks).toString('utf8') } : { status }))
        res.on('error', () => resolve({ status: 0 }))
      },
    )
    req.on('error', () => resolve({ status: 0 }))
    req.end(request.body)
  })
}

/** A 502 or 504 of the proxy's own: it could not get the upstream's answer (relay-mock serve answers neither). A HEAD's has no body to say so. */
function upstreamTrouble({ status, text }: Answer): boolean {
  return (status === 502 || status === 504) && (text === '' || text?.includes('relay-mock proxy:') === true)
}

/** What the proxy's 502 or 504 says went wrong, e.g. `the upstream did not answer in time (…)`. */
function troubleMessage(text: string | undefined): string {
  try {
    const { message } = JSON.parse(text ?? '') as { message?: unknown }
    return message === undefined || message === null
      ? String(text)
      : typeof message === 'string'
        ? message
        : JSON.stringify(message)
  } catch {
    return text ?? ''
  }
}

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
export function seeded(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]
  return { next, int, pick }
}

const METHODS = ['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO']
const PATHS = [
  '/rental-companies',
  '/rental-comapnies',
  '/vehicles',
  '/vehicles/',
  '/custodians',
  '/payments',
  '/payment',
  '/vehicles/00000000-0000-4000-8000-000000000000',
  '/payments/x',
  '/rental-companies/%E2%82%AC',
  '/%ZZ',
  '/',
  '/__relay',
  '/__relay/',
  '/__relay/world',
  '/__relay/journal',
  '/__relay/live',
  '/__relay/visits',
  '/__relay/journal.har',
  '/__relay/reset',
  '/__relay/scenario',
  '/__relay/scenarios',
  '/__relay/tokens',
  '/__relay/worlds',
  '/openapi/simple.json',
  '/favicon.ico',
]
const QUERIES = [
  '',
  '?plate=AB123',
  '?plate=',
  '?plate=%00',
  '?kennitala=6803488209',
  '?kennitala=abc',
  '?plate=a&plate=b',
  '?since=-1&limit=x',
  '?since=3&limit=2',
  '?scope=all',
  '?token=abc',
  '?%zz=1',
  `?plate=${'A'.repeat(3000)}`,
]
const AUTHS = [
  undefined,
  `Bearer ${TOKEN}`,
  `Bearer ${ADMIN}`,
  'Bearer',
  'Bearer unknown-token-123456',
  'Basic dXNlcjpwYXNz',
  `bearer  ${TOKEN}`,
  'Bearer a b',
]
const TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/problem+json',
  'multipart/form-data',
]
const STRINGS = [
  '',
  '   ',
  'AB123',
  'ab-123',
  '<script>',
  'þórður',
  '\u0000',
  '\ud800',
  '2026-02-30',
  '0000-01-01T00:00:00Z',
  '2026-13-01',
  '2026-11-21T10:00:00Z',
  '6803488209',
  'x'.repeat(5000),
]

function value(random: ReturnType<typeof seeded>, depth = 0): unknown {
  switch (random.int(depth > 2 ? 4 : 7)) {
    case 0:
      return random.pick(STRINGS)
    case 1:
      return random.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 42])
    case 2:
      return random.pick([null, true, false])
    case 3:
      return random.pick(STRINGS) + random.int(1000)
    case 4:
      return Array.from({ length: random.int(4) }, () => value(random, depth + 1))
    default: {
      const keys = [
        'plate',
        'country',
        'active',
        'vehicleId',
        'rentalCompanyId',
        'acquiredOn',
        'locationId',
        'amount',
        'currency',
        'startedOn',
        'endedOn',
        'status',
        'vehicle',
        'visit',
        'payment',
        'owner',
        'x',
      ]
      return Object.fromEntries(
        Array.from({ length: random.int(6) }, () => [random.pick(keys), value(random, depth + 1)]),
      )
    }
  }
}

function body(random: ReturnType<typeof seeded>): string | undefined {
  switch (random.int(8)) {
    case 0:
      return undefined
    case 1:
      return ''
    case 2:
      return '{"plate": "AB123", '
    case 3:
      return '['.repeat(random.int(2000)) + ']'.repeat(random.int(2000))
    case 4:
      return Buffer.from(Array.from({ length: random.int(64) }, () => random.int(256))).toString('latin1')
    default:
      return JSON.stringify(value(random))
  }
}

/** A valid body of each creating route (the default world's location and a company), for the shaped half of the fuzz. */
const VALID: Record<string, () => Record<string, unknown>> = {
  '/vehicles': () => ({ plate: 'AB123', country: 'is' }),
  '/custodians': () => ({
    vehicleId: '00000000-0000-4000-8000-000000000001',
    rentalCompanyId: '00000000-0000-4000-8000-000000000002',
    acquiredOn: '2024-01-01 00:00:00',
  }),
  '/payments': () => ({
    locationId: '36f17f3e-8c46-44e0-b785-be013a3f207a',
    vehicleId: '00000000-0000-4000-8000-000000000001',
    amount: { amount: 1500, currency: 'ISK' },
    startedOn: '2026-11-21 10:00:00',
    endedOn: '2026-11-21 10:30:00',
  }),
  '/payment': () => ({
    location: '36f17f3e-8c46-44e0-b785-be013a3f207a',
    vehicle: { owner: '6803488209', plate: 'AB123', acquiredOn: '2024-01-01' },
    visit: { startedOn: '2026-11-21 10:00:00', endedOn: '2026-11-21 10:30:00' },
    payment: { amount: 1500, currency: 'ISK' },
  }),
}
const LOOKUPS = [
  '/rental-companies?kennitala=6803488209',
  '/rental-companies?kennitala=',
  '/vehicles?plate=AB123',
  '/vehicles?plate=ab%20123',
  '/custodians',
  '/payments',
]

/** A valid body with one thing wrong (or none): a field dropped, replaced by generated garbage, or one added, at any depth. */
function mutated(random: ReturnType<typeof seeded>, valid: Record<string, unknown>): Record<string, unknown> {
  let target = valid
  while (random.int(2) === 0) {
    const nested = Object.values(target).filter(
      (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
    )
    if (nested.length === 0) break
    target = random.pick(nested)
  }
  const keys = Object.keys(target)
  switch (random.int(4)) {
    case 0:
      delete target[random.pick(keys)]
      break
    case 1:
      target[random.pick(keys)] = value(random)
      break
    case 2:
      target[random.pick(['x', 'id', 'status', 'plate', 'amount'])] = value(random)
      break
    default:
      break
  }
  return valid
}

/**
 * The i-th generated request of a seeded fuzz run. Half are shaped like the service's own requests
 * (a route's method and path, the token, JSON, a valid body with one thing wrong), so that they reach
 * validation and the store, not only routing; the other half are anything: any method, known and
 * unknown paths, odd queries, tokens good and bad, any content type, bodies from valid-looking to garbage.
 * @example const request = fuzzRequest(seeded(1))
 */
export function fuzzRequest(random: ReturnType<typeof seeded>): Sent {
  if (random.int(2) === 0) {
    const creates = Object.keys(VALID)
    if (random.int(3) === 0)
      return { method: 'GET', path: random.pick(LOOKUPS), headers: { authorization: `Bearer ${TOKEN}` } }
    const path = random.pick(creates)
    return {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(mutated(random, VALID[path]())),
    }
  }
  const method = random.pick(METHODS)
  const headers: Record<string, string> = {}
  const auth = random.pick(AUTHS)
  if (auth) headers.authorization = auth
  const type = random.pick(TYPES)
  if (type) headers['content-type'] = type
  if (random.int(10) === 0) headers.accept = 'text/html'
  if (random.int(10) === 0) headers.cookie = 'session=0123456789abcdef'
  const sent = method === 'GET' || method === 'HEAD' ? (random.int(5) === 0 ? body(random) : undefined) : body(random)
  return {
    method,
    path: random.pick(PATHS) + random.pick(QUERIES),
    headers,
    ...(sent !== undefined ? { body: sent } : {}),
  }
}

export interface FuzzResult {
  requests: number
  serverErrors: number
  /** Of the 5xx, those a proxy answered itself (502, 504) because it could not get the upstream's answer. */
  upstreamTrouble: number
  /** Requests whose connection failed: the server did not answer. */
  failed: number
  crashed: boolean
  byStatus: Record<number, number>
  /** The first few requests answered 5xx or not at all, to reproduce them (with a proxy's trouble, what it said). */
  examples: Array<Sent & { status: number; trouble?: string }>
}

/**
 * Sends `requests` generated requests (CONNECTIONS at a time) and counts the 5xx answers and the failures.
 * `server` is where they go; `upstream`, when `server` is a proxy, is watched for a crash too.
 */
export async function runFuzz({
  requests,
  seed = 1,
  server,
  upstream,
}: {
  requests: number
  seed?: number
  server: Served
  upstream?: Served
}): Promise<FuzzResult> {
  const random = seeded(seed)
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const result: FuzzResult = {
    requests,
    serverErrors: 0,
    upstreamTrouble: 0,
    failed: 0,
    crashed: false,
    byStatus: {},
    examples: [],
  }
  let sent = 0
  const worker = async () => {
    while (sent < requests && !down(server, upstream)) {
      sent++
      const request = fuzzRequest(random)
      const answer = await send(agent, server.baseUrl, request)
      const { status } = answer
      result.byStatus[status] = (result.byStatus[status] ?? 0) + 1
      if (status >= 500 || status === 0) {
        const trouble = upstreamTrouble(answer)
        if (status === 0) result.failed++
        else result.serverErrors++
        if (trouble) result.upstreamTrouble++
        if (result.examples.length < 5)
          result.examples.push({
            ...request,
            body: request.body?.slice(0, 200),
            status,
            ...(trouble ? { trouble: troubleMessage(answer.text) } : {}),
          })
      }
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  agent.destroy()
  result.crashed = down(server, upstream)
  return result
}

// --- The mixed soak ---

export interface SoakRow {
  /** The interval's number, from 1. */
  interval: number
  requests: number
  rssMb: number
  p50Ms: number
  p99Ms: number
  serverErrors: number
  /** Of the 5xx, a proxy's own 502 and 504: the upstream in trouble. */
  upstreamTrouble: number
  /** The upstream's RSS, when `server` is a proxy in front of it. */
  upstreamRssMb?: number
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** The live page's state key, as an open page keeps it between polls. */
let liveState = 'x'

/** A client's visit and everything else a busy mock sees, one request at a time. */
function mixedRequest(random: ReturnType<typeof seeded>, n: number): Sent {
  const auth = { authorization: `Bearer ${TOKEN}` }
  const json = { ...auth, 'content-type': 'application/json' }
  switch (random.int(12)) {
    case 0:
      return { method: 'GET', path: '/rental-companies?kennitala=6803488209', headers: auth }
    case 1:
      return { method: 'GET', path: `/vehicles?plate=AB${random.int(1000)}`, headers: auth }
    // Creates: each a record in the world, up to its cap.
    case 2:
      return {
        method: 'POST',
        path: '/vehicles',
        headers: json,
        body: JSON.stringify({ plate: `S${n % 100000}`, country: 'is' }),
      }
    case 3:
      return {
        method: 'POST',
        path: '/payment',
        headers: json,
        body: JSON.stringify({ junk: 'x'.repeat(random.int(20_000)) }),
      }
    case 4:
      return { method: 'GET', path: `/custodians`, headers: auth }
    case 5:
      return { method: 'GET', path: `/__relay/journal?since=${Math.max(0, n - 50)}&limit=50`, headers: auth }
    // New worlds, up to the cap on worlds.
    case 6:
      return random.int(20) === 0
        ? { method: 'POST', path: '/__relay/tokens', headers: json, body: '{}' }
        : { method: 'GET', path: '/vehicles?plate=', headers: auth }
    case 7:
      return { method: 'GET', path: '/vehicles', headers: { authorization: `Bearer unknown-${n}` } }
    default: {
      // Garbage at the service, not at the admin API: a page or an export is a person's, not a load.
      const request = fuzzRequest(random)
      const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?')) : ''
      return request.path.startsWith('/__relay') ? { ...request, path: `/vehicles${query}` } : request
    }
  }
}

/** Runs the mixed load for `seconds`, reporting each `every` seconds; `onRow` sees each row as it comes. With `upstream` (`server` is a proxy in front of it), its RSS too. */
export async function runSoak({
  seconds,
  every = 60,
  seed = 2,
  server,
  upstream,
  onRow,
}: {
  seconds: number
  every?: number
  seed?: number
  server: Served
  upstream?: Served
  onRow?: (row: SoakRow) => void
}): Promise<{ rows: SoakRow[]; crashed: boolean }> {
  const random = seeded(seed)
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const rows: SoakRow[] = []
  const end = performance.now() + seconds * 1000
  let n = 0
  let latencies: number[] = []
  let errors = 0
  let troubles = 0
  let stopped = false
  const count = (answer: Answer) => {
    if (answer.status >= 500 || answer.status === 0) errors++
    if (upstreamTrouble(answer)) troubles++
  }
  const worker = async () => {
    while (!stopped && !down(server, upstream)) {
      const request = mixedRequest(random, n++)
      const started = performance.now()
      const answer = await send(agent, server.baseUrl, request)
      latencies.push(performance.now() - started)
      count(answer)
    }
  }
  // An open live page: one poll a second, as its script does, keeping the state key between polls.
  const page = async () => {
    while (!stopped && !down(server, upstream)) {
      const started = performance.now()
      const poll = {
        method: 'GET',
        path: `/__relay/live?state=${encodeURIComponent(liveState)}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      }
      const answer = await send(agent, server.baseUrl, poll, true)
      if (answer.status === 200 && answer.text !== undefined)
        liveState = (JSON.parse(answer.text) as { state: string }).state
      latencies.push(performance.now() - started)
      count(answer)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
  const workers = [...Array.from({ length: CONNECTIONS }, worker), page()]
  const mb = async (served: Served) => (served.exited() ? 0 : Math.round((await served.rss()) / 1024 / 1024))
  for (let interval = 1; performance.now() < end && !down(server, upstream); interval++) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(every * 1000, end - performance.now())))
    const sorted = Float64Array.from(latencies).sort()
    const row: SoakRow = {
      interval,
      requests: sorted.length,
      rssMb: await mb(server),
      p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
      p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
      serverErrors: errors,
      upstreamTrouble: troubles,
      ...(upstream ? { upstreamRssMb: await mb(upstream) } : {}),
    }
    latencies = []
    errors = 0
    troubles = 0
    rows.push(row)
    onRow?.(row)
  }
  stopped = true
  await Promise.all(workers)
  agent.destroy()
  return { rows, crashed: down(server, upstream) }
}

// --- Large bodies ---

export interface LargeBodiesResult {
  /** How many were answered with each status, e.g. { 422: 1250, 201: 1250 }. */
  byStatus: Record<number, number>
  /** Of the 5xx, a proxy's own 502 and 504: the upstream in trouble. */
  upstreamTrouble: number
  before: Memory
  after: Memory
  /** The upstream's, when `server` is a proxy in front of it. */
  upstreamBefore?: Memory
  upstreamAfter?: Memory
  seconds: number
  crashed: boolean
}

/**
 * Sends `count` POST /payments bodies of `bytes` each (4 at a time), alternately refused (a valid payment
 * with an unknown field holding the bulk) and accepted (a valid payment padded with whitespace), and measures
 * the server's memory before and after. The journal keeps only a prefix of each; nothing else may keep more.
 * With `upstream` (`server` is a proxy in front of it), the world is read from the upstream, which holds
 * the records, and its memory is measured too.
 * @example const { before, after } = await runLargeBodies({ server, count: 200 })
 */
export async function runLargeBodies({
  server,
  upstream,
  count,
  bytes = 1_000_000,
}: {
  server: Served
  upstream?: Served
  count: number
  bytes?: number
}): Promise<LargeBodiesResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
  const holder = upstream ?? server
  const read = await send(agent, holder.baseUrl, { method: 'GET', path: '/__relay/world', headers }, true)
  const world =
    read.text === undefined
      ? undefined
      : (JSON.parse(read.text) as { locationId: string; records: { vehicles: Array<{ id: string }> } })
  if (!world)
    throw new Error(
      `Failed to read the world at ${holder.baseUrl}/__relay/world. Please check that the server runs the default scenario.`,
    )
  const payment = (i: number) =>
    JSON.stringify({
      locationId: world.locationId,
      vehicleId: world.records.vehicles[0].id,
      amount: { amount: 1500 + i, currency: 'ISK' },
      startedOn: '2026-11-21 10:00:00',
      endedOn: '2026-11-21 10:30:00',
    })
  const refused = (i: number) => `${payment(i).slice(0, -1)},"note":"${'x'.repeat(bytes - payment(i).length - 10)}"}`
  const accepted = (i: number) => `{${' '.repeat(bytes - payment(i).length)}${payment(i).slice(1)}`
  const before = await server.memory()
  const upstreamBefore = await upstream?.memory()
  const byStatus: Record<number, number> = {}
  let troubles = 0
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < count && !down(server, upstream)) {
      const i = next++
      const answer = await send(agent, server.baseUrl, {
        method: 'POST',
        path: '/payments',
        headers,
        body: i % 2 === 0 ? refused(i) : accepted(i),
      })
      byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1
      if (upstreamTrouble(answer)) troubles++
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  const upstreamMemory = upstream
    ? { upstreamBefore, upstreamAfter: upstream.exited() ? { rss: 0, heapUsed: 0 } : await upstream.memory() }
    : {}
  if (down(server, upstream))
    return {
      byStatus,
      upstreamTrouble: troubles,
      before,
      after: server.exited() ? { rss: 0, heapUsed: 0 } : await server.memory(),
      ...upstreamMemory,
      seconds,
      crashed: true,
    }
  return {
    byStatus,
    upstreamTrouble: troubles,
    before,
    after: await server.memory(),
    ...upstreamMemory,
    seconds,
    crashed: false,
  }
}

// --- The command ---

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  if (at === -1) return fallback
  const value = Number(process.argv[at + 1])
  if (!Number.isFinite(value) || value < 0) {
    console.error(`--${name} takes a number, not "${process.argv[at + 1]}".`)
    process.exit(2)
  }
  return value
}

async function main(): Promise<void> {
  const requests = flag('requests', 1_000_000)
  const seconds = process.argv.includes('--seconds') ? flag('seconds', 600) : flag('minutes', 10) * 60
  const every = flag('every', Math.min(60, seconds))
  const seed = flag('seed', 1)
  const large = flag('large', 2_500)
  const proxied = process.argv.includes('--proxy')
  let failed = false
  // With --proxy, the traffic goes to the proxy (`server`), the limits are its, and the mock is its upstream.
  const mock = await startServer()
  const server = proxied
    ? await startProxy(mock).catch(async (error: unknown) => {
        await mock.stop()
        throw error
      })
    : mock
  const upstream = proxied ? mock : undefined
  const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`
  /** The line that says which of the 5xx were the proxy's 502 and 504, with what the first said. */
  const troubleLine = (count: number, total: number, example?: string) =>
    `  of the 5xx: ${count} the proxy's own 502 or 504 (the upstream in trouble)${count > 0 && example ? `, e.g. "${example}"` : ''}, ${total - count} others (the upstream's, passed on, or the proxy's own)`
  try {
    if (requests > 0) {
      console.log(
        `Fuzz: ${requests.toLocaleString('en')} generated requests (seed ${seed}) against ${server.baseUrl}${upstream ? ` (a proxy in front of ${upstream.baseUrl})` : ''}…`,
      )
      const started = performance.now()
      const fuzz = await runFuzz({ requests, seed, server, upstream })
      const secondsTaken = (performance.now() - started) / 1000
      console.log(
        `  ${fuzz.serverErrors} answered 5xx, ${fuzz.failed} unanswered, crashed: ${fuzz.crashed ? 'yes' : 'no'} (${Math.round(requests / secondsTaken).toLocaleString('en')} req/s)`,
      )
      if (upstream)
        console.log(troubleLine(fuzz.upstreamTrouble, fuzz.serverErrors, fuzz.examples.find((e) => e.trouble)?.trouble))
      console.log(
        `  by status: ${Object.entries(fuzz.byStatus)
          .map(([status, count]) => `${status}: ${count}`)
          .join(', ')}`,
      )
      for (const example of fuzz.examples)
        console.log(
          `  e.g. ${example.status}: ${example.method} ${example.path.slice(0, 120)} ${JSON.stringify(example.headers)} ${example.body ?? ''}`,
        )
      if (fuzz.serverErrors > 0 || fuzz.failed > 0 || fuzz.crashed) failed = true
    }
    if (seconds > 0 && !down(server, upstream)) {
      console.log(
        `Soak: mixed load for ${seconds} s on ${CONNECTIONS} connections, a row every ${every} s${upstream ? '; RSS is the proxy\'s, "upstream" the mock\'s behind it' : ''}.`,
      )
      console.log(
        upstream
          ? '  interval  requests      RSS  upstream      p50      p99  5xx  of them 502/504'
          : '  interval  requests      RSS      p50      p99  5xx',
      )
      const soak = await runSoak({
        seconds,
        every,
        seed: seed + 1,
        server,
        upstream,
        onRow: (row) =>
          console.log(
            upstream
              ? `  ${String(row.interval).padStart(8)}  ${String(row.requests).padStart(8)}  ${String(row.rssMb).padStart(4)} MB   ${String(row.upstreamRssMb).padStart(4)} MB  ${row.p50Ms.toFixed(2).padStart(5)} ms  ${row.p99Ms.toFixed(2).padStart(5)} ms  ${String(row.serverErrors).padStart(3)}  ${row.upstreamTrouble}`
              : `  ${String(row.interval).padStart(8)}  ${String(row.requests).padStart(8)}  ${String(row.rssMb).padStart(4)} MB  ${row.p50Ms.toFixed(2).padStart(5)} ms  ${row.p99Ms.toFixed(2).padStart(5)} ms  ${row.serverErrors}`,
          ),
      })
      const first = soak.rows[0]
      const last = soak.rows.at(-1)
      const maxRss = Math.max(...soak.rows.map((r) => r.rssMb))
      const errors = soak.rows.reduce((sum, r) => sum + r.serverErrors, 0)
      const upstreamPeak = upstream
        ? `; the upstream's peak RSS ${Math.max(...soak.rows.map((r) => r.upstreamRssMb ?? 0))} MB`
        : ''
      console.log(
        `  peak RSS ${maxRss} MB (limit ${RSS_LIMIT / 1024 / 1024})${upstreamPeak}; p99 first ${first?.p99Ms} ms, last ${last?.p99Ms} ms (limit 2x); 5xx ${errors}; crashed: ${soak.crashed ? 'yes' : 'no'}`,
      )
      if (upstream)
        console.log(
          troubleLine(
            soak.rows.reduce((sum, r) => sum + r.upstreamTrouble, 0),
            errors,
          ),
        )
      if (
        soak.crashed ||
        errors > 0 ||
        maxRss * 1024 * 1024 >= RSS_LIMIT ||
        (first && last && last.p99Ms > 2 * first.p99Ms)
      )
        failed = true
    }
    if (large > 0 && !down(server, upstream)) {
      console.log(
        `Large bodies: ${large.toLocaleString('en')} POST /payments of 1 MB, half refused (an unknown field) and half accepted, 4 at a time${upstream ? ', through the proxy' : ''}.`,
      )
      const result = await runLargeBodies({ server, upstream, count: large })
      const grown = result.after.heapUsed - result.before.heapUsed
      const errors = Object.entries(result.byStatus).reduce(
        (sum, [status, n]) => sum + (Number(status) >= 500 ? n : 0),
        0,
      )
      console.log(
        `  by status: ${Object.entries(result.byStatus)
          .map(([status, n]) => `${status}: ${n}`)
          .join(', ')} in ${result.seconds.toFixed(1)} s; crashed: ${result.crashed ? 'yes' : 'no'}`,
      )
      if (upstream) console.log(troubleLine(result.upstreamTrouble, errors))
      const who = upstream ? 'proxy ' : ''
      console.log(`  ${who}before: RSS ${mb(result.before.rss)}, heap after GC ${mb(result.before.heapUsed)}`)
      console.log(
        `  ${who}after:  RSS ${mb(result.after.rss)} (limit ${mb(LARGE_RSS_LIMIT)}), heap after GC ${mb(result.after.heapUsed)} (${grown >= 0 ? '+' : ''}${mb(grown)}, limit +${mb(LARGE_HEAP_GROWTH_LIMIT)})`,
      )
      if (result.upstreamBefore && result.upstreamAfter) {
        const upstreamGrown = result.upstreamAfter.heapUsed - result.upstreamBefore.heapUsed
        console.log(
          `  upstream before: RSS ${mb(result.upstreamBefore.rss)}, heap after GC ${mb(result.upstreamBefore.heapUsed)}`,
        )
        console.log(
          `  upstream after:  RSS ${mb(result.upstreamAfter.rss)}, heap after GC ${mb(result.upstreamAfter.heapUsed)} (${upstreamGrown >= 0 ? '+' : ''}${mb(upstreamGrown)})`,
        )
      }
      if (
        result.crashed ||
        Object.keys(result.byStatus).some((status) => status !== '201' && status !== '422') ||
        result.after.rss >= LARGE_RSS_LIMIT ||
        grown > LARGE_HEAP_GROWTH_LIMIT
      )
        failed = true
    }
  } finally {
    await server.stop()
    if (upstream) await upstream.stop()
  }
  console.log(failed ? 'FAILED' : 'PASSED')
  process.exitCode = failed ? 1 : 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
