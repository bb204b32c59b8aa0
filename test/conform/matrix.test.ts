// The resilience matrix on real clients: the reference client passes every cell of every suite, and
// each broken client fails (or, for a safe but second-best behaviour, warns in) exactly the cells its
// defect shows in, naming exactly the rules it breaks; the other cells of the same steps pass.
import { describe, expect, it } from 'vitest'
import resilience from '../../suites/resilience.js'
import { FAULT_KINDS, FAULT_STEPS, type FaultKind } from '../../src/core/service/faults.js'
import type { MatrixCell } from '../../src/core/rules/suite.js'
import type { CaseStatus, RunResult } from '../../src/core/rules/types.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { createConsoleReporter, toJsonReport, toJUnitXml, toHtmlReport } from '../../src/node/reporters/index.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'

/**
 * Twice the conform default: the dozen runs here, 40 in-process clients each, share this file's one thread
 * with their mocks, where a run of its own has its mock to itself and its clients in their own processes.
 * At the default, on a machine loaded ten times over, an answer sent at once was read after the timeout.
 */
const REQUEST_TIMEOUT_MS = 5000
const LOST: FaultKind[] = ['server-error', 'reset', 'hang', 'truncated', 'garbage']
const TOLD_TO_WAIT: FaultKind[] = ['unavailable', 'rate-limited']

type Verdict = [CaseStatus, string[]]
const PASS: Verdict = ['passed', []]

/** Each cell's status and the rules that failed (or warned) there. */
function verdicts(result: RunResult): Record<string, Verdict> {
  return Object.fromEntries(
    result.cases.map((kase) => [
      kase.id,
      [
        kase.status,
        kase.checks
          .filter((c) => c.status === (kase.status === 'warning' ? 'warning' : 'failed'))
          .map((c) => c.rule)
          .sort(),
      ],
    ]),
  )
}

interface Broken {
  defect: string
  client: string | ClientFunction
  /** The matrix rows it runs. */
  cases: string[]
  /** What each cell of those rows comes to. */
  expect: (cell: MatrixCell) => Verdict
  timeoutMs?: number
}

const fn = (defect: string): ClientFunction => createDefectiveClient(defect) as ClientFunction

const broken: Broken[] = [
  {
    defect: 'sends a payment again after its answer was lost',
    client: fn('resend-payment'),
    cases: ['resilience/payment-create/*', 'resilience/simple-payment/*'],
    expect: (cell) => (LOST.includes(cell.kind) ? ['failed', ['resilience.no-resend']] : PASS),
  },
  {
    defect: 'retries a 503 or 429 at once, ignoring Retry-After',
    client: fn('no-retry-after'),
    cases: ['resilience/vehicle-create/*'],
    expect: (cell) => (TOLD_TO_WAIT.includes(cell.kind) ? ['failed', ['resilience.retry-after']] : PASS),
  },
  {
    defect: 'ignores Retry-After and backs off 1 s of its own',
    client: fn('own-backoff'),
    cases: ['resilience/vehicle-lookup/*', 'resilience/payment-create/*'],
    expect: (cell) => (TOLD_TO_WAIT.includes(cell.kind) ? ['failed', ['resilience.retry-after']] : PASS),
  },
  {
    defect: 'tries a failing lookup 6 times',
    client: fn('retry-forever'),
    // Every kind but hang, whose six attempts would take 30 s (bounded-retries judges them as any other).
    cases: [
      'server-error',
      'reset',
      'truncated',
      'garbage',
      'unavailable',
      'rate-limited',
      'slow',
      'token-revoked',
    ].map((kind) => `resilience/vehicle-lookup/${kind}/*`),
    expect: (cell) =>
      cell.mode === 'always' && [...LOST, ...TOLD_TO_WAIT].includes(cell.kind)
        ? ['failed', ['resilience.bounded-retries']]
        : PASS,
  },
  {
    defect: 'tries a failing lookup 4 times (a warning)',
    client: fn('four-attempts'),
    cases: ['server-error', 'reset', 'truncated', 'garbage', 'unavailable', 'slow', 'token-revoked'].map(
      (kind) => `resilience/company-lookup/${kind}/*`,
    ),
    expect: (cell) =>
      cell.mode === 'always' && [...LOST, ...TOLD_TO_WAIT].includes(cell.kind)
        ? ['warning', ['resilience.bounded-retries']]
        : PASS,
  },
  {
    defect: 'retries a lookup at once after a 5xx (a warning)',
    client: fn('quick-retry'),
    cases: [
      'resilience/vehicle-lookup/server-error/*',
      'resilience/vehicle-lookup/reset/*',
      'resilience/vehicle-lookup/unavailable/*',
    ],
    expect: (cell) => (cell.kind === 'server-error' ? ['warning', ['resilience.bounded-retries']] : PASS),
  },
  {
    defect: 'sends a refused request again (401 three times)',
    client: fn('retry-refusal'),
    cases: ['resilience/company-lookup/*'],
    expect: (cell) => (cell.kind === 'token-revoked' ? ['failed', ['resilience.no-retry-on-refusal']] : PASS),
  },
  {
    defect: 'reports paid when the answer to its payment was lost',
    client: fn('paid-after-failure'),
    cases: ['resilience/payment-create/*'],
    expect: (cell) => (LOST.includes(cell.kind) ? ['failed', ['client.outcome']] : PASS),
  },
  {
    defect: 'reports rejected when the answer to its payment was lost (a warning)',
    client: fn('rejected-when-unknown'),
    cases: ['resilience/simple-payment/*'],
    expect: (cell) => (LOST.includes(cell.kind) ? ['warning', ['client.outcome']] : PASS),
  },
  {
    defect:
      'gives up on a lookup at the first lost answer or 5xx (a warning; not after a hang, its timeout was the wait)',
    client: fn('gives-up-on-lookup'),
    cases: ['resilience/vehicle-lookup/*'],
    expect: (cell) =>
      LOST.includes(cell.kind) && cell.kind !== 'hang' ? ['warning', ['resilience.bounded-retries']] : PASS,
  },
  {
    defect: 'gives up at the first 503 or 429 (a warning)',
    client: fn('gives-up-on-503'),
    cases: ['resilience/custodian-create/*'],
    expect: (cell) => (TOLD_TO_WAIT.includes(cell.kind) ? ['warning', ['resilience.retry-after']] : PASS),
  },
  {
    defect: 'has no request timeout (process): killed at the deadline',
    client: 'node test/conform/clients/defective.mjs no-timeout',
    cases: [
      'resilience/payment-create/hang/once',
      'resilience/payment-create/hang/always',
      'resilience/payment-create/reset/once',
    ],
    expect: (cell) => (cell.kind === 'hang' ? ['failed', ['client.completes', 'resilience.deadline']] : PASS),
    timeoutMs: 6000,
  },
]

describe('the resilience matrix', () => {
  it('has one cell per step, fault kind and mode', () => {
    expect(resilience.cases).toHaveLength(Object.keys(FAULT_STEPS).length * Object.keys(FAULT_KINDS).length * 2)
    expect(new Set(resilience.cases.map((kase) => kase.id)).size).toBe(resilience.cases.length)
  })

  it('titles say what the fault does at that step: a lookup is answered, only a creation is recorded first', () => {
    const title = (id: string) => resilience.cases.find((kase) => kase.id === id)!.title
    expect(title('resilience/company-lookup/server-error/once')).toBe(
      'GET /rental-companies answers 500 the first time',
    )
    expect(title('resilience/vehicle-lookup/hang/always')).toBe('GET /vehicles never answers every time')
    expect(title('resilience/vehicle-create/reset/once')).toBe(
      'POST /vehicles records it, then resets the connection the first time: never resend blind',
    )
    expect(title('resilience/payment-create/garbage/always')).toBe(
      "POST /payments records it, then answers a proxy's HTML page every time: never resend; report unknown",
    )
    for (const kase of resilience.cases) {
      if (kase.id.includes('-lookup/')) expect(kase.title, kase.id).not.toMatch(/record/)
      else if (LOST.includes(kase.cell!.kind)) expect(kase.title, kase.id).toMatch(/ records it, then /)
    }
  })

  it.concurrent(
    'the reference client passes every case and every cell, reaching an outcome each case lists',
    async () => {
      const result = await runConformance({ client: referenceClient, jobs: 40, requestTimeoutMs: REQUEST_TIMEOUT_MS })
      const notPassed = result.cases
        .filter((kase) => kase.status !== 'passed')
        .map(
          (kase) =>
            `${kase.id} ${kase.status}: ${kase.checks
              .filter((c) => c.status === 'failed' || c.status === 'warning')
              .map((c) => `${c.rule}: ${c.message}`)
              .join(' | ')}`,
        )
      expect(notPassed).toEqual([])
      for (const kase of result.cases)
        expect(kase.expectedOutcomes ?? [kase.expectedOutcome], kase.id).toContain(kase.report?.outcome)

      const matrix = toJsonReport(result).matrix!
      expect(matrix.cells).toHaveLength(resilience.cases.length)
      expect(matrix.cells.every((cell) => cell.status === 'passed')).toBe(true)
      const xml = toJUnitXml(result)
      expect(xml.match(/<testcase /g)).toHaveLength(result.cases.length)
      const page = toHtmlReport(result, { now: new Date(0) })
      expect(page).toContain('href="#case-resilience-payment-create-reset-once"')
      expect(page).toContain('fault <code>reset</code> once')
      let text = ''
      await createConsoleReporter({
        stream: { write: (chunk: string) => ((text += chunk), true), on: () => undefined } as never,
        color: false,
      }).onRunEnd!(result)
      expect(text).toContain('Resilience matrix')
      expect(text).toMatch(/payment-create\s+✓ ✓/)
    },
    120_000,
  )

  for (const item of broken) {
    it.concurrent(
      `a client that ${item.defect} fails (or warns in) exactly its cells`,
      async () => {
        const result = await runConformance({
          client: item.client,
          cases: item.cases,
          jobs: 40,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          timeoutMs: item.timeoutMs ?? 30_000,
        })
        const expected = Object.fromEntries(result.cases.map((kase) => [kase.id, item.expect(kase.cell!)]))
        expect(verdicts(result)).toEqual(expected)
        expect(Object.values(expected).some(([status]) => status !== 'passed')).toBe(true)
        for (const kase of result.cases) {
          for (const check of kase.checks.filter((c) => c.status === 'failed' || c.status === 'warning')) {
            expect(check.message).toMatch(/^Expected /)
            expect(check.message).toContain('(interface: ')
          }
        }
      },
      120_000,
    )
  }
})
