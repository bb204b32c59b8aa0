// A variant case judged by its difference from the flow case it repeats. The same visit ran twice: under
// relay-mock's choice (the flow case) and under an alternative (the variant case). A defect the client has
// under any service shows in both; it is the flow case's to report, once. So where the flow case failed, the
// variant's failures of a fidelity rule's comparison, and of the rules that failed there too, are echoes: the
// same defect, named by the flow case and its rules, neither a pass nor a second failure. Where the flow case
// only warned and the client did the same in the variant (the same calls, the same report, the same outcome
// expected of it), such a fidelity failure carries the warning's grade: an echo where the variant warns by the
// same rule already (the flaw is told once), else a warning. What the alternative itself broke (a form the
// strict world refuses, a rule that held in the flow case) is judged as it stands.
import type { CaseResult, Check } from './types.js'
import { callSequence } from './facts/calls.js'
import { caseStatus, rulesWith } from './verdict.js'

/** What a variant case names of its flow case where it echoes it: the case, and the rules that failed there. */
export interface SameAs {
  /** The flow case the variant repeats, e.g. `advanced/new-vehicle`. */
  case: string
  /** The rules that failed there (or, with `warned`, that warned there and here). */
  rules: string[]
  /** The flow case only warned, and the variant warns by the same rules: the echo is of a warning. */
  warned?: true
}

const outcomesOf = (kase: Pick<CaseResult, 'expectedOutcome' | 'expectedOutcomes'>) =>
  [...(kase.expectedOutcomes ?? (kase.expectedOutcome ? [kase.expectedOutcome] : []))].sort().join(',')

/**
 * Whether the client did in the variant what it did in the flow case, where a correct client does the same
 * in both: the same calls, the same exit and report, the same outcomes expected.
 */
function sameVisit(variant: CaseResult, base: CaseResult): boolean {
  return (
    callSequence(variant.requests).join(', ') === callSequence(base.requests).join(', ') &&
    variant.exitCode === base.exitCode &&
    variant.timedOut === base.timedOut &&
    variant.report?.outcome === base.report?.outcome &&
    outcomesOf(variant) === outcomesOf(base)
  )
}

/** The one line an echo says in place of its rule's message. */
function sameAsLine(sameAs: SameAs): string {
  if (sameAs.warned)
    return `Same flaw as in ${sameAs.case}: ${sameAs.rules.join(', ')} warned there, under relay-mock's choice, and here; not a second finding.`
  return `Same defect as in ${sameAs.case}: ${sameAs.rules.join(', ')} failed there, under relay-mock's choice; not a second failure.`
}

/**
 * A variant case's result judged against the result of the flow case it repeats (`variant.of`): echoes of the
 * flow case's failures become `echo` checks (the case `echo` when nothing else failed), and a fidelity failure
 * where the flow case only warned and the client did the same is a warning. Where the flow case passed, or the
 * result is no variant of `base`, it is returned as it is.
 * @example judgeVariant(variantResult, baseResult).sameAs // { case: 'advanced/new-vehicle', rules: ['advanced.payment-body'] }
 */
export function judgeVariant(variant: CaseResult, base: CaseResult): CaseResult {
  if (variant.of !== base.id) return variant
  const failedThere = rulesWith([base], 'failed')
  if (failedThere.length > 0) {
    const sameAs: SameAs = { case: base.id, rules: failedThere }
    const echoes = (check: Check) =>
      check.status === 'failed' && (check.versusChoice === true || failedThere.includes(check.rule))
    return variant.checks.some(echoes) ? echoed(variant, echoes, sameAs) : variant
  }
  const warnedThere = rulesWith([base], 'warning')
  const carries = (check: Check) => check.status === 'failed' && check.versusChoice === true
  if (warnedThere.length === 0 || !variant.checks.some(carries) || !sameVisit(variant, base)) return variant
  const warnedHere = rulesWith([variant], 'warning').filter((rule) => warnedThere.includes(rule))
  if (warnedHere.length > 0) return echoed(variant, carries, { case: base.id, rules: warnedHere, warned: true })
  const grade = `A warning, as in ${base.id}, where the client did the same under relay-mock's choice and ${warnedThere.join(', ')} warned: the flaw is its own, not this alternative's. `
  return rejudged(
    variant,
    variant.checks.map((check) =>
      carries(check) ? { ...check, status: 'warning', message: `${grade}${check.message}` } : check,
    ),
  )
}

/**
 * Every variant case of a list judged against the flow case it repeats, where the list holds that case (a
 * captured run, `conform --from`); the others as they are.
 * @example judgeVariants(result.cases).filter((kase) => kase.status === 'echo')
 */
export function judgeVariants(cases: CaseResult[]): CaseResult[] {
  return cases.map((kase) => {
    const base = kase.of === undefined ? undefined : cases.find((other) => other.id === kase.of)
    return base ? judgeVariant(kase, base) : kase
  })
}

/** The variant with the checks `echoes` picks as echoes of `sameAs`. */
function echoed(variant: CaseResult, echoes: (check: Check) => boolean, sameAs: SameAs): CaseResult {
  return rejudged(
    variant,
    variant.checks.map((check) =>
      echoes(check) ? { ...check, status: 'echo', message: sameAsLine(sameAs), echoed: check.message } : check,
    ),
    sameAs,
  )
}

/** The variant with its checks judged again, and its status from them (a run of `--repeat` keeps its counts). */
function rejudged(variant: CaseResult, checks: Check[], sameAs?: SameAs): CaseResult {
  const status = variant.status === 'failed' || variant.status === 'flaky' ? caseStatus(checks) : variant.status
  return {
    ...variant,
    checks,
    status: variant.status === 'flaky' && status === 'failed' ? 'flaky' : status,
    ...(sameAs ? { sameAs } : {}),
  }
}
