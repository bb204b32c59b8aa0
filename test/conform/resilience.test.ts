// The resilience suite on correct clients: one that stops at the failed call (the reference client,
// and the examples in examples.test.ts) reports rejected; one that retries the failed call once after
// the Retry-After reports paid. Both pass every rule; each reaches an outcome the suite lists.
import { describe, expect, it } from 'vitest'
import { cases } from '../../suites/index.js'
import resilience from '../../suites/resilience.js'
import { referenceClient } from '../../src/node/reference-client.js'
import { runConformance } from '../../src/node/runner.js'
import type { RunResult } from '../../src/core/rules/types.js'
import { retryingClient } from './clients/retrying.js'

function failures(result: RunResult): string[] {
  return result.cases.flatMap((kase) => kase.checks.filter((check) => check.status === 'failed').map((check) => `${kase.id} ${check.rule}: ${check.message}`))
}

const statusOf = (result: RunResult, id: string, rule: string) => result.cases.find((kase) => kase.id === id)?.checks.find((check) => check.rule === rule)?.status

describe('the resilience suite', () => {
  it('a client that retries the failed call once after Retry-After passes every case, and is paid in the resilience cases', async () => {
    const result = await runConformance({ client: retryingClient, jobs: 4 })
    expect(failures(result)).toEqual([])
    expect(result.cases.map((kase) => [kase.id, kase.report?.outcome])).toEqual(
      cases.map((kase) => [kase.id, kase.id.startsWith('resilience/') ? 'paid' : kase.outcome]),
    )
    for (const kase of resilience.cases) {
      expect(statusOf(result, kase.id, 'client.stops-on-failure')).toBe('passed')
      // The suite lists paid as a correct outcome where a retry succeeds.
      expect(kase.outcomes).toContain('paid')
    }
  })

  it('a client that stops at the failed call passes the resilience cases and reports rejected', async () => {
    const result = await runConformance({ client: referenceClient, cases: ['resilience/*'], jobs: 3 })
    expect(failures(result)).toEqual([])
    expect(result.cases.map((kase) => [kase.id, kase.report?.outcome, statusOf(result, kase.id, 'client.stops-on-failure')])).toEqual(
      resilience.cases.map((kase) => [kase.id, 'rejected', 'passed']),
    )
    // The results carry both outcomes, for the reports.
    expect(result.cases.map((kase) => kase.expectedOutcomes)).toEqual(resilience.cases.map(() => ['rejected', 'paid']))
  })
})
