// The JUnit XML reporter: one testcase per case, so one per matrix cell (classname = flow, name = case
// id); a failed case's failure message names each failed rule and its explanation; a case that never
// reached its faulted request fails saying so; warnings pass with a note in system-out, as do skipped rules.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import junitModule, { type Builder } from 'junit-report-builder'
import type { Reporter, RunResult } from '../../core/rules/types.js'

// The package is CommonJS typed as an ES default export: take whichever the loader hands us.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder

/**
 * The run as JUnit XML (pure).
 * @example writeFileSync('conform.xml', toJUnitXml(result))
 */
export function toJUnitXml(result: RunResult): string {
  const builder = junit.newBuilder()
  for (const flow of result.summary.flows) {
    const suite = builder.testSuite().name(`relay-mock conform: ${flow}`).timestamp(result.summary.startedAt)
    for (const kase of result.cases.filter((k) => k.flow === flow)) {
      const test = suite.testCase().className(flow).name(kase.id).time(kase.durationMs / 1000)
      const failed = kase.checks.filter((check) => check.status === 'failed')
      const skipped = kase.checks.filter((check) => check.status === 'skipped')
      const warned = kase.checks.filter((check) => check.status === 'warning')
      if (failed.length > 0) {
        const lines = failed.map((check) => `${check.rule}: ${check.message}`)
        test.failure(lines.join('\n'), 'conformance')
        test.stacktrace(lines.join('\n\n'))
      } else if (kase.status === 'not-reached') {
        test.failure("Not reached: the client never made the request this case's fault breaks, so nothing about it was judged.", 'not-reached')
      }
      const out = [
        `${kase.title} (scenario ${kase.scenario}; exit ${kase.exitCode ?? kase.signal ?? 'none'}${kase.timedOut ? ', timed out' : ''})`,
        ...(warned.length > 0 ? ['Warnings (safe, but not the best a client can do):', ...warned.map((check) => `  ${check.rule}: ${check.message}`)] : []),
        ...(skipped.length > 0 ? ['Skipped rules:', ...skipped.map((check) => `  ${check.rule}: ${check.message}`)] : []),
        ...(kase.stdout.trim() ? ['Client stdout:', kase.stdout.trimEnd()] : []),
      ]
      test.standardOutput(out.join('\n'))
      if (kase.stderr.trim()) test.standardError(kase.stderr.trimEnd())
    }
  }
  return builder.build()
}

/**
 * Writes the run to `file` as JUnit XML when it ends.
 * @example runConformance({ client, reporters: [createJunitReporter({ file: 'conform.xml' })] })
 */
export function createJunitReporter({ file }: { file: string }): Reporter {
  return {
    async onRunEnd(result) {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, toJUnitXml(result))
    },
  }
}
