// The variant cases as data, beside the resilience matrix: for each assumption of the ledger that the
// run varied, whether the client held under every alternative it met. Every reporter (console, JSON,
// JUnit, HTML) reads this one summary.
import { assumption } from '../ledger/assumptions.js'
import type { CaseResult, CaseStatus } from './types.js'

export interface HeldAlternative {
  /** The alternative's id, e.g. `200-no-location`. */
  id: string
  /** The worst status of its cases (failed, flaky, not-reached, partial, warning, passed, in that order). */
  status: CaseStatus
  /** The variant cases that ran under it. */
  caseIds: string[]
}

export interface HeldAssumption {
  /** The assumption's id, e.g. `create.status`. */
  assumption: string
  question: string
  /** True when every case of every alternative passed (a warning counts as passing). */
  held: boolean
  alternatives: HeldAlternative[]
}

const WORST: CaseStatus[] = ['failed', 'flaky', 'not-reached', 'partial', 'warning', 'passed']

/**
 * For each assumption the run varied, its alternatives and whether the client held; undefined when no case varied one.
 * @example toHeld(result.cases)?.filter((entry) => !entry.held).map((entry) => entry.assumption)
 */
export function toHeld(cases: ReadonlyArray<CaseResult>): HeldAssumption[] | undefined {
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
      held: entries.every((entry) => entry.status === 'passed' || entry.status === 'warning'),
      alternatives: entries,
    }
  })
}
