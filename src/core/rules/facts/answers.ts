// The facts the mock's own answers establish: the company found, the vehicles listed, the vehicle
// created, the payment recorded, and what the client's visit came to.
import type { JournalEntry } from '../../service/journal.js'
import { answerLost, bodyOf, isAmbiguous, isFailure, isOk } from '../../exchange/entry.js'
import type { Flow, Outcome } from '../types.js'
import { at, howLost, whatItGot, mockSaid, fieldProblems } from './wording.js'
import { DOCUMENTED_ROUTES, callsTo, valueAt } from './calls.js'

/** A lookup the mock answered with a list (200 and a JSON array). */
export interface ListAnswer {
  entry: JournalEntry
  items: Record<string, unknown>[]
}

/** The first call to `route` that the mock answered with a list. */
export function firstList(
  requests: ReadonlyArray<JournalEntry>,
  route: 'GET /rental-companies' | 'GET /vehicles',
): ListAnswer | undefined {
  for (const entry of requests) {
    if (
      entry.route === route &&
      entry.response.status === 200 &&
      !answerLost(entry) &&
      Array.isArray(entry.response.body)
    ) {
      return { entry, items: entry.response.body as Record<string, unknown>[] }
    }
  }
  return undefined
}

/** The company lookup's answer: `found` with the first company, `empty`, or `none` (not made, or refused). */
export function companyFacts(
  requests: ReadonlyArray<JournalEntry>,
):
  | { kind: 'found'; entry: JournalEntry; company: Record<string, unknown>; count: number }
  | { kind: 'empty'; entry: JournalEntry }
  | { kind: 'none'; why: string } {
  const answer = firstList(requests, 'GET /rental-companies')
  if (answer) {
    return answer.items.length > 0
      ? { kind: 'found', entry: answer.entry, company: answer.items[0], count: answer.items.length }
      : { kind: 'empty', entry: answer.entry }
  }
  const tried = callsTo(requests, 'GET /rental-companies')[0]
  return {
    kind: 'none',
    why: tried
      ? `the company lookup ${at(requests, tried)} was refused (${tried.response.status}), so no company was found`
      : 'the client made no company lookup (GET /rental-companies), so no company was found',
  }
}

/** The vehicle lookup's answer: `found` with the listed vehicles, `empty`, or `none`. */
export function vehicleFacts(
  requests: ReadonlyArray<JournalEntry>,
):
  | { kind: 'found'; entry: JournalEntry; vehicles: Record<string, unknown>[] }
  | { kind: 'empty'; entry: JournalEntry }
  | { kind: 'none'; why: string } {
  const answer = firstList(requests, 'GET /vehicles')
  if (answer)
    return answer.items.length > 0
      ? { kind: 'found', entry: answer.entry, vehicles: answer.items }
      : { kind: 'empty', entry: answer.entry }
  const tried = callsTo(requests, 'GET /vehicles')[0]
  return {
    kind: 'none',
    why: tried
      ? `the vehicle lookup ${at(requests, tried)} was refused (${tried.response.status})`
      : 'the client made no vehicle lookup (GET /vehicles)',
  }
}

/** The id the mock answered a creation with (`{id, link}`), when it created the record. */
export function createdId(entry: JournalEntry): string | undefined {
  if (!isOk(entry)) return undefined
  const id = valueAt(entry.response.body, 'id')
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** The vehicle the mock created after an empty vehicle list, and the request that created it. */
export function createdVehicle(requests: ReadonlyArray<JournalEntry>): { entry: JournalEntry; id: string } | undefined {
  const vehicles = vehicleFacts(requests)
  if (vehicles.kind !== 'empty') return undefined
  const from = requests.indexOf(vehicles.entry)
  const after = requests.slice(from + 1)
  for (const [i, entry] of after.entries()) {
    if (entry.route !== 'POST /vehicles') continue
    const id = createdId(entry)
    if (id) return { entry, id }
    // The answer was lost: the lookup that followed shows whether (and as what) it was created.
    if (isAmbiguous(entry)) {
      const lookup = after.slice(i + 1).find((next) => next.route !== null && DOCUMENTED_ROUTES.has(next.route))
      const listed =
        lookup?.route === 'GET /vehicles' && isOk(lookup) && Array.isArray(lookup.response.body)
          ? valueAt(lookup.response.body[0], 'id')
          : undefined
      if (lookup && typeof listed === 'string') return { entry: lookup, id: listed }
    }
  }
  return undefined
}

/** What really happened to the visit's payment, judged from the mock's answers alone. */
export function whatHappened(
  flow: Flow,
  requests: ReadonlyArray<JournalEntry>,
): { outcome: Outcome; paymentIds: string[]; why: string } {
  const route = flow === 'advanced' ? 'POST /payments' : 'POST /payment'
  const payments = callsTo(requests, route)
  const paid: { entry: JournalEntry; id: string }[] = []
  for (const entry of payments) {
    // The simple endpoint's rule: an answer with `id` means accepted, whatever the HTTP status. Only an
    // answer the client received whole gave it an id.
    const id =
      flow === 'simple' ? (answerLost(entry) ? undefined : valueAt(entry.response.body, 'id')) : createdId(entry)
    if (typeof id === 'string' && id !== '') paid.push({ entry, id })
  }
  if (paid.length > 0) {
    const ids = paid.map((p) => p.id)
    const last = paid[paid.length - 1]
    return {
      outcome: 'paid',
      paymentIds: ids,
      why: `${at(requests, last.entry)} was answered with the payment id ${last.id}${ids.length > 1 ? ` (${ids.length} payments were recorded)` : ''}`,
    }
  }
  if (flow === 'advanced') {
    const company = companyFacts(requests)
    if (company.kind === 'empty') {
      return {
        outcome: 'skipped',
        paymentIds: [],
        why: `${at(requests, company.entry)} answered [] (the owner is not part of the service)`,
      }
    }
  }
  const last = payments.at(-1)
  if (last && isAmbiguous(last)) {
    const why = answerLost(last)
      ? `the answer to ${at(requests, last)} was lost (${howLost(last)}), so the client cannot know whether the payment was recorded`
      : `${at(requests, last)} was answered ${last.response.status}, which does not say whether the payment was recorded`
    return { outcome: 'unknown', paymentIds: [], why }
  }
  // Rejected: no payment was made and the client can know it. The service refused the payment (a 503 or
  // 429 among them: nothing was done), or the visit stopped before it (a lookup or a creation failed, the
  // token was refused): the client contract's outcomes, in the README.
  if (last)
    return {
      outcome: 'rejected',
      paymentIds: [],
      why: `${at(requests, last)} was answered ${last.response.status} without an id${mockSaid(last) ? `: "${mockSaid(last)}"` : ''}, so no payment was made`,
    }
  const stopped = requests.filter((entry) => !isOk(entry)).at(-1)
  if (stopped) {
    const how = isFailure(stopped) ? `failed (${whatItGot(stopped)})` : `was refused (${stopped.response.status})`
    return {
      outcome: 'rejected',
      paymentIds: [],
      why: `${at(requests, stopped)} ${how} and the visit stopped before any payment was sent, so no payment was made`,
    }
  }
  return { outcome: 'rejected', paymentIds: [], why: 'no payment was sent, so none was made' }
}

/**
 * The first request whose body has problems: the rule's own (`problemsOf`), else the field errors
 * the mock answered; undefined when every body is right.
 * @example firstFaultyBody(callsTo(requests, 'POST /payment'), (body) => problemsOf(body, visit))
 */
export function firstFaultyBody(
  entries: readonly JournalEntry[],
  problemsOf: (body: unknown) => string[],
): { entry: JournalEntry; problems: string[] } | undefined {
  for (const entry of entries) {
    const problems = problemsOf(bodyOf(entry))
    if (problems.length === 0) {
      const mock = fieldProblems(entry)
      if (mock) problems.push(`the mock refused it: ${mock}`)
    }
    if (problems.length > 0) return { entry, problems }
  }
  return undefined
}
