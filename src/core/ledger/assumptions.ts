// The assumption ledger: every choice relay-mock makes where the interface is silent or inconsistent,
// declared once. The README's "What the interface leaves open" table, `relay-mock assumptions`, the
// OpenAPI documents' `x-relay-assumption`, the variants a world can be served under and the `fidelity`
// rules are all read from this table. Ids are stable: tools and other people's code name them.
// The declarations themselves live in assumptions/: how the service answers (answers.ts), then the forms
// of values and requests (forms.ts).
import { ANSWERS } from './assumptions/answers.js'
import { FORMS } from './assumptions/forms.js'
import type { Assumption } from './assumptions/types.js'

export type { Alternative, Assumption } from './assumptions/types.js'

const TABLE = [...ANSWERS, ...FORMS] as const satisfies readonly Assumption[]

/** Every assumption relay-mock makes, in the order of the README's table. */
export const ASSUMPTIONS: readonly Assumption[] = TABLE

/** The id of an assumption in the ledger. */
export type AssumptionId = (typeof TABLE)[number]['id']

const byId = new Map<string, Assumption>(ASSUMPTIONS.map((entry) => [entry.id, entry]))

/**
 * The assumption with this id, if the ledger has it.
 * @example assumption('create.status')?.alternatives.map((a) => a.id) // ['200-no-location', '201-no-location']
 */
export function assumption(id: string): Assumption | undefined {
  return byId.get(id)
}

/**
 * The interface's clauses an assumption cites, without their quotations: each `§`-part of its `interface`
 * up to its first colon.
 * @example clauses('auth.scheme') // ['§5 Authentication, rule 1']
 */
export function clauses(id: string): string[] {
  const cited = byId.get(id)?.interface ?? ''
  return cited
    .split('; ')
    .filter((part) => part.startsWith('§'))
    .map((part) => part.split(':')[0].trim())
}
