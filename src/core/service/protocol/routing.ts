// Which endpoint a method and path name, or the 404 or 405 that answers them; `Allow` and HEAD.
import { toProblem, type Reply } from '../problems.js'
import type { Route } from '../route.js'
import { headOf, matchesOf, matchPath, SERVICE_TABLE, staticMatches, type CompiledRoute } from './table.js'
import { KNOWN_SLIPS, notFound } from './not-found.js'

/**
 * The documented endpoint a method and path name, e.g. `GET /vehicles`; null when none does.
 * @example routeOf('GET', '/vehicles') // 'GET /vehicles'
 */
export function routeOf(
  method: string,
  path: string,
  table: ReadonlyArray<CompiledRoute> = SERVICE_TABLE,
): string | null {
  const parts = path.split('/').slice(1)
  const lookup = method === 'HEAD' ? 'GET' : method
  for (const candidate of table) {
    if (candidate.route.method === lookup && matchPath(candidate, parts))
      return method === 'HEAD' ? headOf(candidate.route).id : candidate.route.id
  }
  return null
}

/** The order `Allow` lists methods in: the reading ones first, OPTIONS last. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']

/**
 * The `Allow` header of a path whose routes answer `methods`: HEAD wherever GET is (RFC 9110 9.3.2),
 * and OPTIONS, which every known path answers.
 * @example allowOf(['POST', 'GET']) // 'GET, HEAD, POST, OPTIONS'
 */
export function allowOf(methods: Iterable<string>): string {
  const all = new Set(methods)
  if (all.has('GET')) all.add('HEAD')
  all.add('OPTIONS')
  return [...all].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(', ')
}

/**
 * The route a method and path reach, or the protocol's own answer: 204 with `Allow` for OPTIONS on a
 * known path, 405 with `Allow` for a method the path lacks, 404 (with the nearest path) for an unknown
 * path, whatever the method. HEAD reaches the path's GET route (see headOf).
 * @example resolveRoute(SERVICE_TABLE, 'OPTIONS', '/vehicles') // { reply: { status: 204, headers: { allow: 'GET, HEAD, POST, OPTIONS' } } }
 */
export function resolveRoute(
  compiled: ReadonlyArray<CompiledRoute>,
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { reply: Reply } {
  const lookup = method === 'HEAD' ? 'GET' : method
  const matches = staticMatches(compiled).get(path) ?? matchesOf(compiled, path.split('/').slice(1))
  // A static path's match is answered as it is (frozen, shared): no object is made for a lookup.
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i]
    if (match.route.method === lookup)
      return method === 'HEAD' ? { route: headOf(match.route), params: match.params } : match
  }
  const allowed = matches.map((match) => match.route.method)
  if (allowed.length === 0) return { reply: notFound(compiled, path) }
  // OPTIONS describes the path, not a world: it needs no token, and its answer has no body.
  if (method === 'OPTIONS') return { reply: { status: 204, body: undefined, headers: { allow: allowOf(allowed) } } }
  return { reply: methodNotAllowed(method, path, allowed) }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): Reply {
  const allow = allowOf(allowed)
  const slip = KNOWN_SLIPS.find((known) => known.method === method && known.path === path)
  return toProblem(405, slip?.message ?? `${method} ${path} is not an endpoint; ${path} answers ${allow}.`, undefined, {
    allow,
  })
}
