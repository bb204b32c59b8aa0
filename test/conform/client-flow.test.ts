// The test clients' one flow (src/node/reference-client/client-flow.ts), where the rules leave the client a choice: the
// resilience suite allows `rejected` or `paid` when a vehicle's creation was lost, and the flow, which
// looks before creating again, looks first and reaches `paid`. The quirky client runs the same flow.
import { describe, expect, it } from 'vitest'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { createQuirkyClient } from './clients/quirky.js'

const CASES = ['resilience/vehicle-create/reset/once', 'resilience/vehicle-create/server-error/once']

describe('the flow of the test clients', () => {
  it.each([
    ['the reference client', referenceClient],
    ['the quirky client', createQuirkyClient({ shuffle: true })],
  ] as Array<[string, ClientFunction]>)(
    '%s looks a vehicle up after its creation was lost, before it creates it again, and pays',
    async (_name, client) => {
      const result = await runConformance({ client, cases: CASES, suites: ['resilience'], jobs: 2 })
      for (const kase of result.cases) {
        expect(kase.report?.outcome, kase.id).toBe('paid')
        const routes = kase.requests.map((entry) => entry.route)
        expect(routes.slice(routes.indexOf('POST /vehicles'), routes.indexOf('POST /vehicles') + 2), kase.id).toEqual([
          'POST /vehicles',
          'GET /vehicles',
        ])
        expect(kase.status, kase.id).toBe('passed')
      }
      expect(result.cases.map((kase) => kase.id).sort()).toEqual(CASES)
    },
  )
})
