// Verdicts: a case's status from its checks, and a run's counts and pass/fail from its cases. One
// place, so the runner, a checked capture, the live page and every report agree on what "passed" means.
import { FAULT_STEPS } from '../service/faults.js'
import type { JournalEntry } from '../service/journal.js'
import type { CaseCounts, CaseStatus, Check, CheckStatus, MatrixCell } from './types.js'

/** How strictly a run is judged: `--allow-partial` and `--strict`. */
export interface VerdictPolicy {
  /** A partial case (a rule not checked for a missing input) does not fail the run. Default false. */
  allowPartial?: boolean
  /** A warning fails the run. Default false. */
  strict?: boolean
}

/**
 * A case's status from its checks: failed > not-reached > partial (a rule not checked) > warning > echo (a
 * variant's findings, each the same as the flow case's it repeats: echoes.ts) > passed.
 * `not-reached` needs the case's matrix cell and requests: the flow never made the request the cell's
 * fault breaks, so nothing the case exists to check was seen (never a pass).
 * @example caseStatus([{ rule: 'client.completes', status: 'not-checked', message: '...' }]) // 'partial'
 * @example caseStatus(checks, requests, { step: 'payment-create', kind: 'reset', mode: 'once' })
 */
export function caseStatus(checks: ReadonlyArray<Pick<Check, 'status'>>): Exclude<CaseStatus, 'not-reached' | 'flaky'>
export function caseStatus(
  checks: ReadonlyArray<Pick<Check, 'status'>>,
  requests: ReadonlyArray<Pick<JournalEntry, 'route'>>,
  cell: MatrixCell | undefined,
): Exclude<CaseStatus, 'flaky'>
export function caseStatus(
  checks: ReadonlyArray<Pick<Check, 'status'>>,
  requests?: ReadonlyArray<Pick<JournalEntry, 'route'>>,
  cell?: MatrixCell,
): Exclude<CaseStatus, 'flaky'> {
  const has = (status: CheckStatus) => checks.some((check) => check.status === status)
  if (has('failed')) return 'failed'
  if (cell && requests && !requests.some((entry) => entry.route === FAULT_STEPS[cell.step])) return 'not-reached'
  if (has('not-checked')) return 'partial'
  if (has('warning')) return 'warning'
  if (has('echo')) return 'echo'
  return 'passed'
}

/**
 * True when a case with this status lets the run pass under `policy`. An `echo` does: the flow case it echoes
 * fails the run, once.
 * @example casePasses('partial', { allowPartial: true }) // true
 */
export function casePasses(status: CaseStatus, policy: VerdictPolicy = {}): boolean {
  if (status === 'passed' || status === 'echo') return true
  if (status === 'warning') return !policy.strict
  if (status === 'partial') return Boolean(policy.allowPartial)
  return false
}

/**
 * The rules whose checks ended `status` in any of `cases`, each once, in the order first met.
 * @example rulesWith([kase], 'failed') // ['advanced.payment-body']
 */
export function rulesWith(cases: ReadonlyArray<{ checks: ReadonlyArray<Check> }>, status: CheckStatus): string[] {
  return [
    ...new Set(
      cases.flatMap((kase) => kase.checks.filter((check) => check.status === status).map((check) => check.rule)),
    ),
  ]
}

/**
 * How many cases ended each way, which rules failed, were not checked or warned, and whether the run passes.
 * @example countCases(result.cases, { allowPartial: true }).conformant
 */
export function countCases(
  cases: ReadonlyArray<{ status: CaseStatus; checks: ReadonlyArray<Check> }>,
  policy: VerdictPolicy = {},
): CaseCounts {
  const count = (status: CaseStatus) => cases.filter((kase) => kase.status === status).length
  const rules = (status: CheckStatus) => rulesWith(cases, status)
  return {
    total: cases.length,
    passed: count('passed'),
    warning: count('warning'),
    partial: count('partial'),
    failed: count('failed'),
    echo: count('echo'),
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
