// The assumption ledger's standing against one real service, built answer by answer: each assumption
// `confirmed`, `contradicted` or `unseen` with its evidence, and the findings (answers that depart from
// the interface, and the upstream's trouble). What GET /__relay/assumptions answers and what
// `relay-mock proxy` writes on exit. Bounded: a few pieces of evidence per verdict, findings counted.
import { ASSUMPTIONS } from './assumptions.js'
import { MOCK_DEFAULTS } from '../defaults.js'
import { lenientForms } from '../service/leniency.js'
import { bodyVerdict, parseJsonText, routeById } from '../service/protocol.js'
import { ASSUMPTION_CHECKS, createMemory, findingsOf, learn, variantCases, type AssumptionCheck, type CheckVerdict, type Finding, type Memory, type Observed } from './checks.js'
import { NOT_VARIED_IN_CONFORM, VARIED_ASSUMPTIONS } from '../service/variants.js'
import { UPSTREAM_TROUBLES, type UpstreamObservation, type UpstreamTroubleKind } from '../service/upstream.js'

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

/** The assumption checks, as [id, check] pairs: those traffic can show. */
const CHECKS = Object.entries(ASSUMPTION_CHECKS).filter((pair): pair is [string, AssumptionCheck] => typeof pair[1] === 'function')

/** One answer as evidence of a verdict. */
function toEvidence(entry: UpstreamObservation['entry'], verdict: CheckVerdict): Evidence {
  const request = `${entry.request.method} ${entry.request.path}${entry.request.search}`
  return { seq: entry.seq, request: request.length > 200 ? `${request.slice(0, 200)}…` : request, relayMock: verdict.expected, came: verdict.came, ...(verdict.alternative ? { alternative: verdict.alternative } : {}) }
}

/** The headers an observed answer keeps: those the ledger's checks read. */
const OBSERVED_HEADERS = ['content-type', 'location', 'www-authenticate', 'allow']

/** An answer as calibration needs it: an error's body whole (its strings cut at 300 characters), a success's fields with values of their types only. */
function toObserved(evidence: Evidence, verdict: CheckVerdict, o: Observed): ObservedAnswer {
  const headers: Record<string, string> = {}
  for (const name of OBSERVED_HEADERS) {
    const value = o.headers[name]
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const read = o.json !== undefined ? o.json : o.text === '' ? null : parseJsonText(o.text)
  const body = read && 'value' in read ? read.value : undefined
  return {
    request: evidence.request,
    relayMock: verdict.expected,
    status: o.status,
    headers,
    ...(body === undefined ? {} : { body: o.status >= 400 ? cut(body, 0) : typesOf(body, 0) }),
    ...(verdict.extra ? { extra: typesOf(verdict.extra, 0) as Record<string, unknown> } : {}),
  }
}

/** A body's strings cut to 300 characters, its depth to 4, its lists to 3 items. */
function cut(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 300)}…` : value
  if (depth > 4 || value === null || typeof value !== 'object') return depth > 4 ? null : value
  if (Array.isArray(value)) return value.slice(0, 3).map((item) => cut(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cut(item, depth + 1)]))
}

/**
 * A success's body as calibration needs it: its fields, each with a value of the type seen, never the
 * record's own data (a plate, a name, an id): a string keeps its value only when it is a date or time
 * (its form is what a client parses) or a short word (a status such as `accepted`).
 */
function typesOf(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || /^[a-z_]{1,20}$/.test(value) ? value : 'x'.repeat(Math.min(value.length, 8))
  if (depth > 4 || value === null || typeof value !== 'object') return depth > 4 ? null : value
  if (Array.isArray(value)) return value.slice(0, 1).map((item) => typesOf(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typesOf(item, depth + 1)]))
}

/** Evidence kept per assumption and verdict, and findings kept in all: enough to act on, bounded whatever the traffic. */
const EVIDENCE_KEPT = 3
/** Observed answers kept per contradicted assumption: one per status and endpoint, enough for each answer calibration serves. */
const OBSERVED_KEPT = 6
const FINDINGS_KEPT = 200

interface Tally {
  answers: number
  confirmed: Map<string, { count: number; evidence: Evidence[] }>
  contradicted: Map<string, { count: number; evidence: Evidence[]; alternatives: Set<string | null>; observed: ObservedAnswer[] }>
  findings: Map<string, FindingStanding>
}

function createTally(): Tally {
  return { answers: 0, confirmed: new Map(), contradicted: new Map(), findings: new Map() }
}

/**
 * The standing of the ledger against one upstream: the whole traffic's, and each world's (a token sees
 * its own only, as with the journal).
 * @example
 * const ledger = createAssumptionLedger('https://staging.example')
 * service = await createRelayService({ upstream: { ...forwarder, observe: ledger.observe } })
 * ledger.report().assumptions.filter((a) => a.status === 'contradicted')
 */
export function createAssumptionLedger(upstream: string) {
  const whole = createTally()
  const worlds = new Map<string, { tally: Tally; memory: Memory }>()

  function worldOf(id: string) {
    let state = worlds.get(id)
    if (!state) {
      // Worlds come and go with tokens (the service's cap): the oldest world's standing goes first; the whole stays.
      if (worlds.size >= 1000) worlds.delete(worlds.keys().next().value as string)
      state = { tally: createTally(), memory: createMemory() }
      worlds.set(id, state)
    }
    return state
  }

  /** Checks one journaled request with the upstream's answer to it. */
  function observe({ entry, upstream: result }: UpstreamObservation): void {
    if (!result) return
    const state = entry.worldId === null ? undefined : worldOf(entry.worldId)
    const tallies = state ? [whole, state.tally] : [whole]
    if ('trouble' in result) {
      const finding = { kind: 'upstream-trouble', message: `${entry.request.method} ${entry.request.path}: ${UPSTREAM_TROUBLES[result.trouble.kind as UpstreamTroubleKind] ?? result.trouble.kind} (${result.trouble.detail}); the client got ${entry.response.status}.` }
      for (const tally of tallies) addFinding(tally, finding, entry.seq)
      return
    }
    const { answer } = result
    if (answer.passedOn) {
      // Passed on as it came, never held whole: there is nothing whole to check.
      const finding = { kind: 'too-large-to-check', message: `${entry.request.method} ${entry.request.path} answered ${answer.status} with a body larger than the proxy's body limit: passed on whole as it came, checked no further (the journal keeps its first bytes).` }
      for (const tally of tallies) {
        tally.answers++
        addFinding(tally, finding, entry.seq)
      }
      return
    }
    const observed: Observed = {
      seq: entry.seq,
      method: entry.request.method,
      path: entry.request.path,
      search: entry.request.search,
      query: entry.request.query,
      route: entry.route,
      body: entry.request.body,
      hasBody: entry.request.bodyText !== undefined,
      bearer: entry.auth !== 'missing' && entry.auth !== 'malformed',
      status: answer.status,
      headers: answer.headers,
      text: answer.text,
    }
    if (answer.json !== undefined) observed.json = answer.json
    const forms = lenientForms({ method: entry.request.method, headers: entry.request.headers, search: entry.request.search, route: routeById(entry.route), bodyText: entry.request.bodyText, body: entry.request.body })
    if (forms.length > 0) observed.forms = forms
    const refused = bodyRefusal(entry)
    if (refused) observed.bodyError = refused
    const memory = state?.memory ?? createMemory()
    for (const tally of tallies) tally.answers++
    for (const [id, check] of CHECKS) {
      const verdict = check(observed, memory)
      if (!verdict) continue
      // Made only when a tally still keeps evidence of this kind: most answers only count.
      let evidence: Evidence | undefined
      for (const tally of tallies) {
        if (verdict.status === 'confirmed') {
          let kept = tally.confirmed.get(id)
          if (!kept) tally.confirmed.set(id, (kept = { count: 0, evidence: [] }))
          kept.count++
          if (kept.evidence.length < EVIDENCE_KEPT) kept.evidence.push((evidence ??= toEvidence(entry, verdict)))
        } else {
          let kept = tally.contradicted.get(id)
          if (!kept) tally.contradicted.set(id, (kept = { count: 0, evidence: [], alternatives: new Set<string | null>(), observed: [] }))
          kept.count++
          kept.alternatives.add(verdict.alternative ?? null)
          if (kept.evidence.length < EVIDENCE_KEPT) kept.evidence.push((evidence ??= toEvidence(entry, verdict)))
          if (kept.observed.length < OBSERVED_KEPT && !kept.observed.some((seen) => seen.status === answer.status && seen.request.split('?')[0] === `${entry.request.method} ${entry.request.path}`)) {
            kept.observed.push(toObserved(evidence ??= toEvidence(entry, verdict), verdict, observed))
          }
        }
      }
    }
    for (const finding of findingsOf(observed)) for (const tally of tallies) addFinding(tally, finding, entry.seq)
    learn(observed, memory)
  }

  /** The standing: the whole traffic's, or one world's. */
  function report(worldId?: string): AssumptionReport {
    const tally = worldId === undefined ? whole : (worlds.get(worldId)?.tally ?? createTally())
    return {
      upstream,
      date: new Date().toISOString(),
      answers: tally.answers,
      assumptions: ASSUMPTIONS.map((entry) => standing(entry, tally)),
      findings: [...tally.findings.values()],
    }
  }

  return { observe, report }
}

export type AssumptionLedger = ReturnType<typeof createAssumptionLedger>

function standing(entry: (typeof ASSUMPTIONS)[number], tally: Tally): AssumptionStanding {
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
  if (notVaried !== undefined && known) return { ...base, cases: null, command: `relay-mock serve --variant ${assumptionId}=${known.id}`, notVaried }
  if (!VARIED_ASSUMPTIONS.includes(assumptionId)) {
    // What came fits none of the ledger's alternatives, and conform varies none of this assumption's.
    return { ...base, cases: null, command: null, notVaried: notVaried ?? 'relay-mock serves none of its alternatives; the evidence shows what the service answered' }
  }
  const { pattern, command } = variantCases(assumptionId, known?.id)
  return { ...base, cases: pattern, command }
}

function addFinding(tally: Tally, finding: Finding, seq: number): void {
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


/** relay-mock's refusal of the request's body (its status and sentence), read from the journal's entry as the mock reads a body. */
function bodyRefusal(entry: UpstreamObservation['entry']): { status: 400 | 413 | 415; problem: string } | undefined {
  if (entry.request.bodyError === undefined) return undefined
  const { request } = entry
  const verdict = bodyVerdict({ method: request.method, headers: request.headers, body: request.bodyText, ...(request.bodyBytes !== undefined ? { bodyBytes: request.bodyBytes } : {}) }, routeById(entry.route), MOCK_DEFAULTS.bodyLimit)
  return verdict && 'status' in verdict ? { status: verdict.status, problem: verdict.problem } : undefined
}
