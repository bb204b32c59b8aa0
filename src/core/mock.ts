// The mock service: worlds by token, the route table, and the one request pipeline that both
// transports (the Node server and the msw handlers) call. Fetch-free and Node-free: a request
// is plain data in, plain data out.
import { scenarios as knownScenarios } from '../../scenarios/index.js'
import { serviceRoutes } from './handlers/index.js'
import { RelayMockError } from './errors.js'
import { FAULT_KINDS, faultReply, revokedReply, SLOW_FAULT_MS, takeFault, type ArmedFault, type TransportFault } from './faults.js'
import { createJournal, maskAuthorization, type AuthVerdict, type Journal, type JournalEntry } from './journal.js'
import { toProblem, toValidationProblem, type Reply } from './problems.js'
import type { Route } from './route.js'
import type { Scenario } from './scenario.js'
import { MOCK_DEFAULTS } from './defaults.js'
import { buildWorld, type SeededWorld } from './seed.js'
import { createStore, type Store } from './store.js'
import { createWorld, type World } from './world.js'

export interface RelayServiceOptions {
  /** Bearer tokens, each with its own world. Default `['relay-mock-token']`. */
  tokens?: string[]
  /** The scenario of the worlds made at start. Default `default`. */
  scenario?: string
  /** The faker seed of the base world. Default 2026. */
  seed?: number
  /** How many vehicles the base world holds. Default 24. */
  vehicles?: number
  /** How many requests the journal keeps (the oldest are dropped beyond). Default 10,000. */
  journalLimit?: number
  /** The largest body accepted, in bytes. Default 1 MiB. */
  bodyLimit?: number
  /**
   * Answer the service's endpoints this many milliseconds late, or a random time in `[min, max]`,
   * to see how a client behaves against a slow service. Default 0 (the admin API is never delayed).
   */
  latency?: number | readonly [number, number]
  /** Dev tools to mount at start (see `use`). Default none: the bare service. */
  extensions?: ServiceExtension[]
  /** Faults armed on every world (`serve --fault`), after each world's scenario's own. Default none. */
  faults?: ReadonlyArray<ArmedFault>
}

/** The settings a service runs with: its options over MOCK_DEFAULTS. */
export type RelayServiceSettings = Required<Omit<RelayServiceOptions, 'extensions'>>

export { MOCK_DEFAULTS }

/**
 * What a dev tool plugs into the service (the admin API, the live page): routes of its own, answered
 * before the service's and given the caller's world, and a subscription to what the service records.
 * The core knows nothing else of them.
 * @example service.use({ routes: () => [myRoute], onRecord: (entry) => console.log(entry.route) })
 */
export interface ServiceExtension {
  /** Routes under path prefixes of their own (e.g. `/__relay/...`); each handler gets the caller's world. */
  routes?(service: RelayService): ReadonlyArray<Route<any, any>>
  /** Each request as the journal records it, with the world it was attributed to. */
  onRecord?(entry: JournalEntry, world: World | undefined): void
  /** A world was re-seeded in place (a reset or a scenario switch). */
  onReset?(world: World): void
}

/** A request as plain data: what a transport hands the mock. */
export interface RelayRequest {
  method: string
  /** Path and query string, e.g. `/vehicles?plate=AB123`. */
  url: string
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>
  body?: string
  /** Set by a transport that stopped reading a body beyond the limit. */
  bodyTooLarge?: boolean
  /** The world that requests on this listener belong to: only its token is accepted there. */
  world?: World
}

/** An answer as plain data: what a transport writes back. */
export interface RelayResponse {
  status: number
  headers: Record<string, string>
  text: string
  /**
   * A fault the transport must carry out instead of writing the answer plainly: reset the connection,
   * never answer, or stop the body halfway. Transports that cannot do one say so (see FAULT_KINDS).
   */
  fault?: TransportFault
  /** For `hang`: call when the client gave up (the connection closed), to date the journal entry. */
  onClosed?(): void
}

export { RelayMockError } from './errors.js'

/** The slips the interface itself makes, taught rather than hidden. */
const KNOWN_SLIPS: Record<string, string> = {
  '/rental-comapnies':
    'The path is misspelled: use /rental-companies (the interface\'s request listing spells it "rental-comapnies" by mistake; its client code uses /rental-companies).',
}

interface CompiledRoute {
  route: Route<any, any>
  segments: string[]
}

function compile(routes: ReadonlyArray<Route<any, any>>): CompiledRoute[] {
  return routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }))
}

function matchPath(compiled: CompiledRoute, parts: string[]): Record<string, string> | undefined {
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

function header(headers: RelayRequest['headers'], name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * Creates the mock service: one world per token, all seeded from the named scenario.
 * @example
 * const mock = await createRelayService({ scenario: 'new-vehicle' })
 * const answer = await mock.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: 'Bearer relay-mock-token' } })
 */
export async function createRelayService(options: RelayServiceOptions = {}): Promise<RelayService> {
  const { extensions: mounted = [], ...rest } = options
  const settings: RelayServiceSettings = { ...MOCK_DEFAULTS, ...withoutUndefined(rest) }
  const seeds = new Map<string, { seeded: SeededWorld; base: Promise<Store> }>()
  const worlds = new Map<string, World>()
  const journal = createJournal({ limit: settings.journalLimit })
  const compiledService = compile(serviceRoutes)
  let worldCount = 0
  let seq = 0

  function scenarioNamed(name: string): Scenario {
    const scenario = knownScenarios.get(name)
    if (!scenario) {
      throw new RelayMockError(
        'SCENARIO_NOT_FOUND',
        `Failed to find the scenario "${name}". Please use one of: ${[...knownScenarios.keys()].join(', ')}.`,
      )
    }
    return scenario
  }

  /** A scenario's seeded world and its loaded store, built once and shared by every world of the scenario. */
  function seeded(scenario: Scenario): { seeded: SeededWorld; base: Promise<Store> } {
    const key = `${scenario.name}|${settings.seed}|${settings.vehicles}`
    let found = seeds.get(key)
    if (!found) {
      const world = buildWorld(scenario, { seed: settings.seed, vehicles: settings.vehicles })
      const base = createStore()
      found = { seeded: world, base: base.load(world.data).then(() => base) }
      seeds.set(key, found)
    }
    return found
  }

  async function addWorld({ token, scenario, faults = [] }: { token?: string; scenario?: string; faults?: ReadonlyArray<ArmedFault> } = {}): Promise<World> {
    const chosen = scenarioNamed(scenario ?? settings.scenario)
    const worldToken = token ?? newToken()
    if (worlds.has(worldToken)) {
      throw new RelayMockError('TOKEN_IN_USE', `Failed to add a world: the token ${worldToken} has one already. Please choose another token.`)
    }
    const { seeded: seed, base } = seeded(chosen)
    const world = createWorld({
      id: `world-${++worldCount}`,
      token: worldToken,
      scenario: chosen,
      seeded: seed,
      base: await base,
      journalLimit: settings.journalLimit,
      faults: [...settings.faults, ...faults],
    })
    worlds.set(worldToken, world)
    return world
  }

  /** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
  async function resetWorld(world: World, scenario?: string): Promise<World> {
    const chosen = scenarioNamed(scenario ?? world.scenario.name)
    const { seeded: seed, base } = seeded(chosen)
    // The faults armed for this world (not its old scenario's) stay armed, and count again from zero.
    const own = world.faults.filter((fault) => !world.scenario.faults?.includes(fault))
    const fresh = createWorld({ id: world.id, token: world.token, scenario: chosen, seeded: seed, base: await base, journalLimit: settings.journalLimit, faults: own })
    Object.assign(world, fresh)
    for (const extension of extensions) extension.onReset?.(world)
    return world
  }

  const extensions: ServiceExtension[] = []
  let compiledExtensions: CompiledRoute[] = []
  const extensionPrefixes = new Set<string>()

  /** Mounts a dev tool: its routes and its journal subscription. */
  function use(extension: ServiceExtension): RelayService {
    extensions.push(extension)
    const routes = extension.routes?.(mock) ?? []
    compiledExtensions = [...compiledExtensions, ...compile(routes)]
    for (const route of routes) extensionPrefixes.add(route.path.split('/')[1])
    return mock
  }

  function removeWorld(world: World): void {
    worlds.delete(world.token)
  }

  for (const token of settings.tokens) await addWorld({ token })

  const mock: RelayService = {
    settings,
    /** Every world, by token. */
    worlds: worlds as ReadonlyMap<string, World>,
    /** The first token's world. */
    get world(): World {
      return worlds.values().next().value as World
    },
    /** Every request the mock received, in order. */
    journal,
    scenarios: knownScenarios,
    addWorld,
    resetWorld,
    removeWorld,
    handle,
    use,
  }
  for (const extension of mounted) use(extension)

  /** Answers one request: the single pipeline behind every transport. Never throws. */
  async function handle(request: RelayRequest): Promise<RelayResponse> {
    const started = performance.now()
    const queryAt = request.url.indexOf('?')
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt)
    const search = queryAt === -1 ? '' : request.url.slice(queryAt)
    const parts = path.split('/').slice(1)

    if (extensionPrefixes.has(parts[0])) {
      return respondExtension(request, parts, search).catch((error: Error) =>
        toResponse(toProblem(error instanceof RelayMockError ? 422 : 500, error.message)),
      )
    }

    const query: Record<string, string> = {}
    if (search.length > 1) for (const [k, v] of new URLSearchParams(search)) query[k] = v

    let world = request.world
    let auth: AuthVerdict = 'missing'
    let route: Route<any, any> | undefined
    let parsedBody: unknown
    let bodyError: string | undefined
    let reply: Reply
    let fault: ArmedFault | undefined
    try {
      // The token is read even for a wrong path, so that the request lands in its world's journal.
      const checked = authenticate(header(request.headers, 'authorization'), request.world)
      auth = checked.verdict
      world = checked.world ?? checked.owner ?? request.world
      const found = resolve(compiledService, request.method, parts, path)
      if ('reply' in found) reply = found.reply
      else {
        route = found.route
        if (!checked.world) reply = checked.reply!
        else {
          const body = route.body ? readBody(request) : undefined
          if (body && 'reply' in body) {
            bodyError = (body.reply.body as { message: string }).message
            reply = route.refuse ? route.refuse({ world: checked.world, reply: body.reply }) : body.reply
          } else {
            parsedBody = body?.value
            ;({ reply, fault } = await run(route, checked.world, found.params, query, parsedBody))
          }
        }
      }
    } catch (error) {
      reply = toProblem(500, `The mock failed while answering this request: ${(error as Error).message}. This is a bug in relay-mock; the request is in the journal.`)
    }
    // A body that parsed is kept even when the route did not want one, for the journal.
    if (parsedBody === undefined && request.body && bodyError === undefined && !nestsDeeperThan(request.body, MAX_DEPTH)) {
      try {
        parsedBody = JSON.parse(request.body)
      } catch {
        // Not JSON: the text is kept.
      }
    }
    const delay = latencyMs() + (fault?.kind === 'slow' ? SLOW_FAULT_MS : 0)
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
    const transport = fault && isTransportFault(fault.kind) ? fault.kind : undefined
    const text = typeof reply.body === 'string' && !isJson(reply.headers) ? reply.body : JSON.stringify(reply.body)
    // Most answers have no headers of their own: they share one object rather than each keep a copy in the journal.
    const headers: Record<string, string> = reply.headers ? { ...JSON_HEADERS, ...reply.headers } : JSON_HEADERS
    const entry: JournalEntry = {
      seq: ++seq,
      time: new Date().toISOString(),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      worldId: world?.id ?? null,
      request: {
        method: request.method,
        path,
        query,
        search,
        headers: journalHeaders(request.headers),
        ...(request.body !== undefined && request.body !== '' ? { bodyText: request.body } : {}),
        ...(parsedBody !== undefined ? { body: parsedBody } : {}),
        ...(bodyError !== undefined ? { bodyError } : {}),
      },
      // No status line was sent for a reset or a hang: HAR's convention for no answer is status 0.
      response: transport === 'reset' || transport === 'hang' ? { status: 0, headers: {}, body: null } : { status: reply.status, headers, body: reply.body },
      route: route?.id ?? null,
      auth,
      ...(fault ? { fault: { kind: fault.kind, mode: fault.mode, applied: FAULT_KINDS[fault.kind].applied } } : {}),
    }
    journal.record(entry)
    const owner = world && worlds.get(world.token) === world ? world : undefined
    owner?.journal.record(entry)
    for (const extension of extensions) extension.onRecord?.(entry, owner)
    if (!transport) return { status: reply.status, headers, text }
    const answer: RelayResponse = { status: reply.status, headers, text, fault: transport }
    if (transport === 'hang') answer.onClosed = () => void (entry.durationMs = Math.round((performance.now() - started) * 1000) / 1000)
    return answer
  }

  function latencyMs(): number {
    const { latency } = settings
    if (typeof latency === 'number') return latency
    const [min, max] = latency
    return min + Math.random() * (max - min)
  }

  async function run(
    route: Route<any, any>,
    world: World,
    params: Record<string, string>,
    query: Record<string, string>,
    body: unknown,
  ): Promise<{ reply: Reply; fault?: ArmedFault }> {
    let validQuery: unknown = query
    if (route.query) {
      const result = route.query.safeParse(query)
      if (!result.success) return { reply: toValidationProblem(route.query, result.error.issues, query, 'query') }
      validQuery = result.data
    }
    let validBody: unknown = body
    if (route.body) {
      const result = route.body.safeParse(body)
      if (!result.success) {
        const reply = toValidationProblem(route.body, result.error.issues, body)
        return { reply: route.refuse ? route.refuse({ world, reply }) : reply }
      }
      validBody = result.data
    }
    // An armed fault comes after auth and validation. One that applies nothing answers instead of the
    // handler; one that applies first lets the handler change the world, then breaks its answer.
    const fault = takeFault(world, route.id)
    if (!fault) return { reply: await route.handle({ world, params, query: validQuery, body: validBody }) }
    if (fault.kind === 'token-revoked') world.revoked = true
    const answer = FAULT_KINDS[fault.kind].applied ? await route.handle({ world, params, query: validQuery, body: validBody }) : undefined
    const armedBy = world.scenario.faults?.includes(fault) ? `the scenario ${world.scenario.name}` : 'this world'
    const reply = faultReply(fault, answer, Date.now(), armedBy)
    // A refusal the fault answers instead of the handler takes the route's own shape (the simple endpoint's);
    // a failure after applying is the service's failure, not a refusal, and stays a problem.
    const refused = !answer && route.refuse ? route.refuse({ world, reply }) : reply
    return { reply: refused, fault }
  }

  function readBody(request: RelayRequest): { value: unknown } | { reply: Reply } {
    // The limit is in bytes, as the Node server counts it: a string's length counts UTF-16 units.
    if (request.bodyTooLarge || (request.body && request.body.length > settings.bodyLimit / 3 && utf8Bytes(request.body) > settings.bodyLimit)) {
      return { reply: toProblem(413, `The body is larger than the ${settings.bodyLimit} bytes the service accepts. Please send only the documented fields.`) }
    }
    if (!request.body || request.body.trim() === '') {
      return { reply: toProblem(400, 'The body is empty; the service expects a JSON object with the documented fields, sent with Content-Type: application/json.') }
    }
    const type = header(request.headers, 'content-type')
    if (!type || !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
      return {
        reply: toProblem(
          415,
          type
            ? `The body is sent as ${type}; the service reads only JSON. Please send the header Content-Type: application/json.`
            : 'The request has a body but no Content-Type header. Please send Content-Type: application/json.',
        ),
      }
    }
    if (nestsDeeperThan(request.body, MAX_DEPTH)) {
      return { reply: toProblem(400, `The body nests deeper than ${MAX_DEPTH} levels; the service's bodies nest two. Please send a JSON object with the documented fields.`) }
    }
    try {
      return { value: JSON.parse(request.body) }
    } catch (error) {
      return { reply: toProblem(400, `The body is not valid JSON (${(error as Error).message}). Please send a JSON object.`) }
    }
  }

  function authenticate(authorization: string | undefined, bound: World | undefined): { verdict: AuthVerdict; world?: World; reply?: Reply; owner?: World } {
    const challenge = { 'www-authenticate': 'Bearer realm="relay"' }
    if (!authorization) {
      return { verdict: 'missing', reply: toProblem(401, 'The request has no Authorization header. Please send Authorization: Bearer <your API token>.', undefined, challenge) }
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(authorization)
    if (!match) {
      return {
        verdict: 'malformed',
        reply: toProblem(401, `The Authorization header is malformed (${maskAuthorization(authorization)}). Please send exactly: Authorization: Bearer <your API token>.`, undefined, challenge),
      }
    }
    const world = worlds.get(match[1])
    // A revoked token's requests still belong to its world's journal: the client's retries must show there.
    if (world?.revoked && (!bound || world === bound)) return { verdict: 'revoked', reply: revokedReply(), owner: world }
    if (!world || (bound && world !== bound)) {
      return {
        verdict: 'unknown-token',
        reply: toProblem(401, 'The bearer token is not recognised. Please send the token issued to your location (relay-mock serve prints it at start).', undefined, challenge),
      }
    }
    return { verdict: 'ok', world }
  }

  async function respondExtension(request: RelayRequest, parts: string[], search: string): Promise<RelayResponse> {
    const path = `/${parts.join('/')}`
    const found = resolve(compiledExtensions, request.method, parts, path)
    if ('reply' in found) return toResponse(found.reply)
    const world = adminWorld(request, search)
    if (!world) return toResponse(toProblem(404, 'The mock has no world for that token. Please send a token relay-mock serve printed, or issue one with POST /__relay/tokens.'))
    const query = Object.fromEntries(new URLSearchParams(search))
    return toResponse(await found.route.handle({ world, params: found.params, query, body: safeJson(request.body), headers: request.headers }))
  }

  function adminWorld(request: RelayRequest, search: string): World | undefined {
    const fromHeader = /^Bearer +(\S+)/i.exec(header(request.headers, 'authorization') ?? '')?.[1]
    const token = fromHeader ?? new URLSearchParams(search).get('token') ?? undefined
    if (token) return worlds.get(token)
    return request.world ?? mock.world
  }

  return mock
}

/** The mock service: its worlds by token, its journal, and the pipeline behind every transport. */
export interface RelayService {
  settings: RelayServiceSettings
  /** Every world, by token. */
  worlds: ReadonlyMap<string, World>
  /** The first token's world. */
  readonly world: World
  /** Every request the mock received, in order. */
  journal: Journal
  scenarios: ReadonlyMap<string, Scenario>
  /** Adds a world with its own token (a fresh one by default), scenario and armed faults. */
  addWorld(options?: { token?: string; scenario?: string; faults?: ReadonlyArray<ArmedFault> }): Promise<World>
  /** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
  resetWorld(world: World, scenario?: string): Promise<World>
  removeWorld(world: World): void
  /** Answers one request: the single pipeline behind every transport. Never throws. */
  handle(request: RelayRequest): Promise<RelayResponse>
  /** Mounts a dev tool (its routes and its journal subscription); returns the service. */
  use(extension: ServiceExtension): RelayService
}

/** Renders a reply as a response: JSON unless the reply names its own content type and gives text. */
export function toResponse(reply: Reply): RelayResponse {
  const isText = typeof reply.body === 'string' && reply.headers?.['content-type'] && !reply.headers['content-type'].includes('json')
  const headers = { 'content-type': 'application/json; charset=utf-8', ...reply.headers }
  return { status: reply.status, headers, text: isText ? (reply.body as string) : JSON.stringify(reply.body) }
}

function isTransportFault(kind: string): kind is TransportFault {
  return kind === 'reset' || kind === 'hang' || kind === 'truncated'
}

function isJson(headers: Record<string, string> | undefined): boolean {
  const type = headers?.['content-type']
  return type === undefined || type.includes('json')
}

function safeJson(text: string | undefined): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function resolve(
  compiled: CompiledRoute[],
  method: string,
  parts: string[],
  path: string,
): { route: Route<any, any>; params: Record<string, string> } | { reply: Reply } {
  const allowed: string[] = []
  for (const candidate of compiled) {
    const params = matchPath(candidate, parts)
    if (!params) continue
    if (candidate.route.method === method) return { route: candidate.route, params }
    allowed.push(candidate.route.method)
  }
  if (allowed.length > 0) return { reply: methodNotAllowed(method, path, allowed) }
  return { reply: notFound(compiled, path) }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): Reply {
  const allow = [...new Set(allowed)].join(', ')
  const message =
    path === '/payment' && method === 'GET'
      ? 'GET /payment is not an endpoint: the simple payment is POST /payment with a JSON body (the interface\'s request listing shows GET by mistake; its client code sends POST).'
      : `${method} ${path} is not an endpoint; ${path} answers ${allow}.`
  return toProblem(405, message, undefined, { allow })
}

function notFound(compiled: CompiledRoute[], path: string): Reply {
  const slip = KNOWN_SLIPS[path] ?? KNOWN_SLIPS[path.replace(/\/+$/, '')]
  if (slip) return toProblem(404, slip)
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  const known = [...new Set(compiled.map((c) => c.route.path))]
  if (trimmed !== path && compiled.some((c) => matchPath(c, trimmed.split('/').slice(1)))) {
    return toProblem(404, `No endpoint has the path ${path}: drop the trailing slash (${trimmed}).`)
  }
  const near = known
    .map((candidate) => ({ candidate, distance: editDistance(trimmed, candidate.replace(/\/:id$/, '')) }))
    .sort((a, b) => a.distance - b.distance)[0]
  const hint = near && near.distance <= 3 ? ` Did you mean ${near.candidate}?` : ''
  const list = known.filter((p) => !p.includes(':')).join(', ')
  return toProblem(404, `No endpoint has the path ${path}.${hint} The service's paths are ${list} (and each link, e.g. /vehicles/<id>).`)
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]
}

const JSON_HEADERS: Record<string, string> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' })

/** A client sends the same Authorization on every request: mask each value once. */
const maskedAuthorizations = new Map<string, string>()
function masked(value: string): string {
  let result = maskedAuthorizations.get(value)
  if (result === undefined) {
    result = maskAuthorization(value)
    if (maskedAuthorizations.size < 1000) maskedAuthorizations.set(value, result)
  }
  return result
}

function journalHeaders(headers: RelayRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name in headers) {
    const value = header(headers, name)
    if (value === undefined) continue
    out[name] = name === 'authorization' ? masked(value) : value
  }
  return out
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return `rm_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** The service's bodies nest two levels; JSON nested thousands deep only overflows stacks (JSON.stringify's, in the journal). */
const MAX_DEPTH = 64

/** True when `text` opens more than `max` arrays or objects inside one another (outside strings). */
function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** The UTF-8 length of a string, without encoding it. */
function utf8Bytes(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // 2 bytes below U+0800, 3 above; a surrogate pair (2 units) is 4 bytes.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2
  }
  return bytes
}
