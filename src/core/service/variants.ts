// Variants: a world served under alternatives of the assumption ledger instead of relay-mock's choices
// (`serve --variant create.status=200-no-location`, `createRelayMock({ variants })`, the admin API).
// The pipeline asks `varyReply` to reshape a reply only in a world that has variants; the one that is
// no reshaping of a reply (an unregistered owner's payment recorded) is read in the simple endpoint's
// handler. The ledger says which alternatives
// are served; `VARIED` is how each is answered, and a test holds the two to the same set.
import { isRecord } from '../exchange/answer.js'
import { ASSUMPTIONS, assumption } from '../ledger/assumptions.js'
import { RelayMockError } from '../errors.js'
import { toProblem, type Reply } from './problems.js'
import { statusText } from '../status.js'

/**
 * The alternatives that refuse a form relay-mock accepts beyond the interface's text (leniency.ts finds
 * those forms), each `<assumption>=<alternative>`: the strict world serves them all at once
 * (`serve --variant strict`), and each can be served alone.
 */
export const STRICT_VARIANTS: Readonly<Record<string, string>> = Object.freeze({
  'auth.scheme': 'exact',
  'request.content-type': 'application-json',
  'query.extra': 'refused',
  'http.get-body': 'refused',
  'custodian.acquired-on': 'datetime-only',
  'plate.format': 'exact-match',
  'request.number-form': 'integer-literal',
  'request.duplicate-keys': 'refused',
})

/** The name `serve --variant` and the variants suite give the strict world. */
export const STRICT = 'strict'

/** A world's variants: assumption id → the alternative it is served under, e.g. `{ 'create.status': '200-no-location' }`. */
export type Variants = Readonly<Record<string, string>>

/** What the pipeline knows of a request when it varies its reply. */
export interface VariedRequest {
  /** The service's route, when the request matched one (its id, method and integration are read). */
  route: { readonly id: string; readonly method: string; readonly integration: string } | undefined
  path: string
}

type Vary = (reply: Reply, request: VariedRequest) => Reply

/** Where an alternative is served other than by reshaping a reply: in a handler, or by the pipeline refusing a form (leniency.ts). */
type Served = Vary | 'handler' | 'pipeline'

/** The extra fields a record carries under `records.extra-fields=extra`: fixed, so that a world's answers stay deterministic. */
export const EXTRA_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
  active: true,
})

const isCreate = (reply: Reply, { route }: VariedRequest) => route?.method === 'POST' && reply.status === 201
const isSimple = ({ route }: VariedRequest) => route?.id === 'POST /payment'

function withoutHeader<H extends Record<string, string | string[]>>(
  headers: H | undefined,
  name: string,
): H | undefined {
  if (!headers || !(name in headers)) return headers
  const { [name]: _, ...rest } = headers
  return rest as H
}

/** A problem's status changed, its body's `status` and `title` with it. */
function restatus(reply: Reply, status: number): Reply {
  const body = reply.body as Record<string, unknown> | null
  const problem =
    typeof body === 'object' && body !== null && typeof body.type === 'string' && typeof body.title === 'string'
  return { ...reply, status, body: problem ? { ...body, status, title: statusText(status) || 'Error' } : body }
}

function withExtras(value: unknown): unknown {
  return isRecord(value) && 'id' in value ? { ...value, ...EXTRA_FIELDS } : value
}

/**
 * How each served alternative is answered, `<assumption>=<alternative>`, in the order they apply: a reply
 * reshaped, or `'handler'` where the handler reads the variant.
 */
export const VARIED: Readonly<Record<string, Served>> = {
  'links.fetchable=not-fetchable': (reply, request) =>
    request.route?.integration === 'links'
      ? toProblem(
          404,
          `The link ${request.path} cannot be fetched: this service answers links with 404 (variant links.fetchable=not-fetchable).`,
        )
      : reply,
  'records.extra-fields=extra': (reply, request) => {
    if (request.route === undefined || reply.status < 200 || reply.status >= 300) return reply
    return { ...reply, body: Array.isArray(reply.body) ? reply.body.map(withExtras) : withExtras(reply.body) }
  },
  'create.status=200-no-location': (reply, request) =>
    isCreate(reply, request) ? { ...reply, status: 200, headers: withoutHeader(reply.headers, 'location') } : reply,
  'create.status=201-no-location': (reply, request) =>
    isCreate(reply, request) ? { ...reply, headers: withoutHeader(reply.headers, 'location') } : reply,
  'simple.answer=id-only': (reply, request) => {
    const body = reply.body as { id?: unknown } | null
    return isSimple(request) && typeof body?.id === 'string' ? { ...reply, body: { id: body.id } } : reply
  },
  'simple.answer=status-accepted': (reply, request) => {
    const body = reply.body as { id?: unknown } | null
    return isSimple(request) && typeof body?.id === 'string'
      ? { ...reply, body: { ...body, status: 'accepted' } }
      : reply
  },
  'simple.refusal-status=400': (reply, request) =>
    isSimple(request) && reply.status === 422 ? { ...reply, status: 400 } : reply,
  'simple.refusal-status=200': (reply, request) =>
    isSimple(request) && reply.status === 422 ? { ...reply, status: 200 } : reply,
  'simple.unknown-owner=accepted': 'handler',
  'plate.format=exact-match': 'handler',
  'auth.scheme=exact': 'pipeline',
  'request.content-type=application-json': 'pipeline',
  'query.extra=refused': 'pipeline',
  'http.get-body=refused': 'pipeline',
  'custodian.acquired-on=datetime-only': 'pipeline',
  'request.number-form=integer-literal': 'pipeline',
  'request.duplicate-keys=refused': 'pipeline',
  'invalid.status=400': (reply, request) => (reply.status === 422 && !isSimple(request) ? restatus(reply, 400) : reply),
  'auth.refusal=403': (reply) =>
    reply.status === 401
      ? { ...restatus(reply, 403), headers: withoutHeader(reply.headers, 'www-authenticate') }
      : reply,
  'auth.refusal=401-no-challenge': (reply) =>
    reply.status === 401 ? { ...reply, headers: withoutHeader(reply.headers, 'www-authenticate') } : reply,
  'error.body=json-message': (reply) => {
    const body = reply.body as { message?: unknown } | null
    if (reply.status < 400 || typeof body?.message !== 'string') return reply
    return {
      ...reply,
      body: { message: body.message },
      headers: { ...reply.headers, 'content-type': 'application/json' },
    }
  },
}

/** The reshaping alternatives in their order, each key read once into its assumption and alternative. */
const ORDER: ReadonlyArray<{ id: string; alternative: string; vary: Vary }> = Object.entries(VARIED).flatMap(
  ([key, vary]) => {
    const at = key.indexOf('=')
    return typeof vary === 'function' ? [{ id: key.slice(0, at), alternative: key.slice(at + 1), vary }] : []
  },
)

/**
 * The reply as the world's variants answer it (the reply itself when none reshapes it). Called only for
 * a world that has variants, so a world without pays nothing.
 * @example varyReply({ 'create.status': '200-no-location' }, { status: 201, body, headers: { location } }, request).status // 200
 */
export function varyReply(variants: Variants, reply: Reply, request: VariedRequest): Reply {
  let varied = reply
  for (const { id, alternative, vary } of ORDER) if (variants[id] === alternative) varied = vary(varied, request)
  return varied
}

/**
 * The assumptions with served alternatives that the suite `variants` does not vary, and why: each is
 * served by hand (`serve --variant`) only. Every other assumption with a served alternative is varied
 * there and has the rule `fidelity.<id>`.
 */
export const NOT_VARIED_IN_CONFORM: Readonly<Record<string, string>> = {
  'invalid.status': 'a correct client sends no invalid field, so no flow case meets this answer',
  'links.fetchable': "a client that fetches a link already fails http.known-endpoint under relay-mock's choice",
}

/**
 * The assumptions the suite `variants` varies one by one, each judged by its rule `fidelity.<id>`, in the
 * ledger's order. Those whose alternative refuses a lenient form (STRICT_VARIANTS) are varied together,
 * in the strict world, and judged by `fidelity.strict`.
 */
export const VARIED_ASSUMPTIONS: readonly string[] = ASSUMPTIONS.filter(
  (entry) =>
    entry.alternatives.some((alternative) => alternative.notServed === undefined) &&
    NOT_VARIED_IN_CONFORM[entry.id] === undefined &&
    STRICT_VARIANTS[entry.id] === undefined,
).map((entry) => entry.id)

/** Whether a world's variants are the strict world's: every alternative that refuses a lenient form. */
export function isStrict(variants: Variants | undefined): boolean {
  return (
    variants !== undefined && Object.entries(STRICT_VARIANTS).every(([id, alternative]) => variants[id] === alternative)
  )
}

/** Every alternative a world can be served under, `<assumption>=<alternative>`, in the ledger's order. */
export function servedVariants(): string[] {
  return ASSUMPTIONS.flatMap((entry) =>
    entry.alternatives
      .filter((alternative) => alternative.notServed === undefined)
      .map((alternative) => `${entry.id}=${alternative.id}`),
  )
}

/**
 * Reads variants as the CLI, the admin API and `createRelayMock({ variants })` take them: a list of
 * `<assumption>=<alternative>` or a map. Throws a RelayMockError (`VARIANT_INVALID`) that names what is served.
 * @example toVariants(['create.status=200-no-location']) // { 'create.status': '200-no-location' }
 */
export function toVariants(given: ReadonlyArray<string> | Readonly<Record<string, string>>): Variants {
  const pairs: [string, string][] = Array.isArray(given)
    ? (given as ReadonlyArray<string>).flatMap((text): [string, string][] => {
        // `strict`: every alternative that refuses a form the interface does not show, at once.
        if (typeof text === 'string' && text.trim() === STRICT) return Object.entries(STRICT_VARIANTS)
        const at = typeof text === 'string' ? text.indexOf('=') : -1
        if (at <= 0) throw invalid(`${JSON.stringify(text)} is not <assumption>=<alternative>`)
        return [[text.slice(0, at).trim(), text.slice(at + 1).trim()]]
      })
    : Object.entries(given as Readonly<Record<string, string>>)
  const variants: Record<string, string> = {}
  for (const [id, alternative] of pairs) {
    const entry = assumption(id)
    if (!entry) throw invalid(`no assumption has the id ${JSON.stringify(id)}`)
    const found = entry.alternatives.find((a) => a.id === alternative)
    const served = entry.alternatives.filter((a) => a.notServed === undefined).map((a) => a.id)
    if (!found)
      throw invalid(
        `${id} has no alternative ${JSON.stringify(alternative)}; its alternatives are ${entry.alternatives.map((a) => a.id).join(', ')}`,
      )
    if (found.notServed !== undefined) {
      throw invalid(
        `${id}=${alternative} is not served (${found.notServed})${served.length > 0 ? `; ${id} is served as ${served.join(', ')}` : ''}`,
      )
    }
    if (variants[id] !== undefined && variants[id] !== alternative)
      throw invalid(`${id} is given twice, as ${variants[id]} and ${alternative}`)
    variants[id] = alternative
  }
  return Object.freeze(variants)
}

/** What a refused variant should have been, for a refusal's "expected" part. */
export function expectedVariant(): string {
  return `<assumption>=<alternative>, one of ${servedVariants().join(', ')}, or ${STRICT} for all of ${Object.keys(STRICT_VARIANTS).join(', ')} at once (relay-mock assumptions lists them)`
}

/** Why `text` is no variant the mock serves, or undefined when it is one. */
export function variantRefusal(text: string): string | undefined {
  try {
    toVariants([text])
    return undefined
  } catch (error) {
    return (error as VariantError).why
  }
}

class VariantError extends RelayMockError {
  constructor(readonly why: string) {
    super('VARIANT_INVALID', `Failed to read the variants: ${why}. Please give ${expectedVariant()}.`)
  }
}

function invalid(why: string): RelayMockError {
  return new VariantError(why)
}

/** `create.status=200-no-location, error.body=json-message`: a world's variants in words (empty: none). */
export function formatVariants(variants: Variants | undefined): string {
  if (!variants) return ''
  const strict = isStrict(variants)
  const rest = Object.entries(variants)
    .filter(([id]) => !strict || STRICT_VARIANTS[id] === undefined)
    .map(([id, alternative]) => `${id}=${alternative}`)
  return [...(strict ? [STRICT] : []), ...rest].join(', ')
}
