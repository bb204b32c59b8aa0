// `npm run bench`: relay-mock's HTTP server under load on loopback (autocannon), beside a bare
// node:http server answering the same JSON in the same run (and the same bare server writing a turn's
// answers together, as relay-mock does), with a 24-vehicle and a 30,000-vehicle world; then, in a
// phase of their own, `relay-mock proxy` in front of the 24-vehicle server beside direct traffic to it
// and beside a bare forwarding proxy in front of the same server (the proxy's baseline); then the time
// from spawning `relay-mock serve` to its first answer.
//
// Each server runs in a worker thread of its own and autocannon in the main thread, so that the
// load generator and the server under test never share an event loop. Flags: --duration <s> per
// run (default 3), --rounds <n> (default 3), --proxy-rounds <n> (default 5), --json to print the
// numbers as JSON too.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import autocannon from 'autocannon'
import { createBareProxy } from './bare-proxy.js'
import { createBareServer } from './bare-server.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const TOKEN = 'relay-mock-token'
const CONNECTIONS = 10
const SPAWNS = 5

const TARGETS = {
  /** GET /vehicles with the journal on, as a share of the bare server's req/s. */
  getVsBare: 0.75,
  /** POST /payments with the journal on, as a share of the bare server's POST req/s. */
  postVsBare: 0.6,
  /** The large world's req/s as a share of the small world's. */
  largeVsSmall: 0.9,
  spawnMs: 150,
  /** The same target as a share of the bare server's spawn: 150 ms was set where a bare node:http server took 90. */
  spawnVsBare: 150 / 90,
  p99Ms: 10,
  /** What `relay-mock proxy` may add to the p99 of the server it forwards to, at the same connections. */
  proxyAddedP99Ms: 2,
}

// --- The servers, each in a worker thread ---

type ServerRole =
  | { role: 'bare'; getText: string; postText: string; batched: boolean }
  | { role: 'mock'; vehicles: number }
  | { role: 'proxy'; upstreamPort: number }
  | { role: 'bare-proxy'; upstreamPort: number }

/** What a server worker reports once it listens. */
interface Listening {
  port: number
  /** Mock only: how long createRelayService took (seed, scenario, store load). */
  buildMs?: number
  /** Mock only: how long one more world (a fresh token) took to make. */
  addWorldMs?: number
  visit?: { plate: string }
  paymentBody?: string
}

async function serveInWorker(role: ServerRole): Promise<void> {
  if (role.role === 'bare') {
    const server = createBareServer(role.getText, role.postText, { batched: role.batched })
    server.listen(0, '127.0.0.1', () =>
      parentPort!.postMessage({ port: (server.address() as { port: number }).port } satisfies Listening),
    )
    return
  }
  if (role.role === 'bare-proxy') {
    const server = createBareProxy(`http://127.0.0.1:${role.upstreamPort}`)
    server.listen(0, '127.0.0.1', () =>
      parentPort!.postMessage({ port: (server.address() as { port: number }).port } satisfies Listening),
    )
    return
  }
  const { createRelayService } = await import('../src/core/service/mock.js')
  const { createServer, listen } = await import('../src/node/server/server.js')
  const { devtools } = await import('../src/devtools/admin.js')
  if (role.role === 'proxy') {
    // As `relay-mock proxy` runs it: the journal, the dev tools, the assumption ledger on every answer.
    const { createForwarder } = await import('../src/node/upstream/upstream.js')
    const { createAssumptionLedger } = await import('../src/core/ledger/report.js')
    const { assumptionsTool } = await import('../src/devtools/assumptions.js')
    const forwarder = createForwarder({ baseUrl: `http://127.0.0.1:${role.upstreamPort}` })
    const ledger = createAssumptionLedger(forwarder.baseUrl)
    const proxy = await createRelayService({
      tokens: [],
      upstream: { baseUrl: forwarder.baseUrl, forward: forwarder.forward, observe: ledger.observe },
      extensions: [devtools(), assumptionsTool(ledger)],
    })
    const proxyUrl = await listen(createServer(proxy), { port: 0, host: '127.0.0.1' })
    parentPort!.postMessage({ port: Number(new URL(proxyUrl).port) } satisfies Listening)
    return
  }
  const started = performance.now()
  // As `relay-mock serve` runs it: the dev tools mounted, the journal on.
  const service = await createRelayService({ vehicles: role.vehicles, extensions: [devtools()] })
  const buildMs = performance.now() - started
  const world = service.world
  const addStarted = performance.now()
  const extra = await service.addWorld()
  const addWorldMs = performance.now() - addStarted
  service.removeWorld(extra)
  const vehicleId = world.store.vehicles.activeByPlate(world.visit.plate)[0].id
  const paymentBody = JSON.stringify({
    locationId: world.location.id,
    vehicleId,
    amount: { amount: world.visit.amount, currency: world.visit.currency },
    startedOn: world.visit.visitStart,
    endedOn: world.visit.visitEnd,
    status: 'new',
  })
  const baseUrl = await listen(createServer(service), { port: 0, host: '127.0.0.1' })
  parentPort!.postMessage({
    port: Number(new URL(baseUrl).port),
    buildMs,
    addWorldMs,
    visit: world.visit,
    paymentBody,
  } satisfies Listening)
}

async function startWorker(role: ServerRole): Promise<{ worker: Worker; info: Listening }> {
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: role })
  const [info] = (await once(worker, 'message')) as [Listening]
  return { worker, info }
}

// --- Measuring ---

interface Row {
  name: string
  requestsPerSecond: number
  p99Ms: number
  p50Ms: number
  worstP99Ms: number
  non2xx: number
  errors: number
  /**
   * How long the server's thread was busy per request answered, in µs (its event loop's active time
   * over the run): what a request costs the server, whether or not the load generator was the limit.
   */
  busyUs: number
}

async function load(config: Config, seconds: number): Promise<Row> {
  const { request } = config
  const before = config.worker.performance.eventLoopUtilization()
  const result = await autocannon({
    url: `http://127.0.0.1:${config.port}${request.path}`,
    method: request.method,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${TOKEN}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: request.body } : {}),
  })
  return {
    name: config.name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    worstP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    busyUs: (config.worker.performance.eventLoopUtilization(before).active * 1000) / Math.max(1, result.requests.total),
  }
}

function get(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: false, headers: { authorization: `Bearer ${TOKEN}` } },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
  })
}

function post(port: number, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Milliseconds from spawn() to the end of the first answer to GET `path`. The process listens on a
 * port of its choosing and prints its address (`http://127.0.0.1:<port>`), as `serve --port 0`
 * does: a port picked beforehand could be taken meanwhile by another process on a shared machine.
 */
async function spawnToFirstAnswer(args: string[], path: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (found) resolve(Number(found[1]))
      })
      child.once('exit', (code) =>
        reject(
          new Error(`Failed to measure start-up: ${args.join(' ')} exited with ${code} before printing its address.`),
        ),
      )
    })
    const answer = await get(port, path)
    if (answer.status !== 200) throw new Error(`Failed to measure start-up: GET ${path} answered ${answer.status}.`)
    return performance.now() - started
  } finally {
    child.kill('SIGKILL')
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// --- The run ---

interface Config {
  name: string
  port: number
  /** The worker the server runs in: its event loop's busy time is read around each run. */
  worker: Worker
  request: { method: 'GET' | 'POST'; path: string; body?: string }
  /** The run this one is set beside (a proxy's: the server it forwards to, straight). */
  versus?: Config
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const flag = (name: string, fallback: number) =>
    args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback
  const seconds = flag('--duration', 3)
  const rounds = flag('--rounds', 3)
  const proxyRounds = flag('--proxy-rounds', 5)
  const json = args.includes('--json')
  const loadBefore = loadavg()
  console.log(
    `relay-mock bench: ${CONNECTIONS} connections, ${rounds} interleaved rounds of ${seconds} s per run (after 1 s of warm-up), ${proxyRounds} for the proxies, ` +
      `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')}\n`,
  )

  const small = await startWorker({ role: 'mock', vehicles: 24 })
  const large = await startWorker({ role: 'mock', vehicles: 30_000 })
  const getPath = `/vehicles?plate=${small.info.visit!.plate}`
  const paymentBody = small.info.paymentBody!
  // The bare server answers exactly what the mock answers.
  const getText = (await get(small.info.port, getPath)).text
  const postAnswer = await post(small.info.port, '/payments', paymentBody)
  if (postAnswer.status !== 201)
    throw new Error(`Failed to prepare: POST /payments answered ${postAnswer.status}: ${postAnswer.text}`)
  const bare = await startWorker({ role: 'bare', getText, postText: postAnswer.text, batched: false })
  // The same bare server writing a turn's answers together, as relay-mock does: not the targets' baseline
  // (that is node:http as it comes), but what shows the pipeline's own cost.
  const batched = await startWorker({ role: 'bare', getText, postText: postAnswer.text, batched: true })
  const proxied = await startWorker({ role: 'proxy', upstreamPort: small.info.port })
  // The proxy's baseline: a bare forwarding proxy in front of the same server (see bare-proxy.ts).
  const bareProxied = await startWorker({ role: 'bare-proxy', upstreamPort: small.info.port })

  const configs: Config[] = [
    {
      name: 'bare node:http  GET /vehicles',
      worker: bare.worker,
      port: bare.info.port,
      request: { method: 'GET', path: getPath },
    },
    {
      name: 'bare node:http  POST /payments',
      worker: bare.worker,
      port: bare.info.port,
      request: { method: 'POST', path: '/payments', body: paymentBody },
    },
    {
      name: 'bare, batched   GET /vehicles',
      worker: batched.worker,
      port: batched.info.port,
      request: { method: 'GET', path: getPath },
    },
    {
      name: 'bare, batched   POST /payments',
      worker: batched.worker,
      port: batched.info.port,
      request: { method: 'POST', path: '/payments', body: paymentBody },
    },
    {
      name: 'relay-mock 24    GET /vehicles',
      worker: small.worker,
      port: small.info.port,
      request: { method: 'GET', path: getPath },
    },
    {
      name: 'relay-mock 24    POST /payments',
      worker: small.worker,
      port: small.info.port,
      request: { method: 'POST', path: '/payments', body: paymentBody },
    },
    {
      name: 'relay-mock 30000 GET /vehicles',
      worker: large.worker,
      port: large.info.port,
      request: { method: 'GET', path: `/vehicles?plate=${large.info.visit!.plate}` },
    },
    {
      name: 'relay-mock 30000 POST /payments',
      worker: large.worker,
      port: large.info.port,
      request: { method: 'POST', path: '/payments', body: large.info.paymentBody! },
    },
  ]
  // The proxies' comparison: the server straight, through relay-mock proxy, through the bare proxy,
  // back to back in each round, so that the three figures set side by side are measured under the
  // same conditions.
  const directGetConfig: Config = {
    name: 'direct → 24     GET /vehicles',
    worker: small.worker,
    port: small.info.port,
    request: { method: 'GET', path: getPath },
  }
  const directPostConfig: Config = {
    name: 'direct → 24     POST /payments',
    worker: small.worker,
    port: small.info.port,
    request: { method: 'POST', path: '/payments', body: paymentBody },
  }
  const proxyConfigs: Config[] = [
    directGetConfig,
    {
      name: 'proxy → 24      GET /vehicles',
      worker: proxied.worker,
      port: proxied.info.port,
      request: { method: 'GET', path: getPath },
      versus: directGetConfig,
    },
    {
      name: 'bare proxy → 24 GET /vehicles',
      worker: bareProxied.worker,
      port: bareProxied.info.port,
      request: { method: 'GET', path: getPath },
      versus: directGetConfig,
    },
    directPostConfig,
    {
      name: 'proxy → 24      POST /payments',
      worker: proxied.worker,
      port: proxied.info.port,
      request: { method: 'POST', path: '/payments', body: paymentBody },
      versus: directPostConfig,
    },
    {
      name: 'bare proxy → 24 POST /payments',
      worker: bareProxied.worker,
      port: bareProxied.info.port,
      request: { method: 'POST', path: '/payments', body: paymentBody },
      versus: directPostConfig,
    },
  ]
  // Rounds interleave the servers, so that a burst of load from elsewhere on the machine lands on
  // all of them rather than on one; each figure is the median of its rounds.
  const measure = async (group: Config[], count: number): Promise<{ rows: Row[]; runs: Row[][] }> => {
    for (const config of group) await load(config, 1)
    const runs: Row[][] = group.map(() => [])
    for (let round = 0; round < count; round++) {
      for (const [i, config] of group.entries()) runs[i].push(await load(config, seconds))
    }
    const rows = group.map((config, i): Row => ({
      name: config.name,
      requestsPerSecond: median(runs[i].map((r) => r.requestsPerSecond)),
      p50Ms: median(runs[i].map((r) => r.p50Ms)),
      p99Ms: median(runs[i].map((r) => r.p99Ms)),
      worstP99Ms: Math.max(...runs[i].map((r) => r.p99Ms)),
      non2xx: runs[i].reduce((n, r) => n + r.non2xx, 0),
      errors: runs[i].reduce((n, r) => n + r.errors, 0),
      busyUs: median(runs[i].map((r) => r.busyUs)),
    }))
    return { rows, runs }
  }
  const servers = await measure(configs, rounds)
  // The servers the proxies do not use are stopped first: a 30,000-vehicle world's heap, collected
  // after its load, would otherwise take CPU from whichever run came next.
  await Promise.all([bare, batched, large].map(({ worker }) => worker.terminate()))
  const proxies = await measure(proxyConfigs, proxyRounds)
  await Promise.all([small, proxied, bareProxied].map(({ worker }) => worker.terminate()))
  const rows = [...servers.rows, ...proxies.rows]
  const runs = [...servers.runs, ...proxies.runs]

  const bareScript = fileURLToPath(new URL('./bare-server.js', import.meta.url))
  /** Median spawn-to-first-answer of relay-mock serve and of the bare server, alternating, in this environment. */
  const spawns = async (env: NodeJS.ProcessEnv) => {
    const mock: number[] = []
    const bare: number[] = []
    // One unmeasured spawn of each first: the first reads its files from disk, later ones from cache.
    for (let i = 0; i <= SPAWNS; i++) {
      const m = await spawnToFirstAnswer(['bin/relay-mock.js', 'serve', '--port', '0'], getPath, env)
      const b = await spawnToFirstAnswer([bareScript, '0', getText], getPath, env)
      if (i > 0) {
        mock.push(m)
        bare.push(b)
      }
    }
    return { mock, bare }
  }
  const { mock: mockSpawns, bare: bareSpawns } = await spawns(process.env)
  // Node reads the file NODE_EXTRA_CA_CERTS names at every start, before any script runs (~45 ms for a
  // system's whole CA bundle): where it is set, the starts are measured without it too, to show both.
  const caFile = process.env.NODE_EXTRA_CA_CERTS
  const withoutCa = caFile
    ? await spawns(Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS')))
    : undefined

  const allConfigs = [...configs, ...proxyConfigs]
  const rowOf = (config: Config): Row => rows[allConfigs.indexOf(config)]
  const [bareGet, barePost, batchedGet, batchedPost, smallGet, smallPost, largeGet, largePost] = rows
  const [directGet, proxyGet, bareProxyGet, directPost, proxyPost, bareProxyPost] = proxies.rows
  const ratio = (a: Row, b: Row) => a.requestsPerSecond / b.requestsPerSecond
  /** What a row is set beside: for the proxies the server they forward to (its `versus`), else the bare server's same request. */
  const versus = (i: number): string => {
    const config = allConfigs[i]
    if (config.versus) return `${ratio(rows[i], rowOf(config.versus)).toFixed(2)} of direct`
    if (proxyConfigs.includes(config)) return '1.00 (direct)'
    return ratio(rows[i], config.request.method === 'GET' ? bareGet : barePost).toFixed(2)
  }
  console.table(
    rows.map((row, i) => ({
      run: row.name,
      'req/s': Math.round(row.requestsPerSecond),
      'p50 ms': row.p50Ms,
      'p99 ms': row.p99Ms,
      'worst p99 ms': row.worstP99Ms,
      'vs bare': versus(i),
      'busy µs/req': row.busyUs.toFixed(0),
      'rounds req/s': runs[i].map((r) => Math.round(r.requestsPerSecond)).join(' '),
      'non-2xx': row.non2xx,
      errors: row.errors,
    })),
  )

  const getVsBare = ratio(smallGet, bareGet)
  const postVsBare = ratio(smallPost, barePost)
  const largeVsSmallGet = ratio(largeGet, smallGet)
  const largeVsSmallPost = ratio(largePost, smallPost)
  const spawnMedian = median(mockSpawns)
  const mockP99 = Math.max(smallGet.p99Ms, smallPost.p99Ms, largeGet.p99Ms, largePost.p99Ms)
  const proxyAddedGet = proxyGet.p99Ms - directGet.p99Ms
  const proxyAddedPost = proxyPost.p99Ms - directPost.p99Ms
  const bareProxyAddedGet = bareProxyGet.p99Ms - directGet.p99Ms
  const bareProxyAddedPost = bareProxyPost.p99Ms - directPost.p99Ms
  const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS')
  const ms = (n: number) => `${n.toFixed(0)} ms`
  console.log(
    [
      '',
      `world build: 24 vehicles ${ms(small.info.buildMs!)}, 30,000 vehicles ${ms(large.info.buildMs!)}; one more world (a fresh token) in the 30,000 world ${ms(large.info.addWorldMs!)}`,
      `large world vs small: GET /vehicles ${largeVsSmallGet.toFixed(2)}, POST /payments ${largeVsSmallPost.toFixed(2)}`,
      `spawn to first answer (median of ${SPAWNS}): relay-mock serve ${ms(spawnMedian)} [${mockSpawns.map((n) => n.toFixed(0)).join(', ')}], bare node:http ${ms(median(bareSpawns))} [${bareSpawns.map((n) => n.toFixed(0)).join(', ')}]`,
      ...(withoutCa
        ? [
            `  (this environment sets NODE_EXTRA_CA_CERTS=${caFile}, which every Node process reads as it starts; without it: relay-mock serve ${ms(median(withoutCa.mock))}, bare node:http ${ms(median(withoutCa.bare))})`,
          ]
        : []),
      `server thread busy per request (its event loop's active time; not a target): GET ${smallGet.busyUs.toFixed(0)} µs against bare ${bareGet.busyUs.toFixed(0)} µs (${(smallGet.busyUs / bareGet.busyUs).toFixed(2)}x), POST ${smallPost.busyUs.toFixed(0)} µs against ${barePost.busyUs.toFixed(0)} µs (${(smallPost.busyUs / barePost.busyUs).toFixed(2)}x)`,
      `against the bare server writing a turn's answers together, as relay-mock does (the pipeline's own cost; not a target): GET ${ratio(smallGet, batchedGet).toFixed(2)}x, POST ${ratio(smallPost, batchedPost).toFixed(2)}x`,
      `load average at the end ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')} (figures from a busy machine are low and noisy)`,
      '',
      'targets:',
      `  ${mark(getVsBare >= TARGETS.getVsBare)} GET /vehicles with the journal on >= ${TARGETS.getVsBare}x bare: ${getVsBare.toFixed(2)}x`,
      `  ${mark(postVsBare >= TARGETS.postVsBare)} POST /payments with the journal on >= ${TARGETS.postVsBare}x bare: ${postVsBare.toFixed(2)}x`,
      `  ${mark(largeVsSmallGet >= TARGETS.largeVsSmall && largeVsSmallPost >= TARGETS.largeVsSmall)} 30,000-vehicle world within 10% of the small one: GET ${largeVsSmallGet.toFixed(2)}, POST ${largeVsSmallPost.toFixed(2)}`,
      `  ${mark(spawnMedian <= TARGETS.spawnMs)} spawn to first answer <= ${TARGETS.spawnMs} ms: ${ms(spawnMedian)}`,
      `  ${mark(spawnMedian / median(bareSpawns) <= TARGETS.spawnVsBare)} spawn to first answer <= ${TARGETS.spawnVsBare.toFixed(2)}x bare (150 ms where bare took 90 ms): ${(spawnMedian / median(bareSpawns)).toFixed(2)}x`,
      `  ${mark(mockP99 < TARGETS.p99Ms)} p99 < ${TARGETS.p99Ms} ms at ${CONNECTIONS} connections (median of rounds, worst endpoint): ${mockP99} ms`,
      `  ${mark(Math.max(proxyAddedGet, proxyAddedPost) <= TARGETS.proxyAddedP99Ms)} relay-mock proxy adds <= ${TARGETS.proxyAddedP99Ms} ms to the p99 of the server behind it at ${CONNECTIONS} connections: GET ${proxyGet.p99Ms} ms against ${directGet.p99Ms} ms direct (+${proxyAddedGet}), POST ${proxyPost.p99Ms} ms against ${directPost.p99Ms} ms (+${proxyAddedPost}) (median of ${proxyRounds} rounds)`,
      `       in the same run a bare forwarding proxy (bench/bare-proxy.ts: no journal, no checks) adds GET +${bareProxyAddedGet} ms, POST +${bareProxyAddedPost} ms: what any proxy costs on this machine; relay-mock proxy's requests a second are ${ratio(proxyGet, bareProxyGet).toFixed(2)}x (GET) and ${ratio(proxyPost, bareProxyPost).toFixed(2)}x (POST) of it`,
    ].join('\n'),
  )
  if (json) {
    const buildMs = { small: small.info.buildMs, large: large.info.buildMs, addWorldLarge: large.info.addWorldMs }
    console.log(
      JSON.stringify(
        {
          node: process.version,
          connections: CONNECTIONS,
          seconds,
          rounds,
          proxyRounds,
          rows,
          runs,
          buildMs,
          spawnMs: { mock: mockSpawns, bare: bareSpawns, ...(withoutCa ? { withoutExtraCaCerts: withoutCa } : {}) },
        },
        null,
        2,
      ),
    )
  }
}

if (isMainThread) {
  main().catch((error: Error) => {
    console.error(error.message)
    process.exitCode = 1
  })
} else {
  void serveInWorker(workerData as ServerRole)
}
