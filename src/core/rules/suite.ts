// Suites: the conformance cases as data. A case names a flow, a scenario (the state of the world),
// optional changes to the scenario's visit, and the outcome a correct client reaches (or the
// outcomes, when a correct client may reach more than one).
import type { ArmedFault } from '../service/faults.js'
import type { Visit } from '../service/scenario.js'
import type { Flow, MatrixCell, Outcome } from './types.js'

export type { MatrixCell } from './types.js'

/** One conformance case: a fresh world of `scenario`, one run of the client, every rule of `flow`. */
export interface ConformanceCase {
  /** `<flow>/<what it exercises>`, e.g. `advanced/new-vehicle`: stable, public. */
  id: string
  flow: Flow
  /** The scenario the case's world is seeded from (see `relay-mock scenarios`). */
  scenario: string
  /** One line: what the case exercises. */
  title: string
  /** Changes to the scenario's visit, e.g. an end equal to the start. */
  visit?: Partial<Visit>
  /** The outcome a correct client reaches: `paid`, `skipped` (owner not in the service) or `rejected` (the service refused). */
  outcome: Outcome
  /**
   * Every outcome a correct client may reach, when there is more than one (default `[outcome]`): where a
   * call fails, a client that stops reports `rejected` and one that retries and succeeds `paid`.
   */
  outcomes?: Outcome[]
  /** Faults armed on the case's world (on top of its scenario's). */
  faults?: ArmedFault[]
  /** The matrix cell the case is (its faults break that step), when it is one. */
  cell?: MatrixCell
  /**
   * The alternatives of the assumption ledger the case's world is served under (the suite `variants`),
   * e.g. `{ 'create.status': '200-no-location' }`: the rule `fidelity.<assumption>` judges the client there.
   */
  variants?: Readonly<Record<string, string>>
  /**
   * For a variant case: the id of the flow case it repeats (the same world, visit and faults under relay-mock's
   * choice). A run that selects the variant runs that case too, and judges the variant against it.
   */
  of?: string
}

export interface Suite {
  name: string
  description: string
  cases: ConformanceCase[]
}

/**
 * Names a suite of cases (one file per suite in `suites/`).
 * @example
 * export default defineSuite({ name: 'simple', description: '...', cases: [
 *   { id: 'simple/accepted', flow: 'simple', scenario: 'existing-vehicle', title: '...', outcome: 'paid' },
 * ] })
 */
export function defineSuite(suite: Suite): Suite {
  for (const kase of suite.cases) {
    // A suite of its own theme (resilience) names its cases after itself; the others after their flow.
    if (!kase.id.startsWith(`${kase.flow}/`) && !kase.id.startsWith(`${suite.name}/`)) {
      throw new Error(
        `Failed to define the suite ${suite.name}: the case ${kase.id} must start with "${kase.flow}/" or "${suite.name}/".`,
      )
    }
    if (kase.outcomes && !kase.outcomes.includes(kase.outcome)) {
      throw new Error(
        `Failed to define the suite ${suite.name}: the case ${kase.id} lists outcomes ${kase.outcomes.join(', ')} without its outcome ${kase.outcome}. Please add it.`,
      )
    }
  }
  return suite
}
