// What the ledger's checks read, and the pieces they share: one request with the real service's answer
// to it (Observed), a check's verdict, the answers that tell nothing (silent), and the body read as JSON
// once per answer.
import { isSuccess } from '../../exchange/answer.js'
import { header, jsonOf } from '../../service/protocol.js'
import type { LenientForm } from '../../service/leniency.js'
import type { Memory } from './memory.js'

/** One request and the real service's answer to it, as the checks read them. */
export interface Observed {
  /** The journal's seq of the request. */
  seq: number
  method: string
  path: string
  /** The query string as journaled (credentials masked), with its `?`, or ''. */
  search: string
  query: Readonly<Record<string, string>>
  /** The service's endpoint the request named (`POST /vehicles`), or null. */
  route: string | null
  /** The request's body as parsed JSON, when it was. */
  body: unknown
  /** Why relay-mock could not read the body, when a body it reads was unreadable: its refusal's status and sentence. */
  bodyError?: { status: 400 | 413 | 415; problem: string }
  /** Whether the request carried a body at all. */
  hasBody: boolean
  /** Whether the request carried a Bearer token at all. */
  bearer: boolean
  /** The upstream's answer. */
  status: number
  headers: Readonly<Record<string, string | string[] | undefined>>
  text: string
  /** The body as JSON, when the proxy has read it already (`null`: not JSON). */
  json?: { value: unknown } | null
  /** The forms beyond the interface's text the request used (see leniency.ts): the leniency checks read them. */
  forms?: readonly LenientForm[]
}

/** A check's verdict on one answer. */
export interface CheckVerdict {
  status: 'confirmed' | 'contradicted'
  /** The ledger's alternative the answer matches, when it matches one. */
  alternative?: string
  /** What relay-mock would have answered, in a few words. */
  expected: string
  /** What came, in a few words. */
  came: string
  /** The fields a record carried beyond the listed ones, with the values seen (records.extra-fields): what calibration serves. */
  extra?: Record<string, unknown>
}

/** A check of one assumption: the verdict an answer gives it, or undefined when the answer says nothing of it. */
export type AssumptionCheck = (observed: Observed, memory: Memory) => CheckVerdict | undefined

/** An assumption traffic cannot show: why not, in one sentence. */
export interface NotObservable {
  notObservable: string
}

/** An answer that departs from the interface itself, whatever relay-mock assumed. */
export interface Finding {
  /** What kind of departure: `not-json`, `field-missing`, `field-type`, `id-not-uuid`, `link-form`, `upstream-trouble`, `accepted-invalid`, `too-large-to-check`. */
  kind: string
  /** Where and what, one sentence; the same departure at the same place has the same message. */
  message: string
}

export const CREATES = new Set(['POST /vehicles', 'POST /custodians', 'POST /payments'])
export const SIMPLE = 'POST /payment'

export const location = (o: Observed) => header(o.headers, 'location')
export const contentType = (o: Observed) => (header(o.headers, 'content-type') ?? '').toLowerCase()

/** Answers that say nothing of what a check asks: the token refused, a limit, the service in trouble. */
export const silent = (status: number) => status === 401 || status === 403 || status === 429 || status >= 500

const parsed = new WeakMap<Observed, unknown>()

/** The answer's body as JSON, or undefined when it is empty or not JSON: parsed once per answer, whichever check asks first. */
export function json(o: Observed): unknown {
  if (!parsed.has(o)) parsed.set(o, jsonOf(o))
  return parsed.get(o)
}

export const confirmed = (expected: string, came: string): CheckVerdict => ({ status: 'confirmed', expected, came })
export const contradicted = (expected: string, came: string, alternative?: string): CheckVerdict => ({
  status: 'contradicted',
  expected,
  came,
  ...(alternative ? { alternative } : {}),
})

/**
 * The check of a leniency (see leniency.ts): a request that used its form and was answered as any other
 * confirms relay-mock's choice; one refused with the status the strict alternative answers contradicts it.
 * Trouble, limits and other refusals tell nothing.
 */
export function leniency(o: Observed, id: string, accepted: string): CheckVerdict | undefined {
  const form = o.forms?.find((f) => f.assumption === id)
  if (!form || o.status === 429 || o.status >= 500) return undefined
  const expected = `${accepted} (${form.where}: ${form.sent})`
  if (isSuccess(o.status)) return confirmed(expected, String(o.status))
  // Only the strict alternative's own status: a 400 for a 415's form may be the service refusing something else.
  if (o.status === form.status) return contradicted(expected, String(o.status), form.alternative)
  return undefined
}
