// The correct clients pass every case of both flows: the three examples (real processes, three
// languages) and the in-process reference client. Each reaches an outcome its suite says a correct
// client reaches. The fault matrix runs the reference client in matrix.test.ts; a whole matrix per
// example (108 cells, hung requests ending at the client's timeout) is a conform run of its own.
import { describe, expect, it } from 'vitest'
import advanced from '../../suites/advanced.js'
import simple from '../../suites/simple.js'
import { referenceClient } from '../../src/node/reference-client.js'
import { runConformance } from '../../src/node/runner.js'
import type { RunResult } from '../../src/core/rules/types.js'

const cases = [...advanced.cases, ...simple.cases]

function failures(result: RunResult): string[] {
  return result.cases.flatMap((kase) => kase.checks.filter((check) => check.status === 'failed').map((check) => `${kase.id} ${check.rule}: ${check.message}`))
}

const examples = [
  { name: 'shell (bash, curl, jq)', command: 'bash examples/clients/shell/client.sh' },
  { name: 'Python (standard library)', command: 'python3 examples/clients/python/client.py' },
  // Built by `npm run build` (npm test builds first).
  { name: 'TypeScript (ky)', command: 'node dist/examples/clients/typescript/client.js' },
]

describe('the example clients', () => {
  for (const example of examples) {
    it.concurrent(`the ${example.name} client passes every case of both flows`, async () => {
      const result = await runConformance({ client: example.command, suites: ['advanced', 'simple'], jobs: 2 })
      expect(failures(result)).toEqual([])
      expect(result.summary).toMatchObject({ total: cases.length, passed: cases.length, failed: 0, rulesBroken: [] })
      expect(result.cases.map((kase) => [kase.id, kase.report?.outcome])).toEqual(cases.map((kase) => [kase.id, kase.outcome]))
    }, 120_000)
  }
})

describe('the reference client', () => {
  it('passes every case of both flows in-process and reaches each suite outcome', async () => {
    const result = await runConformance({ client: referenceClient, suites: ['advanced', 'simple'], jobs: 4 })
    expect(failures(result)).toEqual([])
    expect(result.cases.map((kase) => [kase.id, kase.report?.outcome])).toEqual(cases.map((kase) => [kase.id, kase.outcome]))
  })
})
