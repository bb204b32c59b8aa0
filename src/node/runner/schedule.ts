// The order and the number of a run's cases in flight. A run lasts as long as its longest case at
// best, so the cases expected to take longest (their faults make them wait: hung requests, slow
// answers, Retry-After) start first and the short ones fill the gaps. A case that waits costs a socket,
// not a core, so the number in flight follows what the cases cost the machine, measured as they end:
// as many as keep the CPU they need within the cores, and never fewer than the cores.
import os from 'node:os'
import { FAULT_WAITS, type FaultWaits } from '../../core/service/faults.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { CpuTime } from './cpu-time.js'

/** One run of one case: its index in the selection and which of its `--repeat` runs it is. */
export interface Slot {
  index: number
  run: number
}

/**
 * RELAY_REQUEST_TIMEOUT_MS for one case: the run's, and where the case's answers come late on purpose (a
 * `slow` fault) that delay on top, so that a slow answer has the same grace as any other and a client
 * starved of the CPU on a busy machine still reads it in time. A client with a timeout of its own
 * shorter than the delay still gives up on it.
 * @example caseRequestTimeoutMs({ faults: [{ route: 'POST /payment', kind: 'slow', mode: 'once' }] }, 2500) // 4000
 */
export function caseRequestTimeoutMs(
  kase: Pick<ConformanceCase, 'faults'>,
  requestTimeoutMs: number,
  waits: Readonly<FaultWaits> = FAULT_WAITS,
): number {
  return requestTimeoutMs + (kase.faults?.some((fault) => fault.kind === 'slow') ? waits.slowMs : 0)
}

/** The attempts a correct client makes at a request that keeps failing (bounded-retries' three). */
const ATTEMPTS = 3

/**
 * How long a case is expected to wait on the service, in ms, from its faults: a hung request costs the
 * client's timeout (a lookup, retried, three of them; a creation is not sent again), a slow answer its
 * delay, a 503 or 429 its Retry-After (once, or twice before the third attempt when always).
 * @example expectedWaitMs({ faults: [{ route: 'GET /vehicles', kind: 'hang', mode: 'always' }] }, 2500) // 7500
 */
export function expectedWaitMs(
  kase: Pick<ConformanceCase, 'faults'>,
  requestTimeoutMs: number,
  waits: Readonly<FaultWaits> = FAULT_WAITS,
): number {
  let total = 0
  const timeoutMs = caseRequestTimeoutMs(kase, requestTimeoutMs, waits)
  for (const fault of kase.faults ?? []) {
    const again = fault.mode === 'always' ? ATTEMPTS - 1 : 1
    if (fault.kind === 'hang')
      total += timeoutMs * (fault.mode === 'always' && fault.route.startsWith('GET ') ? ATTEMPTS : 1)
    else if (fault.kind === 'slow') total += waits.slowMs
    else if (fault.kind === 'unavailable') total += waits.retryAfterS * 1000 * again
    // An HTTP-date names the whole second at or after the wait: half a second more on the mean.
    else if (fault.kind === 'rate-limited') total += (waits.dateAheadS + 0.5) * 1000 * again
  }
  return total
}

/**
 * The runs of a selection in the order they start: the longest expected first; equal ones in the
 * selection's order (so a flow case starts before a variant that repeats it), each case's repeats together.
 * @example scheduleRuns(cases, 2, 2500)[0] // { index: 17, run: 0 }: a hung lookup, every time
 */
export function scheduleRuns(
  cases: ReadonlyArray<Pick<ConformanceCase, 'faults'>>,
  repeat: number,
  requestTimeoutMs: number,
  waits?: Readonly<FaultWaits>,
): Slot[] {
  const expected = cases.map((kase) => expectedWaitMs(kase, requestTimeoutMs, waits))
  // Array.prototype.sort is stable: equal waits keep the selection's order.
  const order = cases.map((_, index) => index).sort((a, b) => expected[b] - expected[a])
  return order.flatMap((index) => Array.from({ length: repeat }, (_, run) => ({ index, run })))
}

/** The share of the cores a run's processes may keep busy before fewer cases start; below the low mark, more may. */
const BUSY = { high: 0.85, low: 0.6 }
/** The most cases in flight, waiting ones included, however little they cost: each holds a listener and a client's process. */
export const MOST_JOBS = 64
/** How many runs waiting on the service a fitted concurrency keeps in flight for each run it lets run. */
const WAITING_PER_RUNNING = 3
/** How often a fitted concurrency reads the CPU time spent. */
const SAMPLE_MS = 250

/** What a run's concurrency has been. */
export interface ConcurrencyRecord {
  /** Fixed by `--jobs`, or fitted to the run. */
  fixed: boolean
  /** The most cases allowed to run at once, not counting those waiting on the service. */
  most: number
  /** The number allowed when the run ended. */
  last: number
}

export interface Concurrency {
  /** Whether one more run may start, with `inflight` in flight. */
  canStart(inflight: number): boolean
  /** A run in flight started (+1) or stopped (-1) waiting on the service's deliberate delays. */
  waiting(delta: 1 | -1): void
  /** The pool tells how many runs are in flight and how many wait to start. */
  seen(inflight: number, queued: number): void
  /** Resolves when room may have opened: the limit rose, or a run started waiting. */
  changed(): Promise<void>
  record(): ConcurrencyRecord
  stop(): void
}

/**
 * A fixed number of cases in flight (`--jobs`), waiting or not.
 * @example fixedConcurrency(8).canStart(7) // true
 */
export function fixedConcurrency(jobs: number): Concurrency {
  return {
    canStart: (inflight) => inflight < jobs,
    waiting: () => undefined,
    seen: () => undefined,
    changed: () => new Promise(() => undefined),
    record: () => ({ fixed: true, most: jobs, last: jobs }),
    stop: () => undefined,
  }
}

/** How busy one sample found the machine: the run's processes and the whole machine as shares of all cores, the kit's thread of one. */
export interface Busy {
  all: number
  kit: number
  machine: number
}

/**
 * The next limit from the last one and how busy the last sample found the machine: half again (a core's
 * worth at least) when the whole machine is mostly idle and runs wait to start; a quarter fewer when the
 * run's processes keep the cores (or the kit's own thread) busy; never fewer than `least`, never more
 * than `most`. A machine kept busy by other work holds the limit: a run with fewer processes there gets
 * a smaller share of the cores, not a faster one.
 * @example nextLimit(8, { all: 0.2, kit: 0.1, machine: 0.3 }, true, { least: 8, most: 64, cores: 2 }) // 12
 */
export function nextLimit(
  limit: number,
  busy: Busy,
  pressed: boolean,
  bounds: { least: number; most: number; cores: number },
): number {
  if (busy.all > BUSY.high || busy.kit > BUSY.high) return Math.max(bounds.least, Math.floor(limit * 0.75))
  if (pressed && busy.machine < BUSY.low && busy.kit < BUSY.low)
    return Math.min(bounds.most, Math.max(limit + bounds.cores, Math.ceil(limit * 1.5)))
  return limit
}

/** The machine's busy and total CPU time so far, summed over its cores (ms). */
function machineTimes(): { busy: number; total: number } {
  let busy = 0
  let total = 0
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq
    total += all
    busy += all - times.idle
  }
  return { busy, total }
}

/**
 * The number in flight fitted to the run as it goes. A run waiting on the service's deliberate delays
 * (see case-waits.ts) costs a socket and a sleeping client, so it does not count: the limit is on the
 * others, with up to three waiting for each (they wake together), and MOST_JOBS in all. It starts at
 * four a core, the least it falls to, and every SAMPLE_MS follows how busy the run's processes (`cpu`,
 * with the clients `running` now) and the machine were (see nextLimit): more while the machine idles
 * (clients that wait), no more for one that keeps the cores busy (a JVM starting for each case).
 * @example fittedConcurrency(cpuTime(), liveClientPids).canStart(0) // true
 */
export function fittedConcurrency(
  cpu: CpuTime,
  running: () => Iterable<number>,
  cores = os.availableParallelism(),
  most = MOST_JOBS,
): Concurrency {
  const least = Math.min(most, cores * 4)
  let limit = least
  let high = limit
  let waiting = 0
  let pressed = false
  let last = { at: performance.now(), spent: cpu.since(running()), machine: machineTimes() }
  let wake: (() => void) | undefined
  let woken = new Promise<void>((resolve) => (wake = resolve))
  const rouse = () => {
    wake!()
    woken = new Promise<void>((resolve) => (wake = resolve))
  }
  const timer = setInterval(() => {
    const now = { at: performance.now(), spent: cpu.since(running()), machine: machineTimes() }
    const ms = now.at - last.at
    const machineTotal = now.machine.total - last.machine.total
    const busy = {
      all: (now.spent.totalMs - last.spent.totalMs) / (ms * cores),
      kit: (now.spent.kitMs - last.spent.kitMs) / ms,
      machine: machineTotal > 0 ? (now.machine.busy - last.machine.busy) / machineTotal : 0,
    }
    last = now
    const next = nextLimit(limit, busy, pressed, { least, most, cores })
    if (next === limit) return
    limit = next
    high = Math.max(high, limit)
    rouse()
  }, SAMPLE_MS)
  timer.unref()
  return {
    // Those waiting wake together (a Retry-After passes for many at once): at most three for each that may run.
    canStart: (inflight) =>
      inflight < Math.min(most, limit * WAITING_PER_RUNNING + limit) && inflight - waiting < limit,
    waiting(delta) {
      waiting += delta
      if (delta > 0) rouse()
    },
    seen: (inflight, queued) => void (pressed = queued > 0 && inflight - waiting >= limit),
    changed: () => woken,
    record: () => ({ fixed: false, most: high, last: limit }),
    stop: () => clearInterval(timer),
  }
}

/**
 * Runs `task(0)` … `task(count - 1)`, at most `jobs` at a time (a number, or a concurrency whose limit
 * may change as they run), starting one only while `canStart()` says so; resolves once nothing runs and
 * nothing more may start. Tasks must not reject.
 * @example await runPool(cases.length, 4, (index) => runOne(cases[index]), () => true)
 */
export async function runPool(
  count: number,
  jobs: number | Concurrency,
  task: (index: number) => Promise<void>,
  canStart: () => boolean,
): Promise<void> {
  const concurrency = typeof jobs === 'number' ? fixedConcurrency(jobs) : jobs
  const inflight = new Set<Promise<void>>()
  let next = 0
  for (;;) {
    while (next < count && concurrency.canStart(inflight.size) && canStart()) {
      const running: Promise<void> = task(next++).finally(() => inflight.delete(running))
      inflight.add(running)
    }
    concurrency.seen(inflight.size, count - next)
    if (inflight.size === 0) return
    await Promise.race(next < count ? [...inflight, concurrency.changed()] : inflight)
  }
}
