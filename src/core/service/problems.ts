// Wire errors are data: each refusal is a problem (RFC 9457) with a `message` a person can act on
// and, for bad input, one entry per field saying what was wrong and what was expected.
import type { z } from 'zod'
import { statusText } from '../status.js'
import { clipText } from '../text.js'
import { expectedAt, type FieldError, type Problem } from './schemas.js'

/** What a handler answers: a status, a JSON body and any extra headers. */
export interface Reply {
  status: number
  body: unknown
  /** Header names in lower case; a field sent more than once (Set-Cookie) as the list of its values. */
  headers?: Record<string, string | string[]>
}

const TYPES: Record<number, string> = {
  400: 'malformed-request',
  401: 'unauthorized',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'body-too-large',
  415: 'unsupported-media-type',
  422: 'invalid-request',
  500: 'mock-failure',
  502: 'upstream-failed',
  503: 'service-unavailable',
  504: 'upstream-timeout',
}

/**
 * A problem answer.
 * @example toProblem(404, 'No vehicle has the id 123.')
 */
export function toProblem(
  status: number,
  message: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
): Reply {
  const body: Problem = {
    type: `https://relay-mock.dev/problems/${TYPES[status] ?? 'error'}`,
    title: statusText(status) || 'Error',
    status,
    message,
    ...(errors && errors.length > 0 ? { errors } : {}),
  }
  return { status, body, headers: { 'content-type': 'application/problem+json', ...headers } }
}

/** A 422 naming each field that failed, with what it expected; `where` prefixes the field paths (e.g. `query`). */
export function toValidationProblem(
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  where?: string,
): Reply {
  // zod still runs length checks on a value of the wrong type (an array has a length): once a field
  // is of the wrong type, that is all there is to say about it.
  const key = (issue: z.core.$ZodIssue) => issue.path.map(String).join('\u0000')
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type' && i.expected !== 'int').map(key))
  const relevant = issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(key(i)))
  return toFieldProblem(relevant.flatMap((issue) => fieldErrors(schema, issue, input, where)))
}

/** A 422 for field errors found beyond the schema (an id that names nothing, an end before its start). */
export function toFieldProblem(errors: FieldError[]): Reply {
  const summary = errors.map((e) => `${e.field} ${e.problem}`).join('; ')
  return toProblem(422, `The request was not accepted: ${summary}. See errors for what each field expects.`, errors)
}

function fieldErrors(schema: z.ZodType, issue: z.core.$ZodIssue, input: unknown, where?: string): FieldError[] {
  const path = issue.path
  const name = (p: ReadonlyArray<PropertyKey>) => [where, ...p.map(String)].filter(Boolean).join('.') || '(body)'
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(schema, path)
    return issue.keys.map((key) => ({
      field: name([...path, clipText(key, 80)]),
      problem: 'is not a field of this request',
      expected: known.length ? `only the fields ${known.join(', ')}` : 'no such field',
    }))
  }
  const received = valueAt(input, path)
  const missing = received === undefined
  // zod reports a fractional number as invalid_type with expected 'int': that is a wrong value, not a wrong type.
  const wrongType = issue.code === 'invalid_type' && !(issue.expected === 'int' && typeof received === 'number')
  const expected = expectedAt(schema, path) ?? (issue.code === 'invalid_type' ? `a ${issue.expected}` : 'a valid value')
  return [
    {
      field: name(path),
      problem: missing
        ? 'is missing'
        : wrongType
          ? `is ${describeType(received)}, not ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${issue.expected}`
          : issue.message,
      expected,
      ...(missing ? {} : { received: truncate(received) }),
    },
  ]
}

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

/** What knownKeys reads of a zod schema: an object's shape, a list's element, a wrapper's inner schema. */
interface SchemaParts {
  shape?: Record<string, unknown>
  element?: unknown
  unwrap?: () => unknown
}

const partsOf = (schema: unknown): SchemaParts | undefined =>
  schema !== null && typeof schema === 'object' ? schema : undefined

function knownKeys(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let s = partsOf(schema)
  for (const key of path) {
    // An optional list unwraps to the list, whose item is its element (a file's `vehicles[1]`).
    while (s && typeof s.unwrap === 'function' && !s.shape && !s.element) s = partsOf(s.unwrap())
    s = partsOf(typeof key === 'number' && s?.element ? s.element : s?.shape?.[String(key)])
  }
  while (s && typeof s.unwrap === 'function' && !s.shape) s = partsOf(s.unwrap())
  return s?.shape ? Object.keys(s.shape) : []
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = input
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}

/** A received value as the problem shows it: cut short, and a copy, so that an answer kept in the journal keeps no large body alive. */
function truncate(value: unknown): unknown {
  if (typeof value === 'string') return clipText(value, 80)
  if (value !== null && typeof value === 'object') {
    let text: string
    try {
      text = JSON.stringify(value)
    } catch {
      // A value nested thousands deep overflows the stack of JSON.stringify: show its kind only.
      return Array.isArray(value) ? '[…]' : '{…}'
    }
    return text.length > 80 ? clipText(text, 80) : value
  }
  return value
}
