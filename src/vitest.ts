// The vitest helper: each conformance case becomes one test, failing with the case's failure
// messages. The cases run once, in parallel, when the first test asks for the results.
import { describe, it } from 'vitest'
import type { CaseResult, RunResult } from './core/rules/types.js'
import { casePasses } from './core/rules/verdict.js'
import { plural } from './core/text.js'
import { RUN_DEFAULTS, type RunOptions } from './node/runner/options.js'
import { runConformance } from './node/runner/runner.js'
import { selectCases } from './node/runner/select.js'

export interface ConformanceTestOptions extends RunOptions {
  /** The describe block's name. Default `relay-mock conformance`. */
  name?: string
}

function failureOf(result: CaseResult): string {
  const lines = (status: string) =>
    result.checks.filter((check) => check.status === status).map((check) => `${check.rule}: ${check.message}`)
  const failed = lines('failed')
  if (failed.length > 0) return `${result.id} broke ${plural(failed.length, 'rule')}:\n${failed.join('\n')}`
  if (result.status === 'partial')
    return `${result.id} is partial (allowPartial accepts it): ${plural(lines('not-checked').length, 'rule')} not checked:\n${lines('not-checked').join('\n')}`
  if (result.status === 'warning') return `${result.id} warned (strict):\n${lines('warning').join('\n')}`
  return result.status === 'not-reached'
    ? `${result.id} was not reached: ${result.title}`
    : `${result.id} did not pass (${result.status})`
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
          // A cell whose faulted request the client never made judged nothing: never a pass.
          if (result.status === 'not-reached')
            throw new Error(`${kase.id} was not reached: the client never made the request this case's fault breaks.`)
          if (!casePasses(result.status, runOptions)) throw new Error(failureOf(result))
        },
        timeout,
      )
    }
  })
}
