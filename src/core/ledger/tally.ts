// The ledger's counts over a stretch of traffic: each check's verdicts with a few pieces of evidence, the
// findings, and the standing of each assumption they give. Bounded whatever the traffic.
import { ASSUMPTIONS } from './assumptions.js'
import type { CheckVerdict, Finding, Observed } from './checks.js'
import { toEvidence, toObserved } from './evidence.js'
import { nextStep } from './next-step.js'
import type { UpstreamObservation } from '../service/upstream.js'
import type { AssumptionStanding, AssumptionStatus, Evidence, FindingStanding, ObservedAnswer } from './standing.js'

/** Evidence kept per assumption and verdict, and findings kept in all: enough to act on, bounded whatever the traffic. */
const EVIDENCE_KEPT = 3
/** Observed answers kept per contradicted assumption: one per status and endpoint, enough for each answer calibration serves. */
const OBSERVED_KEPT = 6
const FINDINGS_KEPT = 200

/** What one stretch of traffic (the whole, or one world's) showed: answers counted, verdicts and findings kept. */
export interface Tally {
  answers: number
  confirmed: Map<string, { count: number; evidence: Evidence[] }>
  contradicted: Map<
    string,
    { count: number; evidence: Evidence[]; alternatives: Set<string | null>; observed: ObservedAnswer[] }
  >
  findings: Map<string, FindingStanding>
}

export function createTally(): Tally {
  return { answers: 0, confirmed: new Map(), contradicted: new Map(), findings: new Map() }
}

/**
 * Counts one check's verdict on an answer in each tally; its evidence is made only when a tally still
 * keeps evidence of this kind: most answers only count.
 */
export function countVerdict(
  tallies: Tally[],
  id: string,
  verdict: CheckVerdict,
  entry: UpstreamObservation['entry'],
  observed: Observed,
): void {
  let evidence: Evidence | undefined
  for (const tally of tallies) {
    if (verdict.status === 'confirmed') {
      let kept = tally.confirmed.get(id)
      if (!kept) tally.confirmed.set(id, (kept = { count: 0, evidence: [] }))
      kept.count++
      if (kept.evidence.length < EVIDENCE_KEPT) kept.evidence.push((evidence ??= toEvidence(entry, verdict)))
    } else {
      let kept = tally.contradicted.get(id)
      if (!kept)
        tally.contradicted.set(
          id,
          (kept = { count: 0, evidence: [], alternatives: new Set<string | null>(), observed: [] }),
        )
      kept.count++
      kept.alternatives.add(verdict.alternative ?? null)
      if (kept.evidence.length < EVIDENCE_KEPT) kept.evidence.push((evidence ??= toEvidence(entry, verdict)))
      if (
        kept.observed.length < OBSERVED_KEPT &&
        !kept.observed.some(
          (seen) =>
            seen.status === observed.status &&
            seen.request.split('?')[0] === `${entry.request.method} ${entry.request.path}`,
        )
      ) {
        kept.observed.push(toObserved((evidence ??= toEvidence(entry, verdict)), verdict, observed))
      }
    }
  }
}

/** An assumption's standing in a tally: contradicted once any answer contradicted it. */
export function standing(entry: (typeof ASSUMPTIONS)[number], tally: Tally): AssumptionStanding {
  const yes = tally.confirmed.get(entry.id)
  const no = tally.contradicted.get(entry.id)
  const status: AssumptionStatus = no ? 'contradicted' : yes ? 'confirmed' : 'unseen'
  const result: AssumptionStanding = {
    id: entry.id,
    question: entry.question,
    choice: entry.choice,
    status,
    confirmedBy: yes?.count ?? 0,
    contradictedBy: no?.count ?? 0,
    evidence: [...(no?.evidence ?? []), ...(yes?.evidence ?? [])],
  }
  if (no?.observed.length) result.observed = no.observed
  if (no) result.variants = [...no.alternatives].map((alternative) => nextStep(entry.id, alternative))
  return result
}

/** Counts a finding, keeping the seqs of its first few answers; past FINDINGS_KEPT kinds, new ones are dropped. */
export function addFinding(tally: Tally, finding: Finding, seq: number): void {
  const key = `${finding.kind}\u0000${finding.message}`
  const kept = tally.findings.get(key)
  if (kept) {
    kept.count++
    if (kept.seqs.length < EVIDENCE_KEPT) kept.seqs.push(seq)
    return
  }
  if (tally.findings.size >= FINDINGS_KEPT) return
  tally.findings.set(key, { ...finding, count: 1, seqs: [seq] })
}
