// The dev tools mounted on a service (the admin API, the live page) and their routes. Their paths are
// theirs alone and are answered before the service's; their auth is their own, since the admin token
// reaches every world and a public route (the OpenAPI documents, the live page's shell) reads none.
import { describeError, RelayMockError } from '../errors.js'
import { maskAuthorization } from '../mask.js'
import { toProblem, type Reply } from './problems.js'
import {
  compileRoutes,
  header,
  parseBearer,
  parseQuery,
  pendingBodyRefusal,
  readJsonBody,
  resolveRoute,
  type CompiledRoute,
} from './protocol.js'
import { CONTINUE, toResponse, withoutBody } from './response.js'
import type { Route } from './route.js'
import type {
  ExtensionRefusals,
  RelayRequest,
  RelayResponse,
  RelayService,
  RelayServiceSettings,
  ServiceExtension,
} from './service.js'
import type { World } from './world.js'
import type { Worlds } from './worlds.js'

/**
 * A service's dev tools: mounting one, telling whether a path is theirs, and answering it.
 * @example
 * const extensions = createExtensions({ settings, worlds })
 * extensions.use(devtools(), service)
 * if (extensions.isExtensionPath('/__relay/worlds')) answer = await extensions.answer(request, '/__relay/worlds', '')
 */
export function createExtensions({ settings, worlds }: { settings: RelayServiceSettings; worlds: Worlds }) {
  const mounted: ServiceExtension[] = []
  let compiled: CompiledRoute[] = []
  /** Each route's refusals, as the extension that brought it words them. */
  const refusalsOf = new WeakMap<Route, ExtensionRefusals>()
  /** The first segments of the dev tools' paths, with their slash (e.g. `/__relay`): theirs alone. */
  const prefixes: string[] = []

  /** Mounts a dev tool: its routes and its journal subscription. */
  function use(extension: ServiceExtension, service: RelayService): void {
    mounted.push(extension)
    const routes = extension.routes?.(service) ?? []
    compiled = [...compiled, ...compileRoutes(routes)]
    const refusals = { ...GENERIC_REFUSALS, ...extension.refusals }
    for (const route of routes) refusalsOf.set(route, refusals)
    for (const route of routes) {
      const prefix = `/${route.path.split('/')[1]}`
      if (!prefixes.includes(prefix)) prefixes.push(prefix)
    }
  }

  /** Whether a path's first segment is a dev tool's: `/__relay` and `/__relay/...`, not `/__relayx`. */
  function isExtensionPath(path: string): boolean {
    for (const prefix of prefixes) {
      if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === SLASH))
        return true
    }
    return false
  }

  /** Answers a request on a dev tool's path; a tool's failure is an answer too. */
  async function answer(request: RelayRequest, path: string, search: string): Promise<RelayResponse> {
    const response = await respond(request, path, search).catch((error: unknown) =>
      toResponse(toProblem(error instanceof RelayMockError ? 422 : 500, describeError(error))),
    )
    return request.method === 'HEAD' && response !== CONTINUE ? withoutBody(response) : response
  }

  async function respond(request: RelayRequest, path: string, search: string): Promise<RelayResponse> {
    const found = resolveRoute(compiled, request.method, path)
    if ('reply' in found) return toResponse(found.reply)
    const query = parseQuery(search)
    const reached = adminWorld(
      request,
      query,
      worlds,
      settings.adminToken,
      refusalsOf.get(found.route) ?? GENERIC_REFUSALS,
    )
    if ('reply' in reached) {
      if (!found.route.public) return toResponse(reached.reply)
    } else reached.world.lastUsed = Date.now()
    // A public route (the OpenAPI documents, the admin index, the live page's shell) reads no world.
    const world = 'world' in reached ? reached.world : worlds.first()
    const admin = 'world' in reached && reached.admin
    // A body still to come (Expect: 100-continue) is refused at once for what its headers show, as the
    // service's routes refuse it: a declared length over the limit, a type that is not JSON.
    if (request.bodyPending) {
      const refused = pendingBodyRefusal(request, found.route, settings.bodyLimit)
      return refused ? toResponse(refused) : CONTINUE
    }
    // The dev tools' bodies are read as the service's are: JSON, within the limit, or the refusal that says why.
    const body = readJsonBody(request, found.route, settings.bodyLimit)
    if (body && 'reply' in body) return toResponse(body.reply)
    return toResponse(
      await found.route.handle({
        world,
        params: found.params,
        query,
        body: body?.value,
        headers: request.headers,
        admin,
      }),
    )
  }

  return {
    /** The dev tools mounted, in order: each hears of every entry recorded and every world reset. */
    mounted: mounted as ReadonlyArray<ServiceExtension>,
    use,
    isExtensionPath,
    answer,
  }
}

export type Extensions = ReturnType<typeof createExtensions>

/**
 * The world an admin call reads or changes: its bearer token's, and no other. The admin token
 * reaches every world (`?world=<id>`, else the first). Tokens are never read from the URL, where
 * they would land in logs and histories.
 */
function adminWorld(
  request: RelayRequest,
  query: Record<string, string>,
  worlds: Worlds,
  adminToken: string | undefined,
  refusals: ExtensionRefusals,
): { world: World; admin: boolean } | { reply: Reply } {
  const challenge = { 'www-authenticate': 'Bearer realm="relay-admin"' }
  const authorization = header(request.headers, 'authorization')
  if (!authorization) {
    return { reply: toProblem(401, refusals.noToken, undefined, challenge) }
  }
  const bearer = parseBearer(authorization)
  const token = bearer.verdict === 'ok' ? bearer.token : undefined
  if (!token) {
    return {
      reply: toProblem(
        401,
        `The Authorization header is malformed (${maskAuthorization(authorization)}). Please send exactly: Authorization: Bearer <token>.`,
        undefined,
        challenge,
      ),
    }
  }
  if (adminToken !== undefined && token === adminToken) {
    if (query.world === undefined) {
      const first = worlds.first() as World | undefined
      // relay-mock proxy starts with none: it makes a world for each token on its first request.
      if (first === undefined)
        return {
          reply: toProblem(
            404,
            'No world exists yet: relay-mock proxy makes one for each token your client sends, on its first request. Please send a request through the proxy first.',
          ),
        }
      return { world: first, admin: true }
    }
    const chosen = worlds.byId.get(query.world)
    if (chosen) return { world: chosen, admin: true }
    return { reply: toProblem(404, refusals.unknownWorld(query.world)) }
  }
  const world = worlds.byToken.get(token)
  if (!world || (request.world && world !== request.world)) {
    return { reply: toProblem(401, refusals.unknownToken, undefined, challenge) }
  }
  return { world, admin: false }
}

/** The refusals of an extension that words none: they name no route of any tool. */
const GENERIC_REFUSALS: ExtensionRefusals = {
  noToken: "This route reads and changes one world: please send that world's token as Authorization: Bearer <token>.",
  unknownToken: "The bearer token is not one of this mock's worlds. Please send a token the mock gave you.",
  unknownWorld: (id) => `No world has the id ${id}. Please name one of the mock's worlds.`,
}

const SLASH = 47
