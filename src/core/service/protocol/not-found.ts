// The 404's suggestions: the interface's two slips (a request its text writes by mistake, the endpoint
// it means) and the table's path nearest to one the service lacks.
import type { ServiceRouteId } from '../handlers/index.js'
import { toProblem, type Reply } from '../problems.js'
import { editDistance } from '../../text.js'
import { matchPath, routeById, SERVICE_TABLE, type CompiledRoute } from './table.js'

/** One slip of the interface's text: a request it writes by mistake, the endpoint it means, and what the mock says. */
export interface Slip {
  /** The method written by mistake; undefined when the path is wrong whatever the method. */
  method?: string
  /** The path as the interface writes it. */
  path: string
  /** The endpoint the interface means, as the route table names it. */
  meant: ServiceRouteId
  /** The mock's answer to the slip: what was wrong, and what to send. */
  message: string
}

/**
 * The interface's two slips, taught rather than hidden: the mock answers them (404, 405) with their
 * message, the HAR reader finds the service's requests by them, and the live page starts a visit at them.
 * @example KNOWN_SLIPS.find((slip) => slip.path === '/rental-comapnies')?.meant // 'GET /rental-companies'
 */
export const KNOWN_SLIPS: ReadonlyArray<Slip> = Object.freeze([
  {
    path: '/rental-comapnies',
    meant: 'GET /rental-companies',
    message:
      'The path is misspelled: use /rental-companies (the interface\'s request listing spells it "rental-comapnies" by mistake; its client code uses /rental-companies).',
  },
  {
    method: 'GET',
    path: '/payment',
    meant: 'POST /payment',
    message:
      "GET /payment is not an endpoint: the simple payment is POST /payment with a JSON body (the interface's request listing shows GET by mistake; its client code sends POST).",
  },
])

export function notFound(compiled: ReadonlyArray<CompiledRoute>, path: string): Reply {
  const trimmed = withoutTrailingSlash(path)
  const slip = KNOWN_SLIPS.find(
    (known) => known.method === undefined && (known.path === path || known.path === trimmed),
  )
  if (slip) return toProblem(404, slip.message)
  const known = [...new Set(compiled.map((c) => c.route.path))]
  if (trimmed !== path && compiled.some((c) => matchPath(c, trimmed.split('/').slice(1)))) {
    return toProblem(404, `No endpoint has the path ${path}: drop the trailing slash (${trimmed}).`)
  }
  const near = nearestPath(compiled, trimmed)
  const hint = near ? ` Did you mean ${near}?` : ''
  const list = known.filter((p) => !p.includes(':')).join(', ')
  return toProblem(
    404,
    `No endpoint has the path ${path}.${hint} The service's paths are ${list} (and each link, e.g. /vehicles/<id>).`,
  )
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/** The table's path nearest to `path` (a link's `/:id` left off), when at most 3 edits away: the 404's "Did you mean". */
function nearestPath(compiled: ReadonlyArray<CompiledRoute>, path: string): string | undefined {
  const near = [...new Set(compiled.map((c) => c.route.path))]
    .map((candidate) => ({ candidate, distance: editDistance(path, candidate.replace(/\/:id$/, '')) }))
    .sort((a, b) => a.distance - b.distance)[0]
  return near && near.distance <= 3 ? near.candidate : undefined
}

/**
 * The path of the table a request's path names or most likely means, as the mock's 404 teaches it:
 * its own route's, the same without a trailing slash, the path a known slip means, or the nearest
 * (at most 3 edits away); undefined when none is near. What the live page starts a visit by.
 * @example meantPath('/rental-comapnies') // '/rental-companies'
 */
export function meantPath(path: string, table: ReadonlyArray<CompiledRoute> = SERVICE_TABLE): string | undefined {
  const trimmed = withoutTrailingSlash(path)
  const parts = trimmed.split('/').slice(1)
  const own = table.find((candidate) => matchPath(candidate, parts))
  if (own) return own.route.path
  const slip = KNOWN_SLIPS.find((known) => known.path === trimmed)
  if (slip) return routeById(slip.meant)?.path
  return nearestPath(table, trimmed)
}
