// The variant cases as data, beside the resilience matrix: for each assumption of the ledger that the
// run varied, whether the client held under every alternative it met, and, in a calibrated run, each
// assumption the real service's answers settled, with what it answered. Every reporter (console, JSON,
// JUnit, HTML) reads this one summary.
import { assumption, ASSUMPTIONS } from '../ledger/assumptions.js'
import type { CaseResult, CaseStatus, RunCalibration, SettledInRun } from './types.js'
import { casePasses } from './verdict.js'

export interface HeldAlternative {
  /** The alternative's id, e.g. `200-no-location`. */
  id: string
  /** The worst status of its cases (failed, flaky, not-reached, partial, warning, echo, passed, in that order). */
  status: CaseStatus
  /** The variant cases that ran under it. */
  caseIds: string[]
}

export interface HeldAssumption {
  /** The assumption's id, e.g. `create.status`. */
  assumption: string
  question: string
  /**
   * True when every case of every alternative passed (a warning counts as passing, and so does an echo: the
   * client failed the same visit under relay-mock's choice, and the alternative changed nothing).
   */
  held: boolean
  /** The variant cases that ran under each alternative: none for an assumption the calibration settled and the run no longer varied. */
  alternatives: HeldAlternative[]
  /** In a calibrated run: what the real service answered, when its answers settled this assumption. */
  settled?: Omit<SettledInRun, 'assumption'>
}

const WORST: CaseStatus[] = ['failed', 'flaky', 'not-reached', 'partial', 'warning', 'echo', 'passed']

/**
 * For each assumption the run varied, its alternatives and whether the client held, and each one a
 * calibration settled (in the ledger's order); undefined when there is neither.
 * @example toHeld(result.cases, result.summary.calibration)?.filter((entry) => !entry.held).map((entry) => entry.assumption)
 */
export function toHeld(cases: ReadonlyArray<CaseResult>, calibration?: RunCalibration): HeldAssumption[] | undefined {
  const varied = variedHeld(cases) ?? []
  const settled = new Map((calibration?.settled ?? []).map(({ assumption: id, ...rest }) => [id, rest]))
  if (settled.size === 0) return varied.length > 0 ? varied : undefined
  const rows = new Map(varied.map((entry) => [entry.assumption, entry]))
  for (const [id, answer] of settled) {
    const row = rows.get(id) ?? {
      assumption: id,
      question: assumption(id)?.question ?? '',
      held: true,
      alternatives: [],
    }
    rows.set(id, { ...row, settled: answer })
  }
  const order = (id: string) => ASSUMPTIONS.findIndex((entry) => entry.id === id)
  return [...rows.values()].sort((a, b) => order(a.assumption) - order(b.assumption))
}

function variedHeld(cases: ReadonlyArray<CaseResult>): HeldAssumption[] | undefined {
  const byAssumption = new Map<string, Map<string, CaseResult[]>>()
  for (const kase of cases) {
    for (const [id, alternative] of Object.entries(kase.variants ?? {})) {
      const alternatives = byAssumption.get(id) ?? new Map<string, CaseResult[]>()
      alternatives.set(alternative, [...(alternatives.get(alternative) ?? []), kase])
      byAssumption.set(id, alternatives)
    }
  }
  if (byAssumption.size === 0) return undefined
  return [...byAssumption].map(([id, alternatives]) => {
    const entries = [...alternatives].map(([alternative, ran]) => ({
      id: alternative,
      status: WORST.find((status) => ran.some((kase) => kase.status === status)) ?? 'passed',
      caseIds: ran.map((kase) => kase.id),
    }))
    return {
      assumption: id,
      question: assumption(id)?.question ?? '',
      // Held: passed under the default grading (a warning, or an echo of the flow case's own defect).
      held: entries.every((entry) => casePasses(entry.status)),
      alternatives: entries,
    }
  })
}

/**
 * What a calibration settled of an assumption, in words, for every report's table of assumptions.
 * @example describeSettled({ status: 'contradicted', answered: '201 without Location', alternative: '201-no-location', served: true }) // 'settled by the calibration: the service answered 201 without Location (201-no-location); the run answered so'
 */
export function describeSettled(settled: Omit<SettledInRun, 'assumption'>): string {
  const answered = `settled by the calibration: the service answered ${settled.answered}${settled.alternative ? ` (${settled.alternative})` : ''}`
  if (settled.status === 'confirmed') return `${answered}, as relay-mock chose`
  return `${answered}; ${settled.served ? 'the run answered so' : "the run kept relay-mock's choice (calibration does not learn this one)"}`
}
