// The forms relay-mock accepts beyond what the interface shows: each a guess of the ledger (an assumption
// whose alternative refuses it), found here once. The pipeline refuses them in a world served under those
// alternatives (`serve --variant strict`, the variants suite's strict world); the rule `fidelity.strict`
// reads the same forms off the journal, and warns of them wherever they passed. The plate's form is the
// one leniency that needs the world's records: the vehicles' handlers match plates under
// `plate.format` (see exactPlates in schemas.ts), and the rule compares the plate sent with the visit's.
import { DOCUMENTED_QUERY } from './handlers/index.js'
import { contentTypeProblem, header, parseBearer, type Headers } from './protocol.js'
import type { Variants } from './variants.js'
import type { Route } from './route.js'
import { isDate, normalizePlate, type FieldError } from './schemas.js'
import { jsonLiterals } from './json-literals.js'
export { STRICT, STRICT_VARIANTS } from './variants.js'

/** One lenient form a request used: the ledger's alternative that refuses it, what was sent and what to send. */
export interface LenientForm {
  /** The assumption whose choice accepted it, e.g. `query.extra`. */
  readonly assumption: string
  /** The alternative that refuses it, e.g. `refused`. */
  readonly alternative: string
  /** Where in the request, e.g. `the query`, `the Authorization header`, `acquiredOn`. */
  readonly where: string
  /** What the request sent, quoted as sent (a token masked), e.g. `_=1795791066550`. */
  readonly sent: string
  /** What a service that refuses it expects instead, e.g. `only plate=<plate>`. */
  readonly instead: string
  /** The status a service that refuses it answers (relay-mock's strict world answers it). */
  readonly status: 400 | 401 | 415 | 422
  /** For a field's form (a 422): the field's entry of the refusal's `errors`. */
  readonly field?: FieldError
}

/** A request as far as its forms go: as the pipeline has it, or as the journal kept it. */
export interface FormRequest {
  readonly method: string
  readonly headers: Headers
  /** The query string as sent, with its leading `?`, or ''. */
  readonly search: string
  /** The route the request reached, if any. */
  readonly route: Route | undefined
  /** The body as text, when one came. */
  readonly bodyText?: string | undefined
  /** The parsed body, when it was JSON. */
  readonly body?: unknown
}

/** `Bearer <token>`: the scheme as written, one space, the token, nothing after. */
const EXACT_BEARER = /^Bearer [^\s]+$/
/** `application/json`, or with the one charset JSON has: what the interface shows, and what HTTP lets it carry. */
const EXACT_JSON = /^application\/json(?:;\s?charset=(?:utf-8|"utf-8"))?$/i
const ACQUIRED_ON_DATE = 'POST /custodians'

/** The assumptions whose forms are read from the body's literals: a second pass over its text. */
const LITERAL_ASSUMPTIONS = ['request.number-form', 'request.duplicate-keys']

/**
 * Every lenient form a request used, in the order the service meets them (token, query, body type, body).
 * Given a world's `variants` (for `refusedForms`), the body's literals are read only where one of their
 * assumptions is varied: a form no variant refuses is not wanted there.
 * @example lenientForms({ method: 'GET', headers: { authorization: 'bearer abc' }, search: '?plate=AB123&_=1', route }).map((f) => f.assumption) // ['auth.scheme', 'query.extra']
 */
export function lenientForms(request: FormRequest, variants?: Variants): LenientForm[] {
  const forms: LenientForm[] = []
  const authorization = header(request.headers, 'authorization')
  if (authorization !== undefined && parseBearer(authorization).verdict === 'ok' && !EXACT_BEARER.test(authorization)) {
    forms.push({
      assumption: 'auth.scheme',
      alternative: 'exact',
      where: 'the Authorization header',
      sent: JSON.stringify(schemeShown(authorization)),
      instead: '"Bearer <token>": the scheme as the interface writes it, one space, nothing after',
      status: 401,
    })
  }
  if (request.route && request.search.length > 1) forms.push(...queryForms(request.route, request.search))
  const hasBody = request.bodyText !== undefined && request.bodyText !== ''
  if (hasBody && request.route?.body) {
    const type = header(request.headers, 'content-type')
    // Only a type relay-mock reads (contentTypeProblem finds none) and the interface does not show.
    if (type !== undefined && !EXACT_JSON.test(type.trim()) && contentTypeProblem(type) === undefined) {
      forms.push({
        assumption: 'request.content-type',
        alternative: 'application-json',
        where: 'the Content-Type header',
        sent: JSON.stringify(type),
        instead: '"application/json" (with "; charset=utf-8" at most)',
        status: 415,
      })
    }
  }
  if (hasBody && (request.method === 'GET' || request.method === 'HEAD') && /\S/.test(request.bodyText)) {
    forms.push({
      assumption: 'http.get-body',
      alternative: 'refused',
      where: `the ${request.method}'s body`,
      sent: `${request.bodyText.length} characters`,
      instead: `a ${request.method} with no body: the lookup's data goes in the query`,
      status: 400,
    })
  }
  const literals = !variants || LITERAL_ASSUMPTIONS.some((assumption) => assumption in variants)
  if (literals && hasBody && request.route?.body && request.body !== undefined)
    forms.push(...literalForms(request.bodyText))
  if (request.route?.id === ACQUIRED_ON_DATE) {
    const acquiredOn = (request.body as { acquiredOn?: unknown } | undefined)?.acquiredOn
    if (typeof acquiredOn === 'string' && isDate(acquiredOn)) {
      forms.push({
        assumption: 'custodian.acquired-on',
        alternative: 'datetime-only',
        where: 'acquiredOn',
        sent: JSON.stringify(acquiredOn),
        instead: `"${acquiredOn} 00:00:00" (YYYY-MM-DD HH:MM:SS, as the interface's example sends it)`,
        status: 422,
        field: {
          field: 'acquiredOn',
          problem: 'is a date without a time',
          expected: 'YYYY-MM-DD HH:MM:SS',
          received: acquiredOn,
        },
      })
    }
  }
  return forms
}

/** The body's forms JSON.parse cannot tell apart: a whole number written otherwise than as an integer, a key named twice. */
function literalForms(bodyText: string): LenientForm[] {
  const { numbers, duplicates } = jsonLiterals(bodyText)
  const forms: LenientForm[] = numbers.map(({ path, literal }) => {
    const integer = String(Math.abs(Number(literal)))
    return {
      assumption: 'request.number-form',
      alternative: 'integer-literal',
      where: path,
      sent: literal,
      instead: Object.is(Number(literal), -0)
        ? 'a positive integer literal: -0 is no amount'
        : `${integer}, an integer literal: no fraction, no exponent`,
      status: 422,
      field: {
        field: path,
        problem: 'is a whole number not written as an integer',
        expected: 'an integer literal',
        received: literal,
      },
    }
  })
  for (const { path, times } of duplicates) {
    forms.push({
      assumption: 'request.duplicate-keys',
      alternative: 'refused',
      where: 'the body',
      sent: `the key ${path} ${times === 2 ? 'twice' : `${times} times`}`,
      instead: `each key once in its object (relay-mock read the last ${path})`,
      status: 400,
    })
  }
  return forms
}

function queryForms(route: Route, search: string): LenientForm[] {
  const documented = DOCUMENTED_QUERY.get(route.id) ?? []
  const seen = new Set<string>()
  const extra: string[] = []
  const repeated: string[] = []
  for (const [name] of new URLSearchParams(search)) {
    if (!documented.includes(name)) extra.push(name)
    else if (seen.has(name)) repeated.push(name)
    seen.add(name)
  }
  const forms: LenientForm[] = []
  const only =
    documented.length > 0 ? `only ${documented.map((name) => `${name}=<${name}>`).join('&')}` : 'no query at all'
  if (extra.length > 0) {
    forms.push({
      assumption: 'query.extra',
      alternative: 'refused',
      where: 'the query',
      sent: `${[...new Set(extra)].join(', ')} (not documented for ${route.id})`,
      instead: only,
      status: 400,
    })
  }
  if (repeated.length > 0) {
    forms.push({
      assumption: 'query.extra',
      alternative: 'refused',
      where: 'the query',
      sent: `${[...new Set(repeated)].join(', ')} more than once`,
      instead: `${only}, each once`,
      status: 400,
    })
  }
  return forms
}

/** The Authorization header as a message may show it: the scheme and spacing as sent, the token hidden. */
function schemeShown(authorization: string): string {
  return authorization.replace(
    /^(\s*\S+)(\s+)\S+(\s*)$/,
    (_, scheme: string, gap: string, tail: string) => `${scheme}${gap}<token>${tail}`,
  )
}

/** The lenient forms a world refuses: those whose alternative its variants serve. */
export function refusedForms(forms: readonly LenientForm[], variants: Variants | undefined): LenientForm[] {
  if (!variants) return []
  return forms.filter((form) => variants[form.assumption] === form.alternative)
}

/**
 * The plate form a client used where it sent `sent` for the visit's `given`: a plate that reaches the same
 * vehicle only because relay-mock ignores case, spaces and hyphens. Undefined when it is sent as given, or
 * is another plate altogether (the flow rules judge that).
 */
export function plateForm(sent: string, given: string, where: string): LenientForm | undefined {
  if (sent === given || normalizePlate(sent) !== normalizePlate(given)) return undefined
  return {
    assumption: 'plate.format',
    alternative: 'exact-match',
    where,
    sent: JSON.stringify(sent),
    instead: `${JSON.stringify(given)}, character for character, as the visit gave it`,
    status: 422,
  }
}

/**
 * The refusal a world served under the strict alternatives answers for the first form it refuses: its
 * status, relay-mock's error shape, the form named and what to send instead.
 */
export function formRefusal(
  form: LenientForm,
  refused: readonly LenientForm[],
): { status: number; message: string; field?: FieldError } {
  const all = refused.map(describeForm).join('; and ')
  const message = `This service reads only the forms the interface shows (variant ${form.assumption}=${form.alternative}): ${all}.`
  return { status: form.status, message, ...(form.field ? { field: form.field } : {}) }
}

/** One lenient form in words: `the query: _ (not documented for GET /vehicles); send only plate=<plate> (query.extra=refused)`. */
export function describeForm(form: LenientForm): string {
  return `${form.where}: ${form.sent}; send ${form.instead} (${form.assumption}=${form.alternative})`
}
