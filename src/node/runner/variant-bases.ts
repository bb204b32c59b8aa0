// A variant case is judged against the flow case it repeats (src/core/rules/echoes.ts), so a run holds each
// variant's result until that case has ended, and runs that case too when only the variant was selected
// (`--case variants/…`, `--suite variants`): a variant is never judged blind.
import { judgeVariant } from '../../core/rules/echoes.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { CaseResult } from '../../core/rules/types.js'

/**
 * The selected cases, after the flow cases their variant cases repeat that were not selected (first, so that
 * they end first), and for each of those the variant cases it was added for.
 * @example withBases([variantOfNewVehicle], allCases).added.get('advanced/new-vehicle') // ['variants/…']
 */
export function withBases(
  selected: ConformanceCase[],
  source: ReadonlyArray<ConformanceCase>,
): { cases: ConformanceCase[]; added: Map<string, string[]> } {
  const ids = new Set(selected.map((kase) => kase.id))
  const added = new Map<string, string[]>()
  for (const kase of selected) {
    if (kase.of === undefined || ids.has(kase.of) || !source.some((other) => other.id === kase.of)) continue
    added.set(kase.of, [...(added.get(kase.of) ?? []), kase.id])
  }
  const bases = source.filter((kase) => added.has(kase.id))
  return { cases: [...bases, ...selected], added }
}

/** Takes each case's result as it ends, and gives back the results ready to report, judged. */
export interface VariantHold {
  /** The results ready now: this one unless it is a variant whose flow case has not ended, and the variants held for it, judged. */
  take(result: CaseResult): CaseResult[]
}

/**
 * A hold for a run of `cases`: a variant case whose flow case is in the run waits for it, then is judged
 * against it; a flow case added for variants says so (`addedFor`). A variant still held when the run ends
 * early (its flow case never ended) is never given back: it did not finish.
 * @example const hold = holdVariants(cases, added); for (const ready of hold.take(result)) report(ready)
 */
export function holdVariants(
  cases: ReadonlyArray<ConformanceCase>,
  added: ReadonlyMap<string, string[]> = new Map(),
): VariantHold {
  const ids = new Set(cases.map((kase) => kase.id))
  const ended = new Map<string, CaseResult>()
  const waiting = new Map<string, CaseResult[]>()
  return {
    take(result) {
      const addedFor = added.get(result.id)
      const kase = addedFor ? { ...result, addedFor } : result
      ended.set(kase.id, kase)
      const ready: CaseResult[] = []
      if (kase.of !== undefined && ids.has(kase.of)) {
        const base = ended.get(kase.of)
        if (!base) waiting.set(kase.of, [...(waiting.get(kase.of) ?? []), kase])
        else ready.push(judgeVariant(kase, base))
      } else ready.push(kase)
      for (const variant of waiting.get(kase.id) ?? []) ready.push(judgeVariant(variant, kase))
      waiting.delete(kase.id)
      return ready
    },
  }
}
