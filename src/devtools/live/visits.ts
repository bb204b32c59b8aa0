// Visits: a journal cut into the conversations a location's system had with the service, one per
// paid visit, each judged by the same rules as a conformance case. Live, the visit the system was given
// is not known, so the rules that compare with it come back not-checked (the visit is then partial,
// never passed). The live page, GET /__relay/visits and `conform --from FILE.har` all group and number
// visits this way: 1, 2, 3… in the order they began.
import type { JournalEntry } from '../../core/service/journal.js'
import { meantPath, routeById } from '../../core/service/protocol.js'
import { caseStatus, evaluate, expectedCalls } from '../../core/rules/index.js'
import { routesOf } from '../../core/rules/facts.js'
import type { Check, ExpectedCall, Flow } from '../../core/rules/types.js'

export const VISIT_DEFAULTS = {
  /** A visit with no request for this long is complete. */
  quietMs: 5000,
}

export type VisitStatus = 'passed' | 'warning' | 'partial' | 'failed' | 'in-progress'

/** One visit as the live page and GET /__relay/visits show it. */
export interface LiveVisit {
  /** `visit-<seq of its first request>`: stable while the journal keeps that request. */
  id: string
  /** Its place among the visits shown, 1 for the first: "Visit 3" on the page, `visit-3` in `conform --from`. */
  number: number
  flow: Flow
  /** True once a later visit began, or no request came for `quietMs`. */
  complete: boolean
  /** `in-progress` until complete; then as a case's: `failed`, `partial` (a rule not checked), `warning` or `passed`. */
  status: VisitStatus
  startedAt: string
  lastAt: string
  requests: JournalEntry[]
  checks: Check[]
  expected: ExpectedCall[]
}

export interface GroupOptions {
  /** The current time in ms (Date.now()); without it every visit counts as complete (a finished capture). */
  now?: number
  quietMs?: number
}

/** How the live page says where the missing inputs come from. */
const LIVE_HINT = 'live, the visit your system was given is not known: relay-mock conform gives it and checks this'

/** Each flow by the path of its first call (the company lookup, the simple payment), from the route table. */
const FIRST_CALLS: ReadonlyMap<string, Flow> = new Map(
  (['advanced', 'simple'] as const).map((flow) => [routeById(routesOf(flow)[0])!.path, flow]),
)

/** The flow whose first call a request is or most likely meant (the path the mock's 404 points to), if any. */
function firstCallOf(entry: JournalEntry): Flow | undefined {
  const meant = meantPath(entry.request.path.toLowerCase())
  return meant === undefined ? undefined : FIRST_CALLS.get(meant)
}

/**
 * True for the first call of a visit: the company lookup (advanced) or the simple payment. A misspelt
 * lookup (`/rental-comapnies`, `/rental-company`) or a `GET /payment` still begins one: it is the first
 * call, made wrong.
 */
export function startsVisit(entry: JournalEntry): boolean {
  return firstCallOf(entry) !== undefined
}

/** The flow a visit follows, from its first call: the simple endpoint, else the advanced flow. */
export function flowOf(requests: ReadonlyArray<JournalEntry>): Flow {
  return (requests[0] && firstCallOf(requests[0])) ?? 'advanced'
}

/**
 * Cuts entries (oldest first) into visits: a visit starts at a company lookup or a simple payment, and
 * holds every request until the next start; a request after `quietMs` of silence starts one too. A
 * first call sent again right after the service failed it (5xx) is a retry: it stays in its visit.
 * @example groupVisits(world.journal.entries(), { now: Date.now() })
 */
export function groupVisits(
  entries: ReadonlyArray<JournalEntry>,
  options: GroupOptions = {},
): Array<{ requests: JournalEntry[]; complete: boolean }> {
  const quietMs = options.quietMs ?? VISIT_DEFAULTS.quietMs
  const groups: JournalEntry[][] = []
  let last: number | undefined
  for (const entry of entries) {
    const at = Date.parse(entry.time)
    const quiet = last !== undefined && at - last >= quietMs
    const previous = groups.at(-1)?.at(-1)
    const retry = previous !== undefined && previous.route === entry.route && previous.response.status >= 500
    if (groups.length === 0 || (startsVisit(entry) && !retry) || quiet) groups.push([entry])
    else groups[groups.length - 1].push(entry)
    last = at
  }
  return groups.map((requests, i) => {
    const lastAt = Date.parse(requests[requests.length - 1].time)
    const complete = i < groups.length - 1 || options.now === undefined || options.now - lastAt >= quietMs
    return { requests, complete }
  })
}

/** A visit is the same visit while its place, its first and last request and its completeness are: judged once. */
function visitKey(number: number, requests: ReadonlyArray<JournalEntry>, complete: boolean): string {
  return `${number}-${requests[0].seq}-${requests[requests.length - 1].seq}-${requests.length}-${complete}`
}

/**
 * Groups entries into visits and judges each. A visit seen live has no known visit or client run, so the
 * rules that need them come back `not-checked` (and the visit `partial`); `token` is the world's token,
 * when the entries are one world's.
 * @example checkVisits(entries, { now: Date.now(), token: world.token }).filter((v) => v.status === 'failed')
 */
export function checkVisits(
  entries: ReadonlyArray<JournalEntry>,
  options: GroupOptions & { cache?: Map<string, LiveVisit>; token?: string } = {},
): LiveVisit[] {
  const { cache } = options
  const visits = groupVisits(entries, options).map(({ requests, complete }, i) => {
    const number = i + 1
    const known = cache?.get(visitKey(number, requests, complete))
    if (known) return known
    const flow = flowOf(requests)
    const checks = evaluate({ flow, requests, ...(options.token ? { token: options.token } : {}) }, { hint: LIVE_HINT })
    const visit: LiveVisit = {
      id: `visit-${requests[0].seq}`,
      number,
      flow,
      complete,
      // A visit seen live repeats no flow case: none of its checks is an echo.
      status: complete ? (caseStatus(checks) as Exclude<VisitStatus, 'in-progress'>) : 'in-progress',
      startedAt: requests[0].time,
      lastAt: requests[requests.length - 1].time,
      requests,
      checks,
      expected: expectedCalls({ flow, requests }),
    }
    return visit
  })
  if (cache) {
    cache.clear()
    for (const visit of visits) cache.set(visitKey(visit.number, visit.requests, visit.complete), visit)
  }
  return visits
}

/** A visit for scripts (GET /__relay/visits): its number and verdict, the failed and unchecked rules, and each request in brief. */
export function toVisitJson(visit: LiveVisit) {
  return {
    id: visit.id,
    number: visit.number,
    flow: visit.flow,
    complete: visit.complete,
    status: visit.status,
    startedAt: visit.startedAt,
    lastAt: visit.lastAt,
    rulesBroken: visit.checks.filter((c) => c.status === 'failed').map((c) => c.rule),
    rulesNotChecked: visit.checks.filter((c) => c.status === 'not-checked').map((c) => c.rule),
    requests: visit.requests.map((e) => ({
      seq: e.seq,
      method: e.request.method,
      path: e.request.path,
      search: e.request.search,
      status: e.response.status,
      route: e.route,
    })),
    expected: visit.expected,
    checks: visit.checks,
  }
}
