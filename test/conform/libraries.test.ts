// The clients people actually write: a location client on each common HTTP library with its retry
// add-on, once at the library's documented defaults (only a timeout set) and once set up as
// docs/http-libraries.md says, each through the whole default conform run (both flows, every cell
// of the fault matrix and every variant). The flow is the same in each (test/conform/clients/libraries/flow.mjs, and its
// Python twin); only the HTTP layer differs, so each verdict is the library's:
// - ky, got and requests + urllib3's Retry at their defaults pass (warnings allowed: quick or many
//   retries, a lookup or a 503 given up at once);
// - axios-retry at its defaults fails for sending a POST again after a reset (its default retryCondition
//   retries a network error of any method: a payment paid twice), and for that alone;
// - each recipe passes with no warning.
// The Node libraries run in-process, as function clients: each case makes its library's client afresh,
// with a connection pool of its own (what a process per case would give it, without starting Node and
// loading the library 160 times). The Python client runs as a process per case, forked from one
// interpreter that imported requests (test/support/fork-client.ts), and once as a command. The eight runs start
// together (they mostly wait: on Retry-After, on a hung request's timeout), with the conform defaults
// otherwise, but for a 5 s request timeout (below: RUN), at which a client starved of the CPU still reads
// an answer sent at once; urllib3's four attempts at a hung lookup end after 23 s, within the 30 s deadline.
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAULT_STEPS } from '../../src/core/service/faults.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { forkClient, type ForkClient } from '../support/fork-client.js'
import { cases as DEFAULT_CASES } from '../../suites/index.js'
import type { RunResult } from '../../src/core/rules/types.js'
// @ts-expect-error: plain ES modules without types (each also runs as a process: node ky.mjs recipe)
import { createClient as ky } from './clients/libraries/ky.mjs'
// @ts-expect-error: as above
import { createClient as got } from './clients/libraries/got.mjs'
// @ts-expect-error: as above
import { createClient as axiosRetry } from './clients/libraries/axios-retry.mjs'
import { needs } from '../support/needs.js'

// The requests client.
needs('python3', 'requests')

type Mode = 'defaults' | 'recipe'

const inProcess = (create: (mode: Mode) => unknown) => (mode: Mode) => create(mode) as ClientFunction

const REQUESTS = 'test/conform/clients/libraries/requests_client.py'
/** The Python client's interpreters, one a mode, each ended once its run has. */
const forked: ForkClient[] = []
const requests = (mode: Mode) => {
  const client = forkClient(REQUESTS, mode)
  forked.push(client)
  return client
}

const LIBRARIES: { name: string; client: (mode: Mode) => ClientFunction; defaults: 'pass' | 'resends POSTs' }[] = [
  { name: 'ky', client: inProcess(ky), defaults: 'pass' },
  { name: 'got', client: inProcess(got), defaults: 'pass' },
  { name: 'axios + axios-retry', client: inProcess(axiosRetry), defaults: 'resends POSTs' },
  { name: 'requests + urllib3 Retry', client: requests, defaults: 'pass' },
]

/**
 * Cases at once: a client costs next to nothing while it waits. And a 5 s request timeout, twice the
 * conform default: the eight runs' mocks and six of their clients share this file's one thread, where a
 * run of its own has its mock to itself and its clients in their own processes. At the default, on a
 * machine loaded many times over, an answer sent at once was once read after the client's timeout.
 */
const RUN = { jobs: 8, requestTimeoutMs: 5000 }

/** The runs, all started at once: vitest runs only a few concurrent tests at a time, the runs need not wait. */
const runs = new Map<string, Promise<RunResult>>()
const key = (name: string, mode: Mode) => `${name} ${mode}`
const runOf = (name: string, mode: Mode) => runs.get(key(name, mode))!

/** The cells where a POST's connection is reset after the service recorded it: axios-retry sends it again. */
const RESET_POSTS = Object.entries(FAULT_STEPS)
  .filter(([, route]) => route.startsWith('POST'))
  .flatMap(([step]) => [`resilience/${step}/reset/once`, `resilience/${step}/reset/always`])

/** Each case that is not `status`, with the rules that failed or warned there and what they said. */
function casesNot(result: RunResult, ...statuses: string[]): string[] {
  return result.cases
    .filter((kase) => !statuses.includes(kase.status))
    .map(
      (kase) =>
        `${kase.id}: ${kase.status}${kase.checks
          .filter((c) => c.status === 'failed' || c.status === 'warning')
          .map((c) => `\n  ${c.rule} (${c.status}): ${c.message}`)
          .join('')}`,
    )
}

/** Each case whose report is not an outcome its suite lists (a failed case is judged by its rules). */
function offOutcome(result: RunResult): string[] {
  return result.cases.flatMap((kase) => {
    const allowed = kase.expectedOutcomes ?? (kase.expectedOutcome ? [kase.expectedOutcome] : [])
    return kase.status === 'failed' || (kase.report && allowed.includes(kase.report.outcome))
      ? []
      : [`${kase.id}: wrote ${JSON.stringify(kase.report ?? null)}, expected ${allowed.join(' or ')}`]
  })
}

describe('the HTTP libraries, through the whole default run', () => {
  beforeAll(() => {
    for (const library of LIBRARIES) {
      for (const mode of ['defaults', 'recipe'] as const) {
        const client = library.client(mode)
        const run = runConformance({ client, ...RUN })
        run.catch(() => undefined) // awaited by its test; a rejection before then is not unhandled
        runs.set(key(library.name, mode), run)
      }
    }
  })

  // The figures of docs/http-libraries.md: RELAY_LIBRARY_FIGURES=<file> writes each run's counts and cells.
  afterAll(async () => {
    await Promise.all([...runs.values()].map((run) => run.catch(() => undefined)))
    await Promise.all(forked.map((client) => client.close()))
    const file = process.env.RELAY_LIBRARY_FIGURES
    if (!file) return
    const figures = []
    for (const library of LIBRARIES) {
      for (const mode of ['defaults', 'recipe'] as const) {
        const result = await runOf(library.name, mode)
        figures.push({
          library: library.name,
          mode,
          summary: result.summary,
          cases: result.cases.map((kase) => ({
            id: kase.id,
            status: kase.status,
            outcome: kase.report?.outcome,
            rules: kase.checks
              .filter((c) => c.status === 'failed' || c.status === 'warning')
              .map((c) => `${c.rule} ${c.status}`),
          })),
        })
      }
    }
    writeFileSync(file, JSON.stringify({ run: RUN, figures }, null, 2))
  })

  for (const library of LIBRARIES) {
    it.concurrent(
      `${library.name} at its defaults ${library.defaults === 'pass' ? 'passes (warnings allowed)' : 'fails for sending POSTs again after a reset, and for that alone'}`,
      async () => {
        const result = await runOf(library.name, 'defaults')
        expect(result.cases.map((kase) => kase.id).sort()).toEqual(DEFAULT_CASES.map((kase) => kase.id).sort())
        expect(offOutcome(result)).toEqual([])
        if (library.defaults === 'pass') {
          expect(casesNot(result, 'passed', 'warning')).toEqual([])
        } else {
          const failed = result.cases.filter((kase) => kase.status === 'failed')
          expect(failed.map((kase) => kase.id).sort()).toEqual([...RESET_POSTS].sort())
          for (const kase of failed)
            expect(
              kase.checks.filter((c) => c.status === 'failed').map((c) => c.rule),
              kase.id,
            ).toEqual(['resilience.no-resend'])
          expect(casesNot(result, 'passed', 'warning', 'failed')).toEqual([])
        }
      },
      300_000,
    )

    it.concurrent(
      `${library.name} set up as docs/http-libraries.md says passes every case with no warning`,
      async () => {
        const result = await runOf(library.name, 'recipe')
        expect(result.cases.map((kase) => kase.id).sort()).toEqual(DEFAULT_CASES.map((kase) => kase.id).sort())
        expect(casesNot(result, 'passed')).toEqual([])
        expect(offOutcome(result)).toEqual([])
      },
      300_000,
    )
  }
})

describe('the requests client as a command', () => {
  it('passes a case of each flow run as `python3 requests_client.py recipe`, as a user runs it', async () => {
    const result = await runConformance({
      client: `python3 ${REQUESTS} recipe`,
      cases: ['advanced/new-vehicle', 'simple/rejected'],
    })
    expect(casesNot(result, 'passed')).toEqual([])
    expect(offOutcome(result)).toEqual([])
    expect(result.summary).toMatchObject({ total: 2, passed: 2 })
  })
})
