// One upstream answer as the ledger keeps it: the observation its checks read, the evidence a verdict
// cites, and the answer as calibration needs it (an error's body whole, a success's fields by type only).
import { MOCK_DEFAULTS } from '../defaults.js'
import { lenientForms } from '../service/leniency.js'
import { bodyVerdict, jsonOf, routeById } from '../service/protocol.js'
import type { UpstreamAnswer, UpstreamObservation } from '../service/upstream.js'
import type { CheckVerdict, Observed } from './checks.js'
import type { Evidence, ObservedAnswer } from './standing.js'

/** A journaled request and the upstream's answer to it, as the ledger's checks read them. */
export function toObservation(entry: UpstreamObservation['entry'], answer: UpstreamAnswer): Observed {
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
  const forms = lenientForms({
    method: entry.request.method,
    headers: entry.request.headers,
    search: entry.request.search,
    route: routeById(entry.route),
    bodyText: entry.request.bodyText,
    body: entry.request.body,
  })
  if (forms.length > 0) observed.forms = forms
  const refused = bodyRefusal(entry)
  if (refused) observed.bodyError = refused
  return observed
}

/** One answer as evidence of a verdict. */
export function toEvidence(entry: UpstreamObservation['entry'], verdict: CheckVerdict): Evidence {
  const request = `${entry.request.method} ${entry.request.path}${entry.request.search}`
  return {
    seq: entry.seq,
    request: request.length > 200 ? `${request.slice(0, 200)}…` : request,
    relayMock: verdict.expected,
    came: verdict.came,
    ...(verdict.alternative ? { alternative: verdict.alternative } : {}),
  }
}

/** The headers an observed answer keeps: those the ledger's checks read. */
const OBSERVED_HEADERS = ['content-type', 'location', 'www-authenticate', 'allow']

/** An answer as calibration needs it: an error's body whole (its strings cut at 300 characters), a success's fields with values of their types only. */
export function toObserved(evidence: Evidence, verdict: CheckVerdict, o: Observed): ObservedAnswer {
  const headers: Record<string, string> = {}
  for (const name of OBSERVED_HEADERS) {
    const value = o.headers[name]
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const body = jsonOf(o)
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
  if (typeof value === 'string')
    return /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || /^[a-z_]{1,20}$/.test(value)
      ? value
      : 'x'.repeat(Math.min(value.length, 8))
  if (depth > 4 || value === null || typeof value !== 'object') return depth > 4 ? null : value
  if (Array.isArray(value)) return value.slice(0, 1).map((item) => typesOf(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typesOf(item, depth + 1)]))
}

/** relay-mock's refusal of the request's body (its status and sentence), read from the journal's entry as the mock reads a body. */
function bodyRefusal(entry: UpstreamObservation['entry']): { status: 400 | 413 | 415; problem: string } | undefined {
  if (entry.request.bodyError === undefined) return undefined
  const { request } = entry
  const verdict = bodyVerdict(
    {
      method: request.method,
      headers: request.headers,
      body: request.bodyText,
      ...(request.bodyBytes !== undefined ? { bodyBytes: request.bodyBytes } : {}),
    },
    routeById(entry.route),
    MOCK_DEFAULTS.bodyLimit,
  )
  return verdict && 'status' in verdict ? { status: verdict.status, problem: verdict.problem } : undefined
}
