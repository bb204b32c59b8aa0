// The transient 503 cells on correct clients: one that retries after Retry-After is paid and passes;
// one that stops at once is safe (rejected, no rule fails) but could have ridden the failure out, so
// each of those cells is a warning, never a failure. Both are outcomes the cells list.
import { describe, expect, it } from 'vitest'
import { createReferenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { retryingClient } from './clients/retrying.js'

const CELLS = [
  'resilience/company-lookup/unavailable/once',
  'resilience/vehicle-create/unavailable/once',
  'resilience/custodian-create/unavailable/once',
  'resilience/payment-create/unavailable/once',
  'resilience/simple-payment/unavailable/once',
]

describe('the transient 503 cells', () => {
  it.concurrent('a client that retries once after Retry-After passes and is paid', async () => {
    const result = await runConformance({ client: retryingClient, cases: CELLS, jobs: CELLS.length })
    expect(result.cases.map((kase) => [kase.id, kase.status, kase.report?.outcome])).toEqual(
      CELLS.map((id) => [id, 'passed', 'paid']),
    )
    expect(result.summary).toMatchObject({ failed: 0, warning: 0 })
  })

  it.concurrent(
    'a client that stops at the first 503 is safe: rejected, a warning from resilience.retry-after, no failure',
    async () => {
      const result = await runConformance({
        client: createReferenceClient({ retries: 0 }),
        cases: CELLS,
        jobs: CELLS.length,
      })
      expect(result.cases.map((kase) => [kase.id, kase.status, kase.report?.outcome])).toEqual(
        CELLS.map((id) => [id, 'warning', 'rejected']),
      )
      for (const kase of result.cases) {
        expect(kase.checks.filter((check) => check.status === 'warning').map((check) => check.rule)).toEqual([
          'resilience.retry-after',
        ])
        expect(kase.expectedOutcomes).toEqual(['paid', 'rejected'])
      }
      expect(result.summary).toMatchObject({ failed: 0, warning: CELLS.length })
    },
  )
})
