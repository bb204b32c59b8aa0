// The route table: routes compiled once, a path matched against them, and a route found by its id
// (`POST /vehicles`).
import { serviceRoutes } from '../handlers/index.js'
import type { Route } from '../route.js'

export interface CompiledRoute {
  route: Route
  segments: string[]
}

export function compileRoutes(routes: ReadonlyArray<Route>): CompiledRoute[] {
  return routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }))
}

type Match = { route: Route; params: Record<string, string> }

/** Every route of a table that a path's segments match, in the table's order, with their parameters. */
export function matchesOf(compiled: ReadonlyArray<CompiledRoute>, parts: string[]): Match[] {
  const matches: Match[] = []
  for (const candidate of compiled) {
    const params = matchPath(candidate, parts)
    if (params) matches.push({ route: candidate.route, params })
  }
  return matches
}

const staticIndexes = new WeakMap<ReadonlyArray<CompiledRoute>, Map<string, readonly Match[]>>()

/**
 * The matches of each path a table names without parameters (`/vehicles`), found once per table:
 * what nearly every request asks for, resolved without splitting its path. Frozen: requests share them.
 */
export function staticMatches(compiled: ReadonlyArray<CompiledRoute>): Map<string, readonly Match[]> {
  let index = staticIndexes.get(compiled)
  if (!index) {
    index = new Map()
    for (const { route } of compiled) {
      if (route.path.includes(':') || index.has(route.path)) continue
      const matches = matchesOf(compiled, route.path.split('/').slice(1))
      for (const match of matches) Object.freeze(Object.freeze(match).params)
      index.set(route.path, Object.freeze(matches))
    }
    staticIndexes.set(compiled, index)
  }
  return index
}

export function matchPath(compiled: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (compiled.segments.length !== parts.length) return undefined
  let params: Record<string, string> | undefined
  for (let i = 0; i < parts.length; i++) {
    const segment = compiled.segments[i]
    if (segment.startsWith(':')) {
      // `/vehicles/` is a trailing slash, not a vehicle with an empty id.
      if (parts[i] === '') return undefined
      ;(params ??= {})[segment.slice(1)] = safeDecode(parts[i])
    } else if (segment !== parts[i]) return undefined
  }
  return params ?? {}
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The service's own route table, compiled once. */
export const SERVICE_TABLE: ReadonlyArray<CompiledRoute> = compileRoutes(serviceRoutes)

const heads = new WeakMap<Route, Route>()

/**
 * A GET route as HEAD answers it: the same schemas and handler (the pipeline then sends the headers
 * without the body), under an id of its own, so that the journal, the rules and the armed faults never
 * take a HEAD for the GET a flow expects.
 * @example headOf(vehiclesGet).id // 'HEAD /vehicles'
 */
export function headOf(route: Route): Route {
  let head = heads.get(route)
  if (!head) {
    head = { ...route, method: 'HEAD' as Route['method'], id: `HEAD ${route.path}` }
    heads.set(route, head)
  }
  return head
}

/**
 * The route of the service's table an endpoint's name gives (`POST /vehicles`, `HEAD /vehicles` too);
 * undefined for null (a request no route answered) or a name the table does not have.
 * @example routeById('POST /vehicles')?.body !== undefined // true: it reads a body
 */
export function routeById(id: string | null): Route | undefined {
  return id === null ? undefined : routesById.get(id)
}

const routesById: ReadonlyMap<string, Route> = new Map(
  SERVICE_TABLE.flatMap(({ route }) =>
    (route.method === 'GET' ? [route, headOf(route)] : [route]).map((each) => [each.id, each] as const),
  ),
)
