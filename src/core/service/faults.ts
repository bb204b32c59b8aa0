// Faults: the service failing a request on purpose, at one step of a flow, so that what a client does
// when the network or the service lets it down can be judged. One table of kinds, one table of steps;
// the scenarios, `serve --fault`, the admin API, the conformance matrix and docs/faults.md all read these.
// A fault is armed on a world (its count lives there, so a reset re-arms it and worlds never share one).
import { RelayMockError } from '../errors.js'
import { toProblem, type Reply } from './problems.js'

/** The requests of the two flows a fault can break, by step name. */
export const FAULT_STEPS = {
  'company-lookup': 'GET /rental-companies',
  'vehicle-lookup': 'GET /vehicles',
  'vehicle-create': 'POST /vehicles',
  'custodian-create': 'POST /custodians',
  'payment-create': 'POST /payments',
  'simple-payment': 'POST /payment',
} as const
// (handlers/index.ts checks that each of these routes is in the route table.)

export type FaultStep = keyof typeof FAULT_STEPS
export type FaultRoute = (typeof FAULT_STEPS)[FaultStep]

// The service's deliberate waits: each as short as its check allows, so that a run lasts as long as its
// longest case and no longer (docs/faults.md#why-the-waits-are-what-they-are says why each is what it is).

/** How long a `slow` answer takes: half again a too-short client timeout (1 s); conform adds it to the case's RELAY_REQUEST_TIMEOUT_MS. */
export const SLOW_FAULT_MS = 1_500
/** The `Retry-After` of `unavailable`, in seconds: a client that backs off 1 s of its own accord, ignoring it, comes back too soon. */
export const RETRY_AFTER_SECONDS = 2
/**
 * How far ahead, at least, the `Retry-After` date of `rate-limited` lies, in seconds: the date names the
 * whole second at or after it. A wait one second short of a date passes (its resolution), so the date
 * lies far enough ahead that a 1 s back-off of the client's own, ignoring it, still comes back too soon.
 */
export const RETRY_AFTER_DATE_AHEAD_S = 2.5

/** The deliberate waits of a fault, by name: the defaults above, or others asked for to measure against. */
export interface FaultWaits {
  slowMs: number
  retryAfterS: number
  dateAheadS: number
}

export const FAULT_WAITS: Readonly<FaultWaits> = Object.freeze({
  slowMs: SLOW_FAULT_MS,
  retryAfterS: RETRY_AFTER_SECONDS,
  dateAheadS: RETRY_AFTER_DATE_AHEAD_S,
})

/**
 * The `Retry-After` date of `rate-limited` answered at `now`: the first whole second at least `aheadS`
 * (RETRY_AFTER_DATE_AHEAD_S) on, so that it lies that far ahead or more, and less than a second more.
 * @example rateLimitedRetryAfter(Date.parse('2026-11-21T09:14:05.300Z')) // 'Sat, 21 Nov 2026 09:14:08 GMT': 2.7 s ahead
 */
export function rateLimitedRetryAfter(now: number, aheadS: number = RETRY_AFTER_DATE_AHEAD_S): string {
  return new Date(Math.ceil((now + aheadS * 1000) / 1000) * 1000).toUTCString()
}

/** How far ahead rateLimitedRetryAfter's date lies, in words, for a case's title and the fault table: `2.5 to 3.5 s ahead`. */
export const RATE_LIMITED_AHEAD = `${RETRY_AFTER_DATE_AHEAD_S} to ${RETRY_AFTER_DATE_AHEAD_S + 1} s ahead`

export interface FaultKindInfo {
  /** True when the request changes the world before it fails: the only case that shows a duplicate. */
  applied: boolean
  /** What the client sees. */
  sees: string
  /** What a correct client does. */
  correct: string
  /** What the in-process msw handlers do instead, when they cannot do the same. */
  inProcess?: string
}

/** Every kind of fault, once: docs/faults.md's fault table is generated from it. */
export const FAULT_KINDS = {
  unavailable: {
    applied: false,
    sees: `503 with \`Retry-After: ${RETRY_AFTER_SECONDS}\` (seconds); nothing was applied`,
    correct:
      'waits at least Retry-After and retries (3 attempts in all are enough; more than 5 fail), or gives up and says so',
  },
  'rate-limited': {
    applied: false,
    sees: `429 with \`Retry-After\` as an HTTP-date ${RATE_LIMITED_AHEAD}; nothing was applied`,
    correct:
      'waits until that date and retries (3 attempts in all are enough; more than 5 fail), or gives up and says so',
  },
  'server-error': {
    applied: true,
    sees: '500 problem JSON, after the request was applied',
    correct:
      'GET: retries after 500 ms or more (sooner is a warning). POST: does not resend blind (a failure); after POST /payments or POST /payment reports `unknown`',
  },
  reset: {
    applied: true,
    sees: 'the connection is reset after the request was applied: no status line at all',
    correct: 'GET: may retry at once. POST: does not resend blind (a failure); after a payment reports `unknown`',
    inProcess: 'a network error (`HttpResponse.error()`)',
  },
  hang: {
    applied: true,
    sees: 'the request was applied and no answer ever comes; the socket stays open until the client gives up',
    correct:
      'gives up after its own timeout (`RELAY_REQUEST_TIMEOUT_MS`) and finishes the visit within the deadline; a payment is `unknown`',
    inProcess: 'a response that never settles (abort it with your timeout signal)',
  },
  truncated: {
    applied: true,
    sees: 'its answer (a 2xx where the request was applied) with a body that stops halfway through its Content-Length, then the connection closes',
    correct: 'treats it as no answer: as `reset`',
    inProcess: 'the body cut in half with no Content-Length mismatch (fetch in-process cannot see a short read)',
  },
  garbage: {
    applied: true,
    sees: "its answer's status (a 2xx where the request was applied) with a proxy's HTML error page for a body, not JSON",
    correct: 'treats it as no answer: as `reset`',
  },
  slow: {
    applied: true,
    sees: `the right answer, ${SLOW_FAULT_MS} ms late`,
    correct: 'waits for it: a request timeout shorter than a real network needs fails here',
  },
  'token-revoked': {
    applied: false,
    sees: '401 for this token from this request on',
    correct: 'tries once more at most (a second retry fails), then gives up and says so; never pays without an id',
  },
} as const satisfies Record<string, FaultKindInfo>

export type FaultKind = keyof typeof FAULT_KINDS
/** `once`: only the first matching request fails (transient); `always`: every one does (persistent). */
export const FAULT_MODES = ['once', 'always'] as const

export type FaultMode = (typeof FAULT_MODES)[number]

/** A fault armed on a world. */
export interface ArmedFault {
  route: FaultRoute
  kind: FaultKind
  mode: FaultMode
  /** Its waits, when not FAULT_WAITS (a run measured against other values). */
  waits?: Readonly<FaultWaits>
}

/** What the journal keeps of a fault a request met. */
export interface FaultRecord {
  kind: FaultKind
  mode: FaultMode
  /** True when the request changed the world before it failed. */
  applied: boolean
}

/** Faults the transport carries out, since no answer (or a broken one) is not data. */
export type TransportFault = 'reset' | 'hang' | 'truncated'

const KINDS = Object.keys(FAULT_KINDS) as FaultKind[]
const STEPS = Object.keys(FAULT_STEPS) as FaultStep[]
const ROUTES = Object.values(FAULT_STEPS) as FaultRoute[]

/** A field of a fault as written, to check and to quote: a string, number or boolean as it reads, anything else as JSON. */
const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value)

/** The step name of a fault's route, e.g. `payment-create` for `POST /payments`. */
export function stepOf(route: FaultRoute): FaultStep {
  return STEPS.find((step) => FAULT_STEPS[step] === route)!
}

/**
 * Reads a fault as people write it: `<route or step>=<kind>[:once|:always]` (default always).
 * Throws a sentence that says what is allowed.
 * @example parseFault('POST /payments=reset:once') // { route: 'POST /payments', kind: 'reset', mode: 'once' }
 */
export function parseFault(text: string): ArmedFault {
  const match = /^\s*(.+?)\s*=\s*([a-z-]+)\s*(?::\s*(once|always))?\s*$/.exec(text)
  if (!match) {
    throw new Error(`"${text}" is not a fault: expected <route>=<kind>[:once], e.g. "POST /payments=reset:once"`)
  }
  const [, where, kind, mode = 'always'] = match
  return toArmedFault({ route: where, kind, mode })
}

/**
 * Reads a command's --fault values; the first that is no fault is a BAD_OPTION error naming the command.
 * @example parseFaults(['POST /payments=reset:once'], 'relay-mock serve') // [{ route: 'POST /payments', kind: 'reset', mode: 'once' }]
 */
export function parseFaults(texts: readonly string[] | undefined, command: string): ArmedFault[] {
  return (texts ?? []).map((text) => {
    try {
      return parseFault(text)
    } catch (error) {
      throw new RelayMockError('BAD_OPTION', `${command}: --fault ${(error as Error).message}.`)
    }
  })
}

/**
 * Checks a fault given as data (admin API, scenario file) and returns it typed; throws a sentence saying
 * what is allowed. `route` may be the route (`POST /payments`) or its step (`payment-create`).
 * @example toArmedFault({ route: 'payment-create', kind: 'hang' })
 */
export function toArmedFault(input: { route?: unknown; step?: unknown; kind?: unknown; mode?: unknown }): ArmedFault {
  const where = asText(input.route ?? input.step ?? '')
    .trim()
    .replace(/\s+/g, ' ')
  const upper = where.replace(/^[a-z]+(?= )/, (m) => m.toUpperCase())
  const route = (ROUTES as string[]).includes(upper)
    ? (upper as FaultRoute)
    : (FAULT_STEPS as Record<string, FaultRoute>)[where]
  if (!route) {
    throw new Error(
      `"${where}" is not a request a fault can break: expected one of ${ROUTES.join(', ')} (or ${STEPS.join(', ')})`,
    )
  }
  const kind = asText(input.kind ?? '')
  if (!(KINDS as string[]).includes(kind))
    throw new Error(`"${kind}" is not a fault: expected one of ${KINDS.join(', ')}`)
  const mode = asText(input.mode ?? 'always')
  if (mode !== 'once' && mode !== 'always') throw new Error(`"${mode}" is not a fault mode: expected once or always`)
  return { route, kind: kind as FaultKind, mode }
}

/** How a fault is written: `POST /payments=reset:once`. */
export function formatFault(fault: ArmedFault): string {
  return `${fault.route}=${fault.kind}${fault.mode === 'once' ? ':once' : ''}`
}

/** Where faults are armed and counted: a world. */
export interface FaultState {
  faults: ArmedFault[]
  faultsAnswered: Map<ArmedFault, number>
}

/**
 * The fault a request to `route` meets in this world now, counting it; undefined when none is due.
 * @example takeFault(world, 'POST /payments')
 */
export function takeFault(world: FaultState, route: string): ArmedFault | undefined {
  // Nearly every request of nearly every world meets no fault: answered without a search.
  if (world.faults.length === 0) return undefined
  const fault = world.faults.find(
    (f) => f.route === route && (f.mode === 'always' || (world.faultsAnswered.get(f) ?? 0) < 1),
  )
  if (fault) world.faultsAnswered.set(fault, (world.faultsAnswered.get(fault) ?? 0) + 1)
  return fault
}

const PROXY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/**
 * The answer a fault gives, from the answer the request would have had (`applied` faults run the handler
 * first) or before it (`undefined` for faults that apply nothing). `now` dates a rate-limited Retry-After;
 * `armedBy` says who armed it (a scenario, or this world).
 * @example faultReply(fault, undefined, Date.now()) // the 503 of `unavailable`
 */
export function faultReply(fault: ArmedFault, answer: Reply | undefined, now: number, armedBy = 'this world'): Reply {
  const waits = fault.waits ?? FAULT_WAITS
  const where = `relay-mock's fault ${formatFault(fault)}, armed by ${armedBy}`
  switch (fault.kind) {
    case 'unavailable':
      return toProblem(
        503,
        `The service is unavailable just now (${where}). Please retry after the Retry-After seconds, or stop; the customer's payment still completes.`,
        undefined,
        {
          'retry-after': String(waits.retryAfterS),
        },
      )
    case 'rate-limited':
      return toProblem(
        429,
        `Too many requests (${where}). Please wait until the Retry-After date before trying again.`,
        undefined,
        {
          'retry-after': rateLimitedRetryAfter(now, waits.dateAheadS),
        },
      )
    case 'token-revoked':
      return revokedReply(where)
    case 'server-error':
      return toProblem(
        500,
        `The service failed after it had recorded the request (${where}). Do not send a POST again blind: look it up first, or report the outcome as unknown.`,
      )
    case 'garbage':
      return {
        status: answer?.status ?? 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: PROXY_PAGE,
      }
    default:
      return answer ?? toProblem(500, 'The fault had no answer to break. This is a bug in relay-mock.')
  }
}

/** How long a fault's `slow` answer is held (its own waits, or the defaults). */
export const slowFaultMs = (fault: ArmedFault): number => (fault.waits ?? FAULT_WAITS).slowMs

/** The 401 every request of a world gets once its token was revoked. */
export function revokedReply(where = "relay-mock's fault token-revoked"): Reply {
  return toProblem(
    401,
    `The bearer token was revoked (${where}). Please stop and ask for a new token; do not retry more than once.`,
    undefined,
    {
      'www-authenticate': 'Bearer realm="relay", error="invalid_token", error_description="The token was revoked"',
    },
  )
}
