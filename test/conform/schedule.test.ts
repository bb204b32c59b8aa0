// The order and the number of a run's cases in flight (src/node/runner/schedule.ts), and where its time went
// (src/node/runner/run-time.ts, src/core/rules/delays.ts). Nothing here depends on how fast the machine is:
// the order is read from the runs' starts, the concurrency is driven by hand, the delays are journals
// written by hand.
import { describe, expect, it } from 'vitest'
import { cases as allCases } from '../../suites/index.js'
import { REQUEST_TIMEOUT_MS } from '../../src/core/defaults.js'
import { deliberateDelayMs } from '../../src/core/rules/delays.js'
import type { CaseResult, Reporter } from '../../src/core/rules/types.js'
import { FAULT_WAITS, type ArmedFault } from '../../src/core/service/faults.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { timeLines } from '../../src/node/reporters/time.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { timeSpent, START_CPU_MS } from '../../src/node/runner/run-time.js'
import {
  caseRequestTimeoutMs,
  expectedWaitMs,
  fittedConcurrency,
  nextLimit,
  runPool,
  scheduleRuns,
  type Concurrency,
} from '../../src/node/runner/schedule.js'

const fault = (route: ArmedFault['route'], kind: ArmedFault['kind'], mode: ArmedFault['mode']): ArmedFault => ({
  route,
  kind,
  mode,
})

describe('expectedWaitMs', () => {
  it('counts three timeouts for a lookup that always hangs, one for a creation (never sent again)', () => {
    expect(expectedWaitMs({ faults: [fault('GET /vehicles', 'hang', 'always')] }, 2500)).toBe(7500)
    expect(expectedWaitMs({ faults: [fault('POST /payments', 'hang', 'always')] }, 2500)).toBe(2500)
    expect(expectedWaitMs({ faults: [fault('GET /vehicles', 'hang', 'once')] }, 2500)).toBe(2500)
  })

  it('counts a slow answer and each Retry-After waited out', () => {
    expect(expectedWaitMs({ faults: [fault('POST /payment', 'slow', 'once')] }, 2500)).toBe(FAULT_WAITS.slowMs)
    expect(expectedWaitMs({ faults: [fault('POST /payment', 'unavailable', 'always')] }, 2500)).toBe(
      2 * FAULT_WAITS.retryAfterS * 1000,
    )
    expect(expectedWaitMs({ faults: [fault('POST /payment', 'rate-limited', 'once')] }, 2500)).toBeGreaterThanOrEqual(
      FAULT_WAITS.dateAheadS * 1000,
    )
    expect(expectedWaitMs({}, 2500)).toBe(0)
    expect(expectedWaitMs({ faults: [fault('POST /payment', 'reset', 'always')] }, 2500)).toBe(0)
  })
})

describe('the request timeout a case gives its client', () => {
  it("is the run's, with a slow answer's delay on top where the case has one", async () => {
    expect(caseRequestTimeoutMs({ faults: [fault('POST /payment', 'slow', 'always')] }, 2500)).toBe(
      2500 + FAULT_WAITS.slowMs,
    )
    expect(caseRequestTimeoutMs({ faults: [fault('POST /payment', 'hang', 'always')] }, 2500)).toBe(2500)
    const given: Record<string, string> = {}
    await runConformance({
      client: (visit, env) => void (given[visit.flow] = env.RELAY_REQUEST_TIMEOUT_MS),
      cases: ['simple/accepted', 'resilience/payment-create/slow/once'],
    })
    expect(given).toEqual({
      simple: String(REQUEST_TIMEOUT_MS),
      advanced: String(REQUEST_TIMEOUT_MS + FAULT_WAITS.slowMs),
    })
  })
})

describe('scheduleRuns', () => {
  const order = scheduleRuns(allCases, 1, REQUEST_TIMEOUT_MS)
  const waits = order.map(({ index }) => expectedWaitMs(allCases[index], REQUEST_TIMEOUT_MS))

  it('starts the longest expected first: the lookups that always hang', () => {
    expect(allCases[order[0].index].id).toMatch(/^resilience\/(company|vehicle)-lookup\/hang\/always$/)
    expect(waits).toEqual([...waits].sort((a, b) => b - a))
  })

  it('keeps the suite order among equal ones, so a flow case starts before a variant of it', () => {
    const short = order.filter((_, at) => waits[at] === 0).map(({ index }) => index)
    expect(short.length).toBeGreaterThan(0)
    expect(short).toEqual([...short].sort((a, b) => a - b))
  })

  it("runs every case `repeat` times, a case's runs together", () => {
    const twice = scheduleRuns(allCases, 2, REQUEST_TIMEOUT_MS)
    expect(twice).toHaveLength(allCases.length * 2)
    expect(twice.slice(0, 2)).toEqual([
      { index: order[0].index, run: 0 },
      { index: order[0].index, run: 1 },
    ])
  })
})

describe('the order a run starts its cases in', () => {
  const ids = [
    'simple/accepted',
    'resilience/simple-payment/slow/once',
    'resilience/vehicle-lookup/hang/always',
    'resilience/simple-payment/unavailable/always',
  ]
  /** The ids in the order the run started them, one at a time; the client gives up at once (the order is what is read). */
  async function started(options: { order?: 'suite'; repeat?: number } = {}): Promise<string[]> {
    const seen: string[] = []
    const reporter: Reporter = { onCaseStart: (start) => void seen.push(start.id) }
    await runConformance({ client: () => undefined, cases: ids, jobs: 1, reporters: [reporter], ...options })
    return seen
  }

  it('is the longest expected first', async () => {
    expect(await started()).toEqual([
      'resilience/vehicle-lookup/hang/always',
      'resilience/simple-payment/unavailable/always',
      'resilience/simple-payment/slow/once',
      'simple/accepted',
    ])
  })

  it('holds with --repeat, and is the suite order when asked', async () => {
    expect(await started({ repeat: 2 })).toEqual([
      'resilience/vehicle-lookup/hang/always',
      'resilience/vehicle-lookup/hang/always',
      'resilience/simple-payment/unavailable/always',
      'resilience/simple-payment/unavailable/always',
      'resilience/simple-payment/slow/once',
      'resilience/simple-payment/slow/once',
      'simple/accepted',
      'simple/accepted',
    ])
    const suiteOrder = allCases.filter((kase) => ids.includes(kase.id)).map((kase) => kase.id)
    expect(await started({ order: 'suite' })).toEqual(suiteOrder)
  })
})

describe('nextLimit', () => {
  const bounds = { least: 8, most: 64, cores: 2 }

  it("adds half again (a core's worth at least) when the machine is mostly idle and runs wait to start, never above the most", () => {
    expect(nextLimit(8, { all: 0.2, kit: 0.1, machine: 0.3 }, true, bounds)).toBe(12)
    expect(nextLimit(2, { all: 0.2, kit: 0.1, machine: 0.3 }, true, { least: 2, most: 64, cores: 2 })).toBe(4)
    expect(nextLimit(60, { all: 0.2, kit: 0.1, machine: 0.3 }, true, bounds)).toBe(64)
    expect(nextLimit(8, { all: 0.2, kit: 0.1, machine: 0.3 }, false, bounds)).toBe(8)
  })

  it("takes a quarter off when the run keeps the cores busy, or the kit's own thread, never below the least", () => {
    expect(nextLimit(40, { all: 0.95, kit: 0.2, machine: 0.95 }, true, bounds)).toBe(30)
    expect(nextLimit(40, { all: 0.4, kit: 0.95, machine: 0.5 }, true, bounds)).toBe(30)
    expect(nextLimit(9, { all: 1, kit: 1, machine: 1 }, true, bounds)).toBe(8)
  })

  it('holds when other work keeps the machine busy: the run adds no more', () => {
    expect(nextLimit(8, { all: 0.2, kit: 0.1, machine: 0.95 }, true, bounds)).toBe(8)
  })
})

describe('fittedConcurrency', () => {
  const idle = { since: () => ({ kitMs: 0, endedMs: 0, runningMs: 0, totalMs: 0 }) }

  it('does not count the runs waiting on the service: more may start while they wait, three waiting to one running at most, and the most in all', async () => {
    const concurrency = fittedConcurrency(idle, () => [], 2, 64)
    try {
      expect(concurrency.canStart(7)).toBe(true)
      expect(concurrency.canStart(8)).toBe(false)
      const roused = concurrency.changed()
      concurrency.waiting(1)
      await roused
      expect(concurrency.canStart(8)).toBe(true)
      for (let i = 0; i < 30; i++) concurrency.waiting(1)
      expect(concurrency.canStart(31)).toBe(true)
      expect(concurrency.canStart(32)).toBe(false)
      for (let i = 0; i < 31; i++) concurrency.waiting(-1)
      expect(concurrency.canStart(8)).toBe(false)
      const capped = fittedConcurrency(idle, () => [], 2, 10)
      for (let i = 0; i < 8; i++) capped.waiting(1)
      expect(capped.canStart(10)).toBe(false)
      capped.stop()
    } finally {
      concurrency.stop()
    }
  })
})

describe('runPool with a limit that changes', () => {
  it('starts more tasks as soon as there is room, without waiting for one to end', async () => {
    let limit = 1
    let wake = () => undefined as void
    const concurrency: Concurrency = {
      canStart: (inflight) => inflight < limit,
      waiting: () => undefined,
      seen: () => undefined,
      changed: () => new Promise<void>((resolve) => (wake = resolve)),
      record: () => ({ fixed: false, most: limit, last: limit }),
      stop: () => undefined,
    }
    const release: Array<() => void> = []
    const startedTasks: number[] = []
    const pool = runPool(
      3,
      concurrency,
      (index) => {
        startedTasks.push(index)
        return new Promise<void>((resolve) => release.push(resolve))
      },
      () => true,
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(startedTasks).toEqual([0])
    limit = 3
    wake()
    await new Promise((resolve) => setImmediate(resolve))
    expect(startedTasks).toEqual([0, 1, 2])
    for (const done of release) done()
    await pool
  })
})

const T0 = Date.parse('2026-11-21T10:00:00.000Z')
const entry = (at: number, durationMs: number, status: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  seq: 1,
  time: new Date(T0 + at).toISOString(),
  durationMs,
  worldId: 'world-1',
  request: { method: 'GET', path: '/vehicles', query: {}, search: '?plate=AB123', headers: {} },
  response: { status, headers: {}, body: status === 0 ? null : [] },
  route: 'GET /vehicles',
  auth: 'ok',
  ...extra,
})

describe('deliberateDelayMs', () => {
  it('counts hung and slow requests whole, and a Retry-After as far as the client waited it out', () => {
    const hung = entry(0, 2500, 0, { fault: { kind: 'hang', mode: 'always', applied: true } })
    const slow = entry(2600, 1500, 200, { fault: { kind: 'slow', mode: 'once', applied: true } })
    expect(deliberateDelayMs([hung, slow])).toBe(4000)
    const told = entry(0, 5, 503, {
      response: { status: 503, headers: { 'retry-after': '2' }, body: {} },
      fault: { kind: 'unavailable', mode: 'once', applied: false },
    })
    expect(deliberateDelayMs([told, entry(2105, 5, 200)])).toBe(2000)
    // Back after a second: only that second was the service's.
    expect(deliberateDelayMs([told, entry(1005, 5, 200)])).toBe(1000)
    expect(deliberateDelayMs([entry(0, 5, 200)])).toBe(0)
  })
})

describe('where the time went', () => {
  const kase = (id: string, durationMs: number, requests: JournalEntry[] = []) =>
    ({ id, durationMs, requests }) as unknown as CaseResult
  const jobs = { fixed: false, most: 12, last: 6 }

  it("names the longest case, the share of the cases' time the service held them, and the CPU", () => {
    const hung = entry(0, 2500, 0, { fault: { kind: 'hang', mode: 'once', applied: true } })
    const time = timeSpent([kase('a', 1000), kase('b', 3000, [hung])], {
      wallMs: 3200,
      cpu: { kitMs: 400, endedMs: 300, runningMs: 0, totalMs: 700 },
      jobs,
      clientIsProcess: true,
    })
    expect(time).toMatchObject({
      longest: { id: 'b', durationMs: 3000 },
      delayMs: 2500,
      casesMs: 4000,
      delayShare: 2500 / 4000,
      clientCpuMs: 300,
      kitCpuMs: 400,
      jobs,
    })
    expect(time.startDominates).toBeUndefined()
    const lines = timeLines(time, 3200).join('\n')
    expect(lines).toContain('Longest case b, 3.0 s of the 3.2 s wall time')
    expect(lines).toContain("63% of the cases' 4.0 s waiting on the service's deliberate delays")
    expect(lines).toContain("the client's processes 0.3 s, relay-mock's 0.4 s; up to 12 cases at once, fitted")
  })

  it("says when the client's own start outweighs its work, and what cures it", () => {
    const cpuPerRun = START_CPU_MS * 3
    const time = timeSpent([kase('a', 1000), kase('b', 1000)], {
      wallMs: 1500,
      cpu: { kitMs: 100, endedMs: 2 * cpuPerRun, runningMs: 0, totalMs: 100 + 2 * cpuPerRun },
      jobs,
      clientIsProcess: true,
    })
    expect(time.startDominates).toEqual({ cpuPerRunMs: cpuPerRun })
    expect(timeLines(time, 1500).at(-1)).toMatch(
      /^Your client costs 0\.6 s of CPU per case, most of it its own start, .*class-data sharing/,
    )
    // An in-process client's CPU is the kit's: nothing is said of its start.
    expect(
      timeSpent([kase('a', 1000)], {
        wallMs: 1000,
        cpu: { kitMs: 900, endedMs: 0, runningMs: 0, totalMs: 900 },
        jobs,
        clientIsProcess: false,
      }),
    ).not.toHaveProperty('clientCpuMs')
  })

  it("is in a run's summary, with the concurrency fixed by --jobs or fitted", async () => {
    const fixed = await runConformance({ client: () => undefined, cases: ['simple/accepted'], jobs: 3 })
    expect(fixed.summary.time).toMatchObject({
      longest: { id: 'simple/accepted' },
      jobs: { fixed: true, most: 3, last: 3 },
    })
    const fitted = await runConformance({ client: () => undefined, cases: ['simple/accepted'] })
    expect(fitted.summary.time?.jobs.fixed).toBe(false)
  })
})
