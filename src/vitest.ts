// The vitest helper: each conformance case becomes one test, failing with the case's failure
// messages. The cases run once, in parallel, when the first test asks for the results.
import { describe, it } from 'vitest'
import type { CaseResult, RunResult } from './core/rules/types.js'
import { RUN_DEFAULTS, runConformance, selectCases, type RunOptions } from './node/runner.js'

export interface ConformanceTestOptions extends RunOptions {
  /** The describe block's name. Default `relay-mock conformance`. */
  name?: string
}

function failureOf(result: CaseResult): string {
  const lines = result.checks.filter((check) => check.status === 'failed').map((check) => `${check.rule}: ${check.message}`)
  return `${result.id} broke ${lines.length} rule${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}`
}

/**
 * Registers one vitest test per conformance case, for a client function or a command.
 * @example
 * // client.conform.test.ts
 * import { defineConformanceTests } from 'relay-mock/vitest'
 * defineConformanceTests({ client: async (visit, env) => myClient.report(visit, env), flows: ['simple'] })
 */
export function defineConformanceTests(options: ConformanceTestOptions): void {
  const { name = 'relay-mock conformance', ...runOptions } = options
  const cases = selectCases(runOptions)
  let run: Promise<RunResult> | undefined
  const results = () => (run ??= runConformance(runOptions))
  // Every test may wait for the whole run (they share it), so each gets the whole run's worst case.
  const jobs = runOptions.jobs ?? RUN_DEFAULTS.jobs()
  const timeout = Math.ceil(cases.length / jobs) * ((runOptions.timeoutMs ?? RUN_DEFAULTS.timeoutMs) + 5_000)

  describe(name, () => {
    for (const kase of cases) {
      it(
        `${kase.id}: ${kase.title}`,
        async () => {
          const result = (await results()).cases.find((r) => r.id === kase.id)
          if (!result) throw new Error(`The run has no result for ${kase.id}.`)
          if (result.status === 'failed') throw new Error(failureOf(result))
          // A cell whose faulted request the client never made judged nothing: never a pass.
          if (result.status === 'not-reached') throw new Error(`${kase.id} was not reached: the client never made the request this case's fault breaks.`)
        },
        timeout,
      )
    }
  })
}
