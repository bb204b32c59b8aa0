// What the ledger's standing says: each assumption confirmed, contradicted or unseen with its evidence, the
// findings, and what to run next. The shapes GET /__relay/assumptions answers and `relay-mock proxy` writes.
import type { Finding } from './checks.js'

/** One answer that bore on an assumption. */
export interface Evidence {
  /** The request's seq in the journal (GET /__relay/journal, the HAR). */
  seq: number
  /** The request, e.g. `POST /vehicles` (a query's credentials masked). */
  request: string
  /** What relay-mock would have answered. */
  relayMock: string
  /** What the real service answered. */
  came: string
  /** The ledger's alternative the answer matches, when it matches one. */
  alternative?: string
}

/**
 * One answer that contradicted an assumption, as it came: what `--calibrate` learns to answer from. Its
 * status, the headers the ledger reads, and its body (an error's whole; a success's fields with their
 * values' types, never a record's data); no request header, so no token.
 */
export interface ObservedAnswer {
  /** The request, e.g. `POST /vehicles`. */
  request: string
  /** What relay-mock would have answered. */
  relayMock: string
  status: number
  /** content-type, location, www-authenticate and allow, when the answer carried them. */
  headers: Record<string, string>
  /** The body as JSON, when it was JSON. */
  body?: unknown
  /** The fields beyond the listed ones a record carried, with the values seen (records.extra-fields). */
  extra?: Record<string, unknown>
}

export type AssumptionStatus = 'confirmed' | 'contradicted' | 'unseen'

export interface AssumptionStanding {
  id: string
  question: string
  choice: string
  status: AssumptionStatus
  /** How many answers confirmed it and how many contradicted it. */
  confirmedBy: number
  contradictedBy: number
  /** The first few answers of each kind, contradicting ones first. */
  evidence: Evidence[]
  /** When contradicted: the answers that contradicted it, as they came (a few, of distinct statuses): what calibration serves. */
  observed?: ObservedAnswer[]
  /** When unseen, why (`relay-mock probe` says: traffic cannot show it, it needs a write, or the answers did not tell). */
  unseen?: string
  /** When contradicted: the alternatives the service was seen to make, and what to run next (see nextStep). */
  variants?: NextStep[]
}

/** What a probe did: its requests, the records it wrote (with --allow-writes), what it left out and why it stopped early. */
export interface ProbeSummary {
  sent: number
  durationMs: number
  allowWrites: boolean
  written: Array<{ kind: string; id: string; request: string }>
  skipped: string[]
  stopped?: string
}

export interface FindingStanding extends Finding {
  /** How many answers showed it. */
  count: number
  /** The seqs of the first few. */
  seqs: number[]
}

export interface AssumptionReport {
  /** The real service's base URL. */
  upstream: string
  /** When the report was made, ISO 8601. */
  date?: string
  /** Set when `relay-mock probe` made it: what it sent, what it wrote on the service, what it left out. */
  probe?: ProbeSummary
  /** How many of its answers were checked. */
  answers: number
  assumptions: AssumptionStanding[]
  findings: FindingStanding[]
}

/** What to run once the service made an alternative: the variant cases of `conform`, or a world served under it, or why there is nothing to run. */
export interface NextStep {
  /** The ledger's alternative the service made (null: none of the ledger's fits). */
  alternative: string | null
  answer: string | null
  /** The `--case` pattern of the variant cases that hold a client to it, when conform has such cases. */
  cases: string | null
  /** A command that runs as written: `relay-mock conform --suite variants --case ...`, or `relay-mock serve --variant ...` where conform varies nothing. */
  command: string | null
  /** Why relay-mock serves no variant of the alternative. */
  notServed?: string
  /** Why `conform` has no cases for it (the command then serves a world under it, for your own tests). */
  notVaried?: string
}
