// The admin routes behind the live page: the page itself (GET /__relay/ for a browser), its poll
// (GET /__relay/live), the verdicts for scripts (GET /__relay/visits) and the journal as HAR.
import { toHar } from '../har.js'
import type { Reply } from '../../core/problems.js'
import { header } from '../../core/protocol.js'
import { defineRoute, type Route, type RouteContext } from '../../core/route.js'
import { VISIT_DEFAULTS, toVisitJson } from './visits.js'
import { toLivePage, toLivePayload } from './page.js'
import type { LiveView } from './state.js'
import { onlyAdminSeesAll, PAGE_MAX, pagingOf } from '../paging.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'

type Headers = RouteContext<unknown, unknown>['headers']

/** True when the client would rather have a page than JSON: a browser's navigation asks for text/html. */
export function acceptsHtml(headers: Headers): boolean {
  return /\btext\/html\b/i.test(header(headers, 'accept') ?? '')
}

/** The base URL the client used, from its Host header (the admin API does not otherwise know its address). */
function baseUrlOf(headers: Headers): string {
  const host = header(headers, 'host')
  const proto = header(headers, 'x-forwarded-proto')?.split(',')[0]?.trim() || 'http'
  return host ? `${proto}://${host}` : 'http://relay.test'
}

function route(path: string, summary: string, handle: Route<Record<string, string>, unknown>['handle']): Route<any, any> {
  return defineRoute<Record<string, string>, unknown>({ method: 'GET', path, integration: 'admin', summary, answers: {}, handle }) as Route<any, any>
}

function quietOf(query: Record<string, string>): number {
  const ms = Number(query.quiet)
  return Number.isFinite(ms) && ms > 0 ? ms : VISIT_DEFAULTS.quietMs
}

/**
 * The live page's routes. `index` answers GET /__relay/ for clients that want JSON (the admin index).
 * @example [...adminRoutes, ...liveRoutes(createLiveState(service), () => ({ status: 200, body: { endpoints } }))]
 */
export function liveRoutes(live: LiveView, index: () => Reply): Route<any, any>[] {
  const mock = live.service
  return [
    {
      ...route('/__relay/', 'The live page (for a browser; open it as /__relay/#token=<token>), else the admin index', ({ headers }) => {
        if (!acceptsHtml(headers)) return index()
        return {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
          body: toLivePage(live),
        }
      }),
      public: true,
    },
    route('/__relay/live', "The live page's poll: its fragments when anything changed since ?state=", ({ world, query }) => ({
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: toLivePayload(live, world, {
        now: Date.now(),
        state: query.state || undefined,
        have: query.have ? query.have.split(',') : [],
      }),
    })),
    route('/__relay/visits', "The world's visits with their verdicts, in pages (?since=<seq>: only visits with newer requests; ?limit=<n>; next is the since of the next page; ?quiet=<ms>)", ({ world, query }) => {
      const paging = pagingOf(query)
      if ('status' in paging) return paging
      const quietMs = quietOf(query)
      const { visits } = live.snapshot(world, { now: Date.now(), quietMs })
      const newer = visits.filter((v) => (v.requests.at(-1)?.seq ?? 0) > paging.since)
      const page = newer.slice(0, paging.limit)
      return {
        status: 200,
        body: {
          world: world.id,
          scenario: world.scenario.name,
          quietMs,
          visits: page.map(toVisitJson),
          ...(newer.length > page.length ? { next: page.at(-1)!.requests.at(-1)!.seq } : {}),
        },
      }
    }),
    route('/__relay/journal.har', `The world's requests as HAR 1.2, in pages (?since=<seq>, ?limit=<n> up to ${PAGE_MAX}; the header x-relay-next is the since of the next page; ?scope=all for every world)`, ({ world, query, headers, admin }) => {
      const refused = onlyAdminSeesAll(query, admin)
      if (refused) return refused
      const paging = pagingOf(query)
      if ('status' in paging) return paging
      const all = query.scope === 'all'
      const newer = all ? mock.journal.entries(paging.since) : live.entries(world).filter((entry) => entry.seq > paging.since)
      const page = newer.slice(0, paging.limit)
      return {
        status: 200,
        headers: {
          'content-disposition': 'attachment; filename="relay-mock-journal.har"',
          'cache-control': 'no-store',
          ...(newer.length > page.length ? { 'x-relay-next': String(page.at(-1)!.seq) } : {}),
        },
        body: toHar(page, {
          baseUrl: baseUrlOf(headers),
          version: RELAY_MOCK_VERSION,
          comment: all ? 'Every request relay-mock received' : `The requests of ${world.id} (scenario ${world.scenario.name})`,
        }),
      }
    }),
  ]
}
