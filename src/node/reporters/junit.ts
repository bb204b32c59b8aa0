// The JUnit XML reporter: one testcase per case, so one per resilience matrix cell (classname = flow,
// name = case id). A failed case is a <failure> naming each failed rule and its explanation. A partial
// case (a rule not checked for a missing input) is a <failure type="partial"> too, unless the run
// allows partial cases (--allow-partial): then it is <skipped message="not checked: ..."/>, never a
// pass. A case not reached is a <failure type="not-reached">; a warning passes with a note in
// system-out, and is a <failure type="warning"> only under --strict. A variant case that only echoes the
// failure of the flow case it repeats is <skipped message="same defect as in …"/>: neither a pass nor a
// second failure. system-out lists the rules not checked, the warnings, the echoes and the rules that did not apply.
import { describeSettled, toHeld } from '../../core/rules/held.js'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import junitModule, { type Builder } from 'junit-report-builder'
import type { CaseResult, Check, Reporter, RunResult } from '../../core/rules/types.js'
import { capitalize } from '../../core/text.js'
import { lateWords } from './time.js'

// The package is CommonJS typed as an ES default export: take whichever the loader hands us.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder

const line = (check: Check) => `${check.rule}: ${check.message}`

/** `&`, `<`, `"` and line breaks as an XML attribute value holds them. */
function attribute(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
}

/**
 * The run as JUnit XML (pure).
 * @example writeFileSync('conform.xml', toJUnitXml(result))
 */
export function toJUnitXml(result: RunResult): string {
  const builder = junit.newBuilder()
  const { allowPartial, strict } = result.summary
  // junit-report-builder writes <skipped/> without a message: the reasons are filled in, in order, below.
  const skippedReasons: string[] = []
  for (const flow of result.summary.flows) {
    const suite = builder.testSuite().name(`relay-mock conform: ${flow}`).timestamp(result.summary.startedAt)
    // For each assumption the flow's variant cases varied: whether the client held under every alternative.
    // In a calibrated run, each assumption the service's answers settled, with what it answered.
    for (const entry of toHeld(
      result.cases.filter((k) => k.flow === flow),
      result.summary.calibration,
    ) ?? []) {
      const failedUnder = entry.alternatives
        .filter((alternative) => alternative.status !== 'passed' && alternative.status !== 'warning')
        .map((alternative) => alternative.id)
      if (entry.alternatives.length > 0)
        suite.property(
          `relay-mock.assumption.${entry.assumption}`,
          entry.held ? 'held' : `did not hold under ${failedUnder.join(', ')}`,
        )
      if (entry.settled) suite.property(`relay-mock.calibration.${entry.assumption}`, describeSettled(entry.settled))
    }
    for (const kase of result.cases.filter((k) => k.flow === flow)) {
      const test = suite
        .testCase()
        .className(flow)
        .name(kase.id)
        .time(kase.durationMs / 1000)
      // A variant case says which alternative of the ledger its world answered under (the summary's table is the console's and HTML's).
      for (const [id, alternative] of Object.entries(kase.variants ?? {}))
        test.property('relay-mock.variant', `${id}=${alternative}`)
      const of = (status: Check['status']) => kase.checks.filter((check) => check.status === status)
      const failed = of('failed')
      const unchecked = of('not-checked')
      const warned = of('warning')
      const verdict = failure(kase, failed, unchecked, warned, { allowPartial, strict })
      if (verdict) {
        test.failure(verdict.message, verdict.type)
        test.stacktrace(verdict.lines.join('\n\n'))
      } else if (kase.status === 'partial') {
        test.skipped()
        skippedReasons.push(`not checked: ${unchecked.map(line).join('\n')}`)
      } else if (kase.status === 'echo' && kase.sameAs) {
        test.skipped()
        skippedReasons.push(`same defect as in ${kase.sameAs.case}: ${kase.sameAs.rules.join(', ')} failed there`)
      }
      const out = [
        `${kase.title} (scenario ${kase.scenario}; exit ${kase.exitCode ?? kase.signal ?? 'none'}${kase.timedOut ? ', timed out' : ''}; ${kase.status})`,
        ...(kase.late ? [capitalize(lateWords(kase.late, kase.id))] : []),
        ...(unchecked.length > 0
          ? ['Rules not checked (an input was missing):', ...unchecked.map((check) => `  ${line(check)}`)]
          : []),
        ...(warned.length > 0 ? ['Warnings:', ...warned.map((check) => `  ${line(check)}`)] : []),
        ...(of('echo').length > 0
          ? [
              'The same defect as in the flow case (not failed again):',
              ...of('echo').map((check) => `  ${check.rule}: ${check.echoed ?? check.message}`),
            ]
          : []),
        ...(of('skipped').length > 0
          ? ['Rules that did not apply:', ...of('skipped').map((check) => `  ${line(check)}`)]
          : []),
        ...(kase.stdout.trim() ? ['Client stdout:', kase.stdout.trimEnd()] : []),
      ]
      test.standardOutput(out.join('\n'))
      if (kase.stderr.trim()) test.standardError(kase.stderr.trimEnd())
    }
  }
  let next = 0
  // Only outside CDATA: a client's output (system-out) may hold the same text.
  return builder
    .build()
    .replace(/(<!\[CDATA\[[\s\S]*?\]\]>)|<skipped\/>/g, (_match, cdata: string | undefined) =>
      cdata !== undefined ? cdata : `<skipped message="${attribute(skippedReasons[next++] ?? 'not checked')}"/>`,
    )
}

/** Why a case fails the JUnit run, if it does: its failed rules; else its partial, not-reached or (strict) warning verdict. */
function failure(
  kase: CaseResult,
  failed: Check[],
  unchecked: Check[],
  warned: Check[],
  policy: { allowPartial: boolean; strict: boolean },
): { message: string; type: string; lines: string[] } | undefined {
  if (failed.length > 0) return { message: failed.map(line).join('\n'), type: 'conformance', lines: failed.map(line) }
  if (kase.status === 'not-reached') {
    const why =
      "Not reached: the client never made the request this case's fault breaks, so nothing about it was judged."
    return { message: why, type: 'not-reached', lines: [why, kase.title] }
  }
  if (kase.status === 'partial' && !policy.allowPartial) {
    const lines = unchecked.map(line)
    return { message: `not checked (partial; --allow-partial accepts it): ${lines.join('\n')}`, type: 'partial', lines }
  }
  if (kase.status === 'warning' && policy.strict)
    return { message: `warning (--strict): ${warned.map(line).join('\n')}`, type: 'warning', lines: warned.map(line) }
  return undefined
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
