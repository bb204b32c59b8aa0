// What `compare` reports: a difference between the service's document and relay-mock's, or an agreement,
// each tied to the assumption of the ledger it confirms or contradicts, or left as a finding.
import type { AssumptionId } from '../ledger/assumptions.js'

/** What a difference is about. `agreement`: the service's document agrees with the assumption named. */
export type DifferenceKind =
  | 'agreement'
  | 'missing-operation'
  | 'added-operation'
  | 'request-media-type'
  | 'request-field-missing'
  | 'request-field-added'
  | 'request-field-required'
  | 'request-field-type'
  | 'request-field-format'
  | 'request-field-enum'
  | 'answer-status-missing'
  | 'answer-status-added'
  | 'answer-media-type'
  | 'answer-header'
  | 'answer-field-missing'
  | 'answer-field-added'
  | 'answer-field-required'
  | 'answer-field-type'
  | 'answer-field-format'
  | 'answer-field-enum'

/** An assumption of the ledger (src/core/ledger/assumptions.ts) and what the service's document says of it. */
export interface Verdict {
  id: AssumptionId
  verdict: 'confirmed' | 'contradicted'
  /** The ledger's alternative the document matches, when one does. */
  alternative?: string
}

/** One place where the service's document and relay-mock's differ, or agree on an assumption. */
export interface Difference {
  /** `METHOD /path`, as relay-mock names the operation (the service's path when relay-mock has none). */
  operation: string
  /** Where in the operation, e.g. `responses.201` or `requestBody.application/json.vehicle.plate`. */
  where: string
  kind: DifferenceKind
  /** What relay-mock's document says there (absent: nothing). */
  relayMock?: unknown
  /** What the service's document says there (absent: nothing). */
  theirs?: unknown
  /** The assumption this confirms or contradicts. */
  assumption?: Verdict
  /** What the difference means, when it ties to no assumption (or says more than the verdict). */
  finding?: string
}

/** A difference within one operation, which the caller names. */
export type OperationDifference = Omit<Difference, 'operation'>
/** Where the comparison of one operation puts what it finds. */
export type Report = (difference: OperationDifference) => void

/** @example confirms('auth.refusal') // { id: 'auth.refusal', verdict: 'confirmed' } */
export function confirms(id: AssumptionId): Verdict {
  return { id, verdict: 'confirmed' }
}

/**
 * The test of the ties holds each id and alternative named here to the ledger.
 * @example contradicts('auth.refusal', '403') // { id: 'auth.refusal', verdict: 'contradicted', alternative: '403' }
 */
export function contradicts(id: AssumptionId, alternative?: string): Verdict {
  return alternative ? { id, verdict: 'contradicted', alternative } : { id, verdict: 'contradicted' }
}
