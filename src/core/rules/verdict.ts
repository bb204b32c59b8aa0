// Verdicts: a case's status from its checks, and a run's counts and pass/fail from its cases. One
// place, so the runner, a checked capture, the live page and every report agree on what "passed" means.
import type { CaseCounts, CaseStatus, Check, CheckStatus } from './types.js'

/** How strictly a run is judged: `--allow-partial` and `--strict`. */
export interface VerdictPolicy {
  /** A partial case (a rule not checked for a missing input) does not fail the run. Default false. */
  allowPartial?: boolean
  /** A warning fails the run. Default false. */
  strict?: boolean
}

/**
 * A case's status from its checks: failed > partial (a rule not checked) > warning > passed.
 * @example caseStatus([{ rule: 'client.completes', status: 'not-checked', message: '...' }]) // 'partial'
 */
export function caseStatus(checks: ReadonlyArray<Pick<Check, 'status'>>): Exclude<CaseStatus, 'not-reached' | 'flaky'> {
  const has = (status: CheckStatus) => checks.some((check) => check.status === status)
  if (has('failed')) return 'failed'
  if (has('not-checked')) return 'partial'
  if (has('warning')) return 'warning'
  return 'passed'
}

/**
 * True when a case with this status lets the run pass under `policy`.
 * @example casePasses('partial', { allowPartial: true }) // true
 */
export function casePasses(status: CaseStatus, policy: VerdictPolicy = {}): boolean {
  if (status === 'passed') return true
  if (status === 'warning') return !policy.strict
  if (status === 'partial') return Boolean(policy.allowPartial)
  return false
}

/**
 * How many cases ended each way, which rules failed, were not checked or warned, and whether the run passes.
 * @example countCases(result.cases, { allowPartial: true }).conformant
 */
export function countCases(cases: ReadonlyArray<{ status: CaseStatus; checks: ReadonlyArray<Check> }>, policy: VerdictPolicy = {}): CaseCounts {
  const count = (status: CaseStatus) => cases.filter((kase) => kase.status === status).length
  const rules = (status: CheckStatus) => [...new Set(cases.flatMap((kase) => kase.checks.filter((check) => check.status === status).map((check) => check.rule)))]
  return {
    total: cases.length,
    passed: count('passed'),
    warning: count('warning'),
    partial: count('partial'),
    failed: count('failed'),
    notReached: count('not-reached'),
    flaky: count('flaky'),
    rulesBroken: rules('failed'),
    rulesNotChecked: rules('not-checked'),
    rulesWarned: rules('warning'),
    allowPartial: Boolean(policy.allowPartial),
    strict: Boolean(policy.strict),
    conformant: cases.length > 0 && cases.every((kase) => casePasses(kase.status, policy)),
  }
}
