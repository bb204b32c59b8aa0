// The example clients under every fault the mock can inject: each client, each step a fault can
// break (in a world where the flow reaches it), each kind, once and always. Each cell runs the real
// client process against a served world and checks what the fault contract asks of a correct client
// from the journal and the world: how many times each request was sent and met the fault, the waits
// between attempts, never a second payment, the outcome it wrote (paid with the id, unknown,
// rejected), exit 0, and a hung request given up after the client's own timeout.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAULT_KINDS, FAULT_STEPS, type FaultKind, type FaultMode, type FaultStep } from '../../src/core/faults.js'
import type { JournalEntry } from '../../src/core/journal.js'
import { createRelayService, type RelayService } from '../../src/core/mock.js'
import type { Flow } from '../../src/core/rules/types.js'
import { runClientProcess } from '../../src/node/client-process.js'
import { toRelayEnv } from '../../src/node/runner.js'
import { close, createServer, listen } from '../../src/node/server.js'

const examples = [
  { name: 'shell', command: 'bash examples/clients/shell/client.sh' },
  { name: 'Python', command: 'python3 examples/clients/python/client.py' },
  { name: 'TypeScript', command: 'node dist/examples/clients/typescript/client.js' },
]

/** The clients' request timeout in the cells where a request hangs (they default to 5 s elsewhere). */
// Long enough that an ordinary answer on a busy 2-core CI machine never looks like a hang.
const HANG_TIMEOUT_MS = 3000
/** Cells of one client running at once: they mostly wait (Retry-After, back-off, timeouts). */
const POOL = 10
/** At one request, the first included. */
const MAX_ATTEMPTS = 3
/** Journal times are whole milliseconds. */
const CLOCK_SLACK_MS = 10

/** Where each step is reached: the world and flow of the resilience matrix. */
const WORLDS: Record<FaultStep, { flow: Flow; scenario: string }> = {
  'company-lookup': { flow: 'advanced', scenario: 'existing-vehicle' },
  'vehicle-lookup': { flow: 'advanced', scenario: 'existing-vehicle' },
  'vehicle-create': { flow: 'advanced', scenario: 'new-vehicle' },
  'custodian-create': { flow: 'advanced', scenario: 'new-vehicle' },
  'payment-create': { flow: 'advanced', scenario: 'existing-vehicle' },
  'simple-payment': { flow: 'simple', scenario: 'existing-vehicle' },
}

interface Cell {
  step: FaultStep
  kind: FaultKind
  mode: FaultMode
}

interface Ran {
  exitCode: number | null
  timedOut: boolean
  stderr: string
  report: { outcome?: string; paymentId?: string; message?: string } | undefined
  requests: JournalEntry[]
  payments: string[]
  timeoutMs: number
}

const steps = Object.keys(FAULT_STEPS) as FaultStep[]
const kinds = Object.keys(FAULT_KINDS) as FaultKind[]
const cells: Cell[] = steps.flatMap((step) => kinds.flatMap((kind) => (['once', 'always'] as const).map((mode) => ({ step, kind, mode }))))

/** The answer was lost after the request was applied: the client cannot tell whether it was. */
const LOST = new Set<FaultKind>(['server-error', 'reset', 'hang', 'truncated', 'garbage'])

/**
 * What the contract asks in a cell: the attempts at the faulted request, the outcome, and the calls
 * made to each route. `retried` is the wait before a retry (`retry-after` or `backoff`), if any.
 */
function expectation({ step, kind, mode }: Cell): { attempts: number; outcome: string; retried?: 'retry-after' | 'backoff' | 'any'; calls: Record<string, number> } {
  const route = FAULT_STEPS[step]
  const isGet = route.startsWith('GET')
  let attempts = 1
  let outcome = 'paid'
  let retried: 'retry-after' | 'backoff' | 'any' | undefined
  if (kind === 'unavailable' || kind === 'rate-limited') {
    attempts = mode === 'once' ? 2 : 3
    outcome = mode === 'once' ? 'paid' : 'rejected'
    retried = 'retry-after'
  } else if (kind === 'token-revoked') {
    outcome = 'rejected'
  } else if (LOST.has(kind)) {
    if (isGet) {
      attempts = mode === 'once' ? 2 : 3
      outcome = mode === 'once' ? 'paid' : 'rejected'
      retried = kind === 'server-error' ? 'backoff' : 'any'
    } else if (step === 'payment-create' || step === 'simple-payment') outcome = 'unknown'
    else if (step === 'custodian-create') outcome = 'rejected'
    // vehicle-create: it was created; the lookup that follows finds it, and the visit is paid.
  }
  const flowCalls = callsOf(step, outcome)
  return { attempts, outcome, retried, calls: { ...flowCalls, [route]: attempts } }

  /** The calls of the rest of the flow, each once, where the client gets that far. */
  function callsOf(at: FaultStep, ending: string): Record<string, number> {
    if (WORLDS[at].flow === 'simple') return { 'POST /payment': 1 }
    const order: FaultStep[] = WORLDS[at].scenario === 'new-vehicle' ? ['company-lookup', 'vehicle-lookup', 'vehicle-create', 'custodian-create', 'payment-create'] : ['company-lookup', 'vehicle-lookup', 'payment-create']
    const stopsAt = ending === 'paid' || ending === 'unknown' ? order.length - 1 : order.indexOf(at)
    const calls: Record<string, number> = {}
    for (const s of order.slice(0, stopsAt + 1)) calls[FAULT_STEPS[s]] = 1
    // Lost vehicle creation: the plate is looked up again before anything else.
    if (at === 'vehicle-create' && LOST.has(kind)) calls['GET /vehicles'] = 2
    return calls
  }
}

let service: RelayService
let dir: string
beforeAll(async () => {
  service = await createRelayService({ tokens: [] })
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-faults-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

let runs = 0
async function runCell(command: string, cell: Cell): Promise<Ran> {
  const { flow, scenario } = WORLDS[cell.step]
  const world = await service.addWorld({ scenario, faults: [{ route: FAULT_STEPS[cell.step], kind: cell.kind, mode: cell.mode }] })
  const server = createServer(service, { world })
  const timeoutMs = cell.kind === 'hang' ? HANG_TIMEOUT_MS : 5000
  try {
    const baseUrl = await listen(server, { port: 0, host: '127.0.0.1' })
    const resultFile = join(dir, `result-${++runs}.json`)
    const env = toRelayEnv({ ...world.visit, locationId: world.location.id, flow }, baseUrl, world.token, resultFile)
    const run = await runClientProcess({ command, env: { ...process.env, ...env, RELAY_REQUEST_TIMEOUT_MS: String(timeoutMs) }, timeoutMs: 30_000 })
    const report = await readFile(resultFile, 'utf8').then((text) => JSON.parse(text) as Ran['report'], () => undefined)
    // A hung request is journaled once its connection closes: close the listener first.
    await close(server)
    return {
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      stderr: run.stderr,
      report,
      requests: world.journal.entries(),
      payments: world.store.payments.all().map((payment) => payment.id),
      timeoutMs,
    }
  } finally {
    await close(server).catch(() => undefined)
    service.removeWorld(world)
  }
}

/** Runs `task` over `items`, `size` at a time. */
async function pool<T, R>(items: T[], size: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index])
    }
  }
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker))
  return results
}

const waitBetween = (prev: JournalEntry, next: JournalEntry) => Date.parse(next.time) - (Date.parse(prev.time) + prev.durationMs)

/** What is wrong with one cell's run, as sentences; empty when it did what the contract asks. */
function problems(cell: Cell, ran: Ran): string[] {
  const wrong: string[] = []
  const want = expectation(cell)
  const route = FAULT_STEPS[cell.step]
  if (ran.timedOut || ran.exitCode !== 0) wrong.push(`exited ${ran.exitCode}${ran.timedOut ? ' (killed: it never gave up)' : ''}`)
  const calls: Record<string, number> = {}
  for (const entry of ran.requests) {
    const key = entry.route ?? `${entry.request.method} ${entry.request.path}`
    calls[key] = (calls[key] ?? 0) + 1
  }
  for (const called of new Set([...Object.keys(calls), ...Object.keys(want.calls)])) {
    const got = calls[called] ?? 0
    const expected = want.calls[called] ?? 0
    // A POST is sent exactly as often as the contract says. A lookup may be sent once more after the
    // client's own timeout on a busy machine, within the 3 attempts (twice 3 where the plate is looked
    // up again after a lost vehicle creation).
    const lookups = called === 'GET /vehicles' && expected === 2 ? 2 : 1
    const fine = called.startsWith('GET ') && expected > 0 ? got >= expected && got <= MAX_ATTEMPTS * lookups : got === expected
    if (!fine) wrong.push(`sent ${called} ${got} times, expected ${expected}`)
  }
  const faulted = ran.requests.filter((entry) => entry.fault !== undefined).length
  const wantFaulted = cell.mode === 'once' ? 1 : want.attempts
  if (faulted !== wantFaulted) wrong.push(`met the fault ${faulted} times, expected ${wantFaulted}`)
  if (ran.report?.outcome !== want.outcome) wrong.push(`reported ${JSON.stringify(ran.report)}, expected the outcome ${want.outcome}`)
  if (ran.payments.length > 1) wrong.push(`recorded ${ran.payments.length} payments`)
  if (want.outcome === 'paid' && (ran.payments.length !== 1 || ran.report?.paymentId !== ran.payments[0])) wrong.push(`reported paid with ${ran.report?.paymentId}; the world holds ${JSON.stringify(ran.payments)}`)
  if (want.outcome === 'rejected' && ran.payments.length !== 0) wrong.push('reported rejected, but a payment was recorded')
  if (want.outcome === 'unknown' && ran.payments.length !== 1) wrong.push(`reported unknown; the fault recorded the payment, the world holds ${ran.payments.length}`)
  if (ran.report?.outcome !== 'paid' && !ran.report?.message) wrong.push('gave no message with its outcome')

  const attempts = ran.requests.filter((entry) => entry.route === route)
  for (let i = 1; i < attempts.length; i++) {
    const prev = attempts[i - 1]
    const wait = waitBetween(prev, attempts[i])
    const retryAfter = prev.response.headers['retry-after']
    if (want.retried === 'retry-after' && retryAfter !== undefined) {
      // Seconds, or an HTTP-date: the retry comes after the date it names.
      const least = /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - (Date.parse(prev.time) + prev.durationMs)
      if (wait < least - CLOCK_SLACK_MS) wrong.push(`retried ${route} ${Math.round(wait)} ms after a ${prev.response.status} with Retry-After: ${retryAfter}`)
    }
    if (want.retried === 'backoff' && wait < 500 - CLOCK_SLACK_MS) wrong.push(`retried ${route} ${Math.round(wait)} ms after a ${prev.response.status}`)
  }
  for (const hung of ran.requests.filter((entry) => entry.fault?.kind === 'hang')) {
    // Given up by the client's own timeout, not by the harness (which kills at 30 s).
    if (hung.durationMs > ran.timeoutMs * 2) wrong.push(`gave up on the hung ${hung.route} after ${Math.round(hung.durationMs)} ms, with a timeout of ${ran.timeoutMs} ms`)
  }
  return wrong
}

describe('the example clients under faults', () => {
  it.concurrent.each(examples)(`the $name client handles every cell: ${cells.length} runs, each step x kind x once/always`, { timeout: 240_000 }, async ({ command }) => {
    const ran = await pool(cells, POOL, (cell) => runCell(command, cell))
    const failing = cells.flatMap((cell, i) => {
      const wrong = problems(cell, ran[i])
      return wrong.length === 0 ? [] : [`${FAULT_STEPS[cell.step]}=${cell.kind}:${cell.mode}: ${wrong.join('; ')}\n${ran[i].stderr.trim()}`]
    })
    expect(failing).toEqual([])
  })
})
