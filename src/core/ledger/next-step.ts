// What to run once a real service made an alternative to an assumption: the variant cases of `conform`,
// or a world served under it, or why there is nothing to run.
import { ASSUMPTIONS } from './assumptions.js'
import { NOT_VARIED_IN_CONFORM, STRICT, STRICT_VARIANTS, VARIED_ASSUMPTIONS } from '../service/variants.js'
import type { NextStep } from './standing.js'

/**
 * The next step for an assumption the service contradicted with `alternative`: each command names
 * cases that exist, or serves a variant that exists, so that it runs as written.
 * @example nextStep('invalid.status', '400').command // 'relay-mock serve --variant invalid.status=400'
 */
export function nextStep(assumptionId: string, alternative: string | null): NextStep {
  const entry = ASSUMPTIONS.find((a) => a.id === assumptionId)
  const known = alternative === null ? undefined : entry?.alternatives.find((a) => a.id === alternative)
  const base = { alternative: known?.id ?? null, answer: known?.answer ?? null }
  // An alternative relay-mock serves no variant of has no cases to run: the ledger says why.
  if (known?.notServed) return { ...base, cases: null, command: null, notServed: known.notServed }
  const notVaried = NOT_VARIED_IN_CONFORM[assumptionId]
  if (notVaried !== undefined && known)
    return { ...base, cases: null, command: `relay-mock serve --variant ${assumptionId}=${known.id}`, notVaried }
  if (!VARIED_ASSUMPTIONS.includes(assumptionId)) {
    // What came fits none of the ledger's alternatives, and conform varies none of this assumption's.
    return {
      ...base,
      cases: null,
      command: null,
      notVaried:
        notVaried ?? 'relay-mock serves none of its alternatives; the evidence shows what the service answered',
    }
  }
  const { pattern, command } = variantCases(assumptionId, known?.id)
  return { ...base, cases: pattern, command }
}

/**
 * The ids of the variant cases of `conform` that hold a client to an alternative of an assumption, as a
 * `--case` pattern, and the command that runs them. The one place that knows the cases' id form.
 * @example variantCases('create.status', '200-no-location').command // "relay-mock conform --suite variants --case 'variants/create.status=200-no-location/*'"
 */
export function variantCases(assumptionId: string, alternativeId?: string): { pattern: string; command: string } {
  // The alternatives that refuse a lenient form are varied together, in the strict world.
  const strict =
    STRICT_VARIANTS[assumptionId] !== undefined &&
    (alternativeId === undefined || STRICT_VARIANTS[assumptionId] === alternativeId)
  const pattern = strict
    ? `variants/${STRICT}/*`
    : alternativeId
      ? `variants/${assumptionId}=${alternativeId}/*`
      : `variants/${assumptionId}=*`
  return { pattern, command: `relay-mock conform --suite variants --case '${pattern}'` }
}
