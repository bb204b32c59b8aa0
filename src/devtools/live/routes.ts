// The admin routes behind the live page: the page itself (GET /__relay/ for a browser), its poll
// (GET /__relay/live), the verdicts for scripts (GET /__relay/visits) and the journal as HAR. Their
// answers (./answers.ts) judge visits by every rule and draw diagrams: they load on the first request
// for one, so the mock starts without them; the routes and their summaries are here from the start.
import type { Reply } from '../../core/service/problems.js'
import { header } from '../../core/service/protocol.js'
import { defineRoute, type Route, type RouteContext } from '../../core/service/route.js'
import type { LiveAnswers } from './answers.js'
import type { ResetMarks } from './resets.js'
import { PAGE_MAX } from '../paging.js'

type Headers = RouteContext<unknown, unknown>['headers']

/** True when the client would rather have a page than JSON: a browser's navigation asks for text/html. */
export function acceptsHtml(headers: Headers): boolean {
  return /\btext\/html\b/i.test(header(headers, 'accept') ?? '')
}

function route(path: string, summary: string, handle: Route<Record<string, string>, unknown>['handle']): Route {
  return defineRoute<Record<string, string>, unknown>({
    method: 'GET',
    path,
    integration: 'admin',
    summary,
    answers: {},
    handle,
  })
}

/**
 * The live page's routes over the service of `marks`. `index` answers GET /__relay/ for clients that want JSON (the admin index).
 * @example [...adminRoutes, ...liveRoutes(createResetMarks(service), () => ({ status: 200, body: { endpoints } }))]
 */
export function liveRoutes(marks: ResetMarks, index: () => Reply): Route[] {
  let loading: Promise<LiveAnswers> | undefined
  // One set of answers per service, made on the first request that needs one (concurrent first requests share it).
  const answers = () =>
    (loading ??= import('./answers.js').then(
      ({ createLiveAnswers }) => createLiveAnswers(marks),
      (error: unknown) => {
        // A load that failed is tried again by the next request, not kept failing until a restart.
        loading = undefined
        throw error
      },
    ))
  return [
    {
      ...route(
        '/__relay/',
        'The live page (for a browser; open it as /__relay/#token=<token>), else the admin index',
        async (context) => (acceptsHtml(context.headers) ? (await answers()).page(context) : index()),
      ),
      public: true,
    },
    route('/__relay/live', "The live page's poll: its fragments when anything changed since ?state=", async (context) =>
      (await answers()).poll(context),
    ),
    route(
      '/__relay/visits',
      "The world's visits with their verdicts, in pages (?since=<seq>: only visits with newer requests; ?limit=<n>; next is the since of the next page; ?quiet=<ms>)",
      async (context) => (await answers()).visits(context),
    ),
    route(
      '/__relay/journal.har',
      `The world's requests as HAR 1.2, in pages (?since=<seq>, ?limit=<n> up to ${PAGE_MAX}; the header x-relay-next is the since of the next page; ?scope=all for every world)`,
      async (context) => (await answers()).har(context),
    ),
  ]
}
