// The answers of the live page's routes (./routes.ts), loaded on the first request for one: they judge
// visits by every conformance rule and draw diagrams, which `relay-mock serve` should not load to start.
import { toHar } from '../har.js'
import type { Reply } from '../../core/service/problems.js'
import { header } from '../../core/service/protocol.js'
import type { RouteContext } from '../../core/service/route.js'
import { VISIT_DEFAULTS, toVisitJson } from './visits.js'
import { toLivePage, toLivePayload } from './page.js'
import { createLiveState } from './state.js'
import type { ResetMarks } from './resets.js'
import { onlyAdminSeesAll, pagingOf } from '../paging.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'

type Context = RouteContext<Record<string, string>, unknown>

/** The live page's answers over one service, each given its route's context. */
export interface LiveAnswers {
  page(context: Context): Reply
  poll(context: Context): Reply
  visits(context: Context): Reply
  har(context: Context): Reply
}

/** The base URL the client used, from its Host header (the admin API does not otherwise know its address). */
function baseUrlOf(headers: Context['headers']): string {
  const host = header(headers, 'host')
  const proto = header(headers, 'x-forwarded-proto')?.split(',')[0]?.trim() || 'http'
  return host ? `${proto}://${host}` : 'http://relay.test'
}

function quietOf(query: Record<string, string>): number {
  const ms = Number(query.quiet)
  return Number.isFinite(ms) && ms > 0 ? ms : VISIT_DEFAULTS.quietMs
}

/**
 * The live page's answers over the service of `marks`, whose resets it takes into account from the start.
 * @example const answers = createLiveAnswers(createResetMarks(service)); answers.visits(context)
 */
export function createLiveAnswers(marks: ResetMarks): LiveAnswers {
  const live = createLiveState(marks.service, marks)
  const mock = live.service
  return {
    page: () => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body: toLivePage(live),
    }),
    poll: ({ world, query }) => ({
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: toLivePayload(live, world, {
        now: Date.now(),
        state: query.state || undefined,
        have: query.have ? query.have.split(',') : [],
      }),
    }),
    visits: ({ world, query }) => {
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
    },
    har: ({ world, query, headers, admin }) => {
      const refused = onlyAdminSeesAll(query, admin)
      if (refused) return refused
      const paging = pagingOf(query)
      if ('status' in paging) return paging
      const all = query.scope === 'all'
      const newer = all
        ? mock.journal.entries(paging.since)
        : live.entries(world).filter((entry) => entry.seq > paging.since)
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
          comment: all
            ? 'Every request relay-mock received'
            : `The requests of ${world.id} (scenario ${world.scenario.name})`,
        }),
      }
    },
  }
}
