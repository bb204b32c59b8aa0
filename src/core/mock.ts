// The mock service: worlds by token, the route table, and the one request pipeline that both
// transports (the Node server and the msw handlers) call. Fetch-free and Node-free: a request
// is plain data in, plain data out.
import { scenarios as builtInScenarios } from '../../scenarios/index.js'
import { describeError, RelayMockError } from './errors.js'
import { FAULT_KINDS, faultReply, revokedReply, SLOW_FAULT_MS, takeFault, type ArmedFault, type TransportFault } from './faults.js'
import { createJournal, tell, type AuthVerdict, type Journal, type JournalEntry } from './journal.js'
import { maskAuthorization, maskHeader, maskHeaders, maskQuery, maskSearch, SECRET_HEADERS } from './mask.js'
import { toProblem, toValidationProblem, type Reply } from './problems.js'
import type { Route } from './route.js'
import { bodyHeadersRefusal, bodyVerdict, compileRoutes, header, parseBearer, parseQuery, parseQueryOnce, readJsonBody, resolveRoute, SERVICE_TABLE, utf8Bytes, type CompiledRoute } from './protocol.js'
import type { Scenario } from './scenario.js'
import { MOCK_DEFAULTS } from './defaults.js'
import { buildWorld, type SeededWorld } from './seed.js'
import { createStore, type Store } from './store.js'
import { isBearerToken } from './token.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { isoOf } from './clock.js'
import { validate } from './validate.js'
import { createWorld, type World } from './world.js'

export interface RelayServiceOptions {
  /** Bearer tokens, each with its own world. Default `['relay-mock-token']`. */
  tokens?: string[]
  /**
   * The scenario of the worlds made at start: a built-in scenario's name, or a scenario of your own
   * (`defineScenario`), which the service then knows by its name. Default `default`.
   */
  scenario?: string | Scenario
  /** More scenarios of your own, known by name beside the built-in ones (to worlds, the admin API and the live page). */
  scenarios?: ReadonlyArray<Scenario>
  /** The faker seed of the base world. Default 2026. */
  seed?: number
  /** How many vehicles the base world holds. Default 24. */
  vehicles?: number
  /** How many requests the journal keeps (the oldest are dropped beyond). Default 10,000. */
  journalLimit?: number
  /** How many bytes the journal's requests may hold in all (the oldest are dropped beyond). Default 64 MiB. */
  journalBytes?: number
  /** A request body longer than this many bytes is journaled as its prefix, its length and its SHA-256. Default 4 KiB. */
  journalBodyBytes?: number
  /** How many records clients may create in one world; beyond, the oldest created go first. Default 10,000. */
  worldRecords?: number
  /**
   * How many worlds the process keeps; beyond, a new world replaces the one unused longest. The worlds of
   * `tokens` are never replaced. Default 1,000.
   */
  maxWorlds?: number
  /** The largest body accepted, in bytes. Default 1 MiB. */
  bodyLimit?: number
  /**
   * Answer the service's endpoints this many milliseconds late, or a random time in `[min, max]`,
   * to see how a client behaves against a slow service. Default 0 (the admin API is never delayed).
   */
  latency?: number | readonly [number, number]
  /**
   * A token whose holder sees every world on the admin API (`GET /__relay/worlds`, `?world=<id>`,
   * `?scope=all`). Default none: each token sees its own world only.
   */
  adminToken?: string
  /** Dev tools to mount at start (see `use`). Default none: the bare service. */
  extensions?: ServiceExtension[]
  /** Faults armed on every world (`serve --fault`), after each world's scenario's own. Default none. */
  faults?: ReadonlyArray<ArmedFault>
  /**
   * Where seeded worlds of the built-in scenarios are kept between runs (`serve` keeps them in files), so
   * a start reads a world instead of seeding it. Default none: every world is seeded.
   */
  seedCache?: SeedCache
}

/**
 * A store of seeded worlds, by a key the service makes of the scenario's name, the seed and the vehicle
 * count. Only the built-in scenarios' worlds go in. `get` answers undefined for anything it does not hold
 * as it was set; a failing `get` or `set` is taken as a miss, never as an error of the service.
 * @example const memory = new Map(); createRelayService({ seedCache: { get: (k) => memory.get(k), set: (k, w) => memory.set(k, w) } })
 */
export interface SeedCache {
  get(key: string): SeededWorld | undefined
  set(key: string, world: SeededWorld): void
}

/** The settings a service runs with: its options over MOCK_DEFAULTS. */
export type RelayServiceSettings = Required<Omit<RelayServiceOptions, 'extensions' | 'scenarios' | 'adminToken' | 'seedCache'>> & { adminToken?: string }

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
  /**
   * Set by a transport holding the body back until the service agrees to read it (`Expect: 100-continue`):
   * the pipeline runs the checks that need no body and answers their refusal (journaled), or 100 when
   * the body may come (not journaled: the request is answered once its body is read). See `preflight`.
   */
  bodyPending?: boolean
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

/**
 * Creates the mock service: one world per token, all seeded from the named scenario.
 * @example
 * const mock = await createRelayService({ scenario: 'new-vehicle' })
 * const answer = await mock.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: 'Bearer relay-mock-token' } })
 */
export async function createRelayService(options: RelayServiceOptions = {}): Promise<RelayService> {
  const { extensions: mounted = [], scenarios: ownScenarios = [], seedCache, ...rest } = options
  const settings: RelayServiceSettings = { ...MOCK_DEFAULTS, ...withoutUndefined(rest) }
  // The service's own map: a scenario of the user's joins the built-in ones here, never in the shared registry.
  const knownScenarios = new Map(builtInScenarios)
  for (const scenario of ownScenarios) register(scenario)
  const seeds = new Map<string, Promise<{ seeded: SeededWorld; base: Store }>>()
  const worlds = new Map<string, World>()
  const worldsById = new Map<string, World>()
  /** The worlds of the start tokens: never replaced by the cap on worlds. */
  const pinned = new Set<string>(settings.tokens)
  // A world's journal holds a subset of the whole journal's entries: what the whole one drops, the world's
  // drops too, so the byte cap bounds every journal's memory at once.
  const journal = createJournal({
    limit: settings.journalLimit,
    maxBytes: settings.journalBytes,
    onDrop: (entry) => {
      if (entry.worldId !== null) worldsById.get(entry.worldId)?.journal.dropThrough(entry.seq)
    },
  })
  let worldCount = 0
  let seq = 0

  /** Makes a scenario of the user's known by its name; one name is one scenario. */
  function register(scenario: Scenario): Scenario {
    const known = knownScenarios.get(scenario.name)
    if (known && known !== scenario) {
      const whose = builtInScenarios.has(scenario.name) ? 'a built-in scenario' : 'another scenario given to this service'
      throw new RelayMockError(
        'SCENARIO_NAME_TAKEN',
        `Failed to add the scenario "${scenario.name}": ${whose} has that name. Please give your scenario a name of its own.`,
      )
    }
    knownScenarios.set(scenario.name, scenario)
    return scenario
  }

  function scenarioNamed(nameOrScenario: string | Scenario): Scenario {
    if (typeof nameOrScenario !== 'string') return register(nameOrScenario)
    const name = nameOrScenario
    const scenario = knownScenarios.get(name)
    if (!scenario) {
      throw new RelayMockError(
        'SCENARIO_NOT_FOUND',
        `Failed to find the scenario "${name}". Please use one of: ${[...knownScenarios.keys()].join(', ')}; or one of your own (a file such as ./my-world.json, or defineScenario in code).`,
      )
    }
    return scenario
  }

  /** A scenario's seeded world and its loaded store, built once and shared by every world of the scenario. */
  function seeded(scenario: Scenario): Promise<{ seeded: SeededWorld; base: Store }> {
    const key = `${scenario.name}|${settings.seed}|${settings.vehicles}`
    let found = seeds.get(key)
    if (!found) {
      found = seedScenario(scenario, key)
      seeds.set(key, found)
      // A failed seed is not kept: the next world of the scenario tries again (and says why again).
      found.catch(() => seeds.delete(key))
    }
    return found
  }

  async function seedScenario(scenario: Scenario, key: string): Promise<{ seeded: SeededWorld; base: Store }> {
    // Only a built-in scenario's world is cached: a user's scenario can change between runs under the same name.
    const cache = seedCache && builtInScenarios.get(scenario.name) === scenario ? seedCache : undefined
    const cached = orMiss(() => cache?.get(key))
    if (cached) {
      const base = createStore()
      // The store checks every record by its schema: a cached world that fails is seeded afresh instead.
      if (await base.load(cached.data).then(() => true, () => false)) return { seeded: cached, base }
    }
    let world: SeededWorld
    try {
      world = await buildWorld(scenario, { seed: settings.seed, vehicles: settings.vehicles })
    } catch (error) {
      // A scenario of the user's may fail in its seed: that is a set-up error to fix, not a bug in the mock.
      throw new RelayMockError('SCENARIO_SEED_FAILED', `Failed to seed the scenario "${scenario.name}": ${describeError(error).replace(/\.?$/, ".")} Please fix its seed.`)
    }
    const base = createStore()
    try {
      await base.load(world.data)
    } catch (error) {
      throw new RelayMockError('SCENARIO_SEED_FAILED', `Failed to seed the scenario "${scenario.name}": ${describeError(error)}. Please fix its seed.`)
    }
    if (cache) orMiss(() => cache.set(key, world))
    return { seeded: world, base }
  }

  async function addWorld({ token, scenario, faults = [] }: { token?: string; scenario?: string | Scenario; faults?: ReadonlyArray<ArmedFault> } = {}): Promise<World> {
    const chosen = scenarioNamed(scenario ?? settings.scenario)
    const worldToken = token ?? newToken()
    // A world no request could reach is a mistake to say at once: its token is one the service reads.
    if (!isBearerToken(worldToken)) {
      throw new RelayMockError(
        'TOKEN_INVALID',
        `Failed to add a world: the token ${JSON.stringify(worldToken)} cannot be sent as Authorization: Bearer <token>. Please use printable ASCII characters without spaces, such as relay-mock-token.`,
      )
    }
    if (worlds.has(worldToken)) {
      throw new RelayMockError('TOKEN_IN_USE', `Failed to add a world: the token ${worldToken} has one already. Please choose another token.`)
    }
    // The id is taken before the world is seeded: worlds asked for at once are numbered in the order asked.
    const number = ++worldCount
    const id = `world-${number}`
    const { seeded: seed, base } = await seeded(chosen).catch((error: unknown) => {
      // A world that could not be seeded gives its number back, if no world took one since.
      if (worldCount === number) worldCount--
      throw error
    })
    const world = createWorld({
      id,
      token: worldToken,
      scenario: chosen,
      seeded: seed,
      base,
      journalLimit: settings.journalLimit,
      faults: [...settings.faults, ...faults],
      maxRecords: settings.worldRecords,
    })
    if (worlds.size >= settings.maxWorlds) evictWorld()
    worlds.set(worldToken, world)
    worldsById.set(world.id, world)
    return world
  }

  /** Makes room for one more world: the one unused longest goes (never a start token's). */
  function evictWorld(): void {
    let idlest: World | undefined
    for (const world of worlds.values()) {
      if (!pinned.has(world.token) && (!idlest || world.lastUsed < idlest.lastUsed)) idlest = world
    }
    if (!idlest) {
      throw new RelayMockError(
        'TOO_MANY_WORLDS',
        `Failed to add a world: the mock keeps at most ${settings.maxWorlds} worlds and each is a start token's. Please start relay-mock with a larger --max-worlds.`,
      )
    }
    removeWorld(idlest)
  }

  /** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
  async function resetWorld(world: World, scenario?: string | Scenario): Promise<World> {
    const chosen = scenarioNamed(scenario ?? world.scenario.name)
    const { seeded: seed, base } = await seeded(chosen)
    // The faults armed for this world (not its old scenario's) stay armed, and count again from zero.
    const own = world.faults.filter((fault) => !world.scenario.faults?.includes(fault))
    const fresh = createWorld({ id: world.id, token: world.token, scenario: chosen, seeded: seed, base, journalLimit: settings.journalLimit, faults: own, maxRecords: settings.worldRecords })
    Object.assign(world, fresh)
    for (const extension of extensions) extension.onReset?.(world)
    return world
  }

  const extensions: ServiceExtension[] = []
  let compiledExtensions: CompiledRoute[] = []
  /** The first segments of the dev tools' paths, with their slash (e.g. `/__relay`): theirs alone. */
  const extensionPrefixes: string[] = []

  /** Mounts a dev tool: its routes and its journal subscription. */
  function use(extension: ServiceExtension): RelayService {
    extensions.push(extension)
    const routes = extension.routes?.(mock) ?? []
    compiledExtensions = [...compiledExtensions, ...compileRoutes(routes)]
    for (const route of routes) {
      const prefix = `/${route.path.split('/')[1]}`
      if (!extensionPrefixes.includes(prefix)) extensionPrefixes.push(prefix)
    }
    return mock
  }

  /** Whether a path's first segment is a dev tool's: `/__relay` and `/__relay/...`, not `/__relayx`. */
  function isExtensionPath(path: string): boolean {
    for (const prefix of extensionPrefixes) {
      if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === SLASH)) return true
    }
    return false
  }

  function removeWorld(world: World): void {
    if (worlds.get(world.token) !== world) return
    worlds.delete(world.token)
    worldsById.delete(world.id)
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
    answer,
    preflight: (request) => handle({ ...request, bodyPending: true }).then((answer) => (answer === CONTINUE ? undefined : answer)),
    use,
  }
  for (const extension of mounted) use(extension)

  /** Answers one request, as a promise: `answer` (the pipeline every transport calls) for callers that await. Never rejects. */
  async function handle(request: RelayRequest): Promise<RelayResponse> {
    return answer(request)
  }

  /**
   * The pipeline itself: the answer at once when nothing in it waits (a lookup, a create, a refusal), so
   * that a transport writes it in the same turn of the event loop; a promise when something does (an
   * admin route, a fault, latency). Never throws, and never rejects.
   */
  function answer(request: RelayRequest): RelayResponse | Promise<RelayResponse> {
    try {
      const answered = pipeline(request)
      return isPromise(answered) ? answered.catch((error: unknown) => toResponse(pipelineFailed(error, 'recording'))) : answered
    } catch (error) {
      // A failure after the reply was decided (journaling it, a dev tool's subscription): still an answer.
      return toResponse(pipelineFailed(error, 'recording'))
    }
  }

  function pipeline(request: RelayRequest): RelayResponse | Promise<RelayResponse> {
    const started = performance.now()
    // The entry's time is when the request arrived: the rules add durationMs to it for when it was answered.
    const arrivedMs = Date.now()
    const queryAt = request.url.indexOf('?')
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt)
    const search = queryAt === -1 ? '' : request.url.slice(queryAt)

    if (isExtensionPath(path)) return answerExtension(request, path, search)

    const arrival: Arrival = { request, started, arrivedMs, path, search, query: parseQueryOnce(search), world: request.world, auth: 'missing', route: undefined, parsedBody: undefined, bodyError: undefined }
    let ran: Ran | Promise<Ran> | undefined
    try {
      ran = decide(arrival)
    } catch (error) {
      ran = { reply: pipelineFailed(error) }
    }
    if (ran === undefined) return CONTINUE
    if (isPromise(ran)) return ran.then((settled) => finish(arrival, settled), (error: unknown) => finish(arrival, { reply: pipelineFailed(error) }))
    return finish(arrival, ran)
  }

  async function answerExtension(request: RelayRequest, path: string, search: string): Promise<RelayResponse> {
    const answer = await respondExtension(request, path, search).catch((error: unknown) =>
      toResponse(toProblem(error instanceof RelayMockError ? 422 : 500, describeError(error))),
    )
    return request.method === 'HEAD' && answer !== CONTINUE ? withoutBody(answer) : answer
  }

  /**
   * The service's reply to a request (undefined: its body may come, see `bodyPending`). On the way it
   * notes in `arrival` what the journal keeps: the world, the auth verdict, the route, the body.
   */
  function decide(arrival: Arrival): Ran | Promise<Ran> | undefined {
    const { request } = arrival
    // The token is read even for a wrong path, so that the request lands in its world's journal.
    const checked = authenticate(header(request.headers, 'authorization'), request.world)
    arrival.auth = checked.verdict
    arrival.world = checked.world ?? checked.owner ?? request.world
    if (checked.world) checked.world.lastUsed = arrival.arrivedMs
    const found = resolveRoute(SERVICE_TABLE, request.method, arrival.path)
    if ('reply' in found) return { reply: found.reply }
    const route = (arrival.route = found.route)
    if (!checked.world) return { reply: checked.reply! }
    if (request.bodyPending) {
      // The same checks as below, short of the body: its declared length and its type.
      const refused = route.body ? bodyHeadersRefusal(request.headers, settings.bodyLimit) : undefined
      if (!refused) return undefined
      arrival.bodyError = (refused.body as { message: string }).message
      return { reply: route.refuse ? route.refuse({ world: checked.world, reply: refused }) : refused }
    }
    const body = readJsonBody(request, route, settings.bodyLimit)
    if (body && 'reply' in body) {
      arrival.bodyError = (body.reply.body as { message: string }).message
      return { reply: route.refuse ? route.refuse({ world: checked.world, reply: body.reply }) : body.reply }
    }
    arrival.parsedBody = body?.value
    return run(route, checked.world, found.params, arrival.query, arrival.parsedBody, request.url)
  }

  /** Waits out the latency asked for (the service's, a slow fault's), then records and answers. */
  function finish(arrival: Arrival, { reply, fault, text }: Ran): RelayResponse | Promise<RelayResponse> {
    const delay = latencyMs() + (fault?.kind === 'slow' ? SLOW_FAULT_MS : 0)
    if (delay > 0) return new Promise((resolve) => setTimeout(resolve, delay)).then(() => recordAndAnswer(arrival, reply, fault, text))
    return recordAndAnswer(arrival, reply, fault, text)
  }

  /** Journals the request with its answer, tells the dev tools, and answers (with `text`, the reply's, when it is at hand). */
  function recordAndAnswer(arrival: Arrival, reply: Reply, fault: ArmedFault | undefined, replyText = textOf(reply)): RelayResponse {
    const { request, path, search, query, world, route, started } = arrival
    let { parsedBody, bodyError } = arrival
    // A body the route reads, refused before it was reached (a wrong token, path or method), is judged for
    // the journal as the route would have: its value, or why not (the journal may keep only a long body's
    // prefix, so the verdict on the whole is kept with it). A body the route ignores (a GET's) is not.
    if (parsedBody === undefined && bodyError === undefined) {
      const read = bodyVerdict(request, route, settings.bodyLimit)
      if (read && 'value' in read) parsedBody = read.value
      else if (read && 'problem' in read) bodyError = read.problem
    }
    const transport = fault && isTransportFault(fault.kind) ? fault.kind : undefined
    let text = replyText
    // Most answers have no headers of their own: they share one object rather than each keep a copy in the journal.
    let headers: Record<string, string> = reply.body === undefined ? { ...reply.headers } : reply.headers ? { ...JSON_HEADERS, ...reply.headers } : JSON_HEADERS
    if (request.method === 'HEAD') ({ headers, text } = withoutBody({ status: reply.status, headers, text }))
    const kept = journalBody(request.body, settings.journalBodyBytes)
    if (kept?.bodyTruncated) parsedBody = undefined
    const requestHeaders = journalHeaders(request.headers)
    // A request part without a body, and a response part, that hold the same as the last entry's are
    // that entry's, frozen: a client asks the same lookup again and again, and its entries then keep no
    // request or response part of their own, half of what they held.
    const masked = maskQuery(query)
    const maskedSearch = maskSearch(search)
    const bodiless = kept === undefined && parsedBody === undefined && bodyError === undefined
    const last = lastRequest
    let journaled: JournalEntry['request']
    if (bodiless && last !== undefined && last.method === request.method && last.path === path && last.query === masked && last.search === maskedSearch && last.headers === requestHeaders.headers) {
      journaled = shared(last)
    } else {
      journaled = { method: request.method, path, query: masked, search: maskedSearch, headers: requestHeaders.headers }
      if (bodiless) lastRequest = journaled
      if (kept) Object.assign(journaled, kept)
      if (parsedBody !== undefined) journaled.body = parsedBody
      if (bodyError !== undefined) journaled.bodyError = bodyError
    }
    let response: JournalEntry['response']
    // No status line was sent for a reset or a hang: HAR's convention for no answer is status 0.
    if (transport === 'reset' || transport === 'hang') response = { status: 0, headers: {}, body: null }
    else {
      const maskedHeaders = headers === JSON_HEADERS ? JSON_HEADERS : maskHeaders(headers)
      const body = request.method === 'HEAD' ? undefined : reply.body
      const last = lastResponse
      response =
        last !== undefined && last.status === reply.status && last.headers === maskedHeaders && last.body === body
          ? shared(last)
          : (lastResponse = { status: reply.status, headers: maskedHeaders, body })
    }
    const entry: JournalEntry = {
      seq: ++seq,
      time: isoOf(arrival.arrivedMs),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      worldId: world?.id ?? null,
      request: journaled,
      response,
      route: route?.id ?? null,
      auth: arrival.auth,
    }
    if (fault) entry.fault = { kind: fault.kind, mode: fault.mode, applied: FAULT_KINDS[fault.kind].applied }
    // What the entry holds, about: its texts (the parsed body is as large as the text it came from).
    const size = ENTRY_OVERHEAD + path.length + 2 * search.length + requestHeaders.bytes + 2 * (kept?.bodyText?.length ?? 0) + text.length
    journal.record(entry, size)
    const owner = world && worlds.get(world.token) === world ? world : undefined
    owner?.journal.record(entry, size)
    for (const extension of extensions) tell('a dev tool', entry, extension.onRecord, owner)
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

  /**
   * Validates, then answers with the route's handler or the armed fault. Synchronous when the handler is
   * (every route of the service's: its lookups and creates), so that the answer goes out without a turn
   * of the microtask queue per step; a fault that applies first makes it async.
   */
  function run(
    route: Route<any, any>,
    world: World,
    params: Record<string, string>,
    query: Record<string, string>,
    body: unknown,
    url: string,
  ): Ran | Promise<Ran> {
    // A read asked before of the same records is answered as it was then, without validating and
    // handling it again (see reads.ts); a fault armed for it is still met.
    const reads = route.method === 'GET' ? world.reads : undefined
    const version = reads ? world.store.version() : 0
    const kept = reads?.get(url, version)
    let validQuery: unknown = kept ? kept.query : query
    if (route.query && !kept) {
      const result = validate(route.query, query)
      if (!result.success) return { reply: toValidationProblem(route.query, result.error.issues, query, 'query') }
      validQuery = result.data
    }
    let validBody: unknown = body
    if (route.body) {
      const result = validate(route.body, body)
      if (!result.success) {
        const reply = toValidationProblem(route.body, result.error.issues, body)
        return { reply: route.refuse ? route.refuse({ world, reply }) : reply }
      }
      validBody = result.data
    }
    // An armed fault comes after auth and validation. One that applies nothing answers instead of the
    // handler; one that applies first lets the handler change the world, then breaks its answer.
    const fault = takeFault(world, route.id)
    if (!fault) {
      // The kept read is a Ran already (its reply and text): nothing is made for it.
      if (kept) return kept
      const reply = route.handle({ world, params, query: validQuery, body: validBody })
      if (isPromise(reply)) return reply.then((answer) => ({ reply: answer }))
      if (!reads) return { reply }
      const text = textOf(reply)
      reads.set(url, version, { query: validQuery, reply, text })
      return { reply, text }
    }
    return runFaulted(route, world, fault, { world, params, query: validQuery, body: validBody })
  }

  async function runFaulted(route: Route<any, any>, world: World, fault: ArmedFault, context: Parameters<Route<any, any>['handle']>[0]): Promise<Ran> {
    if (fault.kind === 'token-revoked') world.revoked = true
    const answer = FAULT_KINDS[fault.kind].applied ? await route.handle(context) : undefined
    const armedBy = world.scenario.faults?.includes(fault) ? `the scenario ${world.scenario.name}` : 'this world'
    const reply = faultReply(fault, answer, Date.now(), armedBy)
    // A refusal the fault answers instead of the handler takes the route's own shape (the simple endpoint's);
    // a failure after applying is the service's failure, not a refusal, and stays a problem.
    const refused = !answer && route.refuse ? route.refuse({ world, reply }) : reply
    return { reply: refused, fault }
  }

  function authenticate(authorization: string | undefined, bound: World | undefined): { verdict: AuthVerdict; world?: World; reply?: Reply; owner?: World } {
    const bearer = parseBearer(authorization)
    if (bearer.verdict === 'missing') {
      return { verdict: 'missing', reply: toProblem(401, 'The request has no Authorization header. Please send Authorization: Bearer <your API token>.', undefined, CHALLENGE) }
    }
    if (bearer.verdict === 'malformed') {
      return {
        verdict: 'malformed',
        reply: toProblem(401, `The Authorization header is malformed (${maskAuthorization(authorization!)}). Please send exactly: Authorization: Bearer <your API token>.`, undefined, CHALLENGE),
      }
    }
    const world = worlds.get(bearer.token)
    // A revoked token's requests still belong to its world's journal: the client's retries must show there.
    if (world?.revoked && (!bound || world === bound)) return { verdict: 'revoked', reply: revokedReply(), owner: world }
    if (!world || (bound && world !== bound)) {
      return {
        verdict: 'unknown-token',
        reply: toProblem(401, 'The bearer token is not recognised. Please send the token issued to your location (relay-mock serve prints it at start).', undefined, CHALLENGE),
      }
    }
    return { verdict: 'ok', world }
  }

  async function respondExtension(request: RelayRequest, path: string, search: string): Promise<RelayResponse> {
    const found = resolveRoute(compiledExtensions, request.method, path)
    if ('reply' in found) return toResponse(found.reply)
    const query = parseQuery(search)
    const reached = adminWorld(request, query)
    if ('reply' in reached) {
      if (!found.route.public) return toResponse(reached.reply)
    } else reached.world.lastUsed = Date.now()
    // A public route (the OpenAPI documents, the admin index, the live page's shell) reads no world.
    const world = 'world' in reached ? reached.world : mock.world
    const admin = 'world' in reached && reached.admin
    if (request.bodyPending) return CONTINUE
    // The dev tools' bodies are read as the service's are: JSON, within the limit, or the refusal that says why.
    const body = readJsonBody(request, found.route, settings.bodyLimit)
    if (body && 'reply' in body) return toResponse(body.reply)
    return toResponse(await found.route.handle({ world, params: found.params, query, body: body?.value, headers: request.headers, admin }))
  }

  /**
   * The world an admin call reads or changes: its bearer token's, and no other. The admin token
   * reaches every world (`?world=<id>`, else the first). Tokens are never read from the URL, where
   * they would land in logs and histories.
   */
  function adminWorld(request: RelayRequest, query: Record<string, string>): { world: World; admin: boolean } | { reply: Reply } {
    const challenge = { 'www-authenticate': 'Bearer realm="relay-admin"' }
    const authorization = header(request.headers, 'authorization')
    if (!authorization) {
      return {
        reply: toProblem(
          401,
          "The admin API reads and changes one world: send that world's token as Authorization: Bearer <token> (the live page takes it from its address, /__relay/#token=<token>).",
          undefined,
          challenge,
        ),
      }
    }
    const bearer = parseBearer(authorization)
    const token = bearer.verdict === 'ok' ? bearer.token : undefined
    if (!token) {
      return { reply: toProblem(401, `The Authorization header is malformed (${maskAuthorization(authorization)}). Please send exactly: Authorization: Bearer <token>.`, undefined, challenge) }
    }
    if (settings.adminToken !== undefined && token === settings.adminToken) {
      if (query.world === undefined) return { world: mock.world, admin: true }
      const chosen = worldsById.get(query.world)
      if (chosen) return { world: chosen, admin: true }
      return { reply: toProblem(404, `No world has the id ${query.world}. GET /__relay/worlds lists them.`) }
    }
    const world = worlds.get(token)
    if (!world || (request.world && world !== request.world)) {
      return {
        reply: toProblem(401, 'The bearer token is not one of this mock\'s worlds. Please send a token relay-mock serve printed, or one POST /__relay/tokens issued.', undefined, challenge),
      }
    }
    return { world, admin: false }
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
  /** The scenarios known by name: the built-in ones and those of the user's given to this service. */
  scenarios: ReadonlyMap<string, Scenario>
  /** Adds a world with its own token (a fresh one by default), scenario (by name, or one of your own, which the service then knows by its name) and armed faults. */
  addWorld(options?: { token?: string; scenario?: string | Scenario; faults?: ReadonlyArray<ArmedFault> }): Promise<World>
  /** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
  resetWorld(world: World, scenario?: string | Scenario): Promise<World>
  removeWorld(world: World): void
  /** Answers one request, as a promise (see `answer`, the pipeline itself). Never rejects. */
  handle(request: RelayRequest): Promise<RelayResponse>
  /**
   * `handle` without the promise when the answer is ready at once (a lookup, a create, a refusal): what
   * the Node server calls, so that such an answer is written in the turn its request was read. Never throws.
   * @example const answer = mock.answer(request); if (answer instanceof Promise) answer.then(write); else write(answer)
   */
  answer(request: RelayRequest): RelayResponse | Promise<RelayResponse>
  /**
   * For `Expect: 100-continue`: the pipeline's checks that need no body (path and method, the token,
   * the body's declared length and type). Undefined when the body may come; else the refusal, journaled.
   * @example const refusal = await mock.preflight({ method: 'POST', url: '/vehicles', headers }) // undefined: send 100 Continue
   */
  preflight(request: Omit<RelayRequest, 'body' | 'bodyTooLarge' | 'bodyPending'>): Promise<RelayResponse | undefined>
  /** Mounts a dev tool (its routes and its journal subscription); returns the service. */
  use(extension: ServiceExtension): RelayService
}

/** Renders a reply as a response: JSON unless the reply names its own content type and gives text. */
export function toResponse(reply: Reply): RelayResponse {
  if (reply.body === undefined) return { status: reply.status, headers: { ...reply.headers }, text: '' }
  return { status: reply.status, headers: { ...JSON_HEADERS, ...reply.headers }, text: textOf(reply) }
}

/** A HEAD's answer: GET's status and headers, the length of the body GET would send, and no body (RFC 9110 9.3.2). */
function withoutBody(answer: RelayResponse): RelayResponse {
  return { status: answer.status, headers: { ...answer.headers, 'content-length': String(utf8Bytes(answer.text)) }, text: '' }
}

/** What the pipeline learnt of a request before its answer: its journal entry is made of it. */
interface Arrival {
  request: RelayRequest
  /** performance.now() when it arrived, for durationMs. */
  started: number
  /** When it arrived, in milliseconds since the epoch (the journal dates it with isoOf). */
  arrivedMs: number
  path: string
  search: string
  query: Record<string, string>
  world: World | undefined
  auth: AuthVerdict
  route: Route<any, any> | undefined
  parsedBody: unknown
  bodyError: string | undefined
}

/** The reply to a request the pipeline failed on: a bug of relay-mock's, said as one. */
function pipelineFailed(error: unknown, step: 'answering' | 'recording' = 'answering'): Reply {
  const where = step === 'answering' ? 'the request is in the journal' : 'the request may be missing from the journal'
  return toProblem(500, `The mock failed while ${step} this request: ${describeError(error)}. This is a bug in relay-mock; ${where}.`)
}

/** What `run` answers: the reply, the fault it met when one was armed, and the reply's text when it is at hand. */
interface Ran {
  reply: Reply
  fault?: ArmedFault
  text?: string
}

/** The text a reply is sent as: JSON, unless it names a content type of its own and gives text. */
function textOf(reply: Reply): string {
  return reply.body === undefined ? '' : typeof reply.body === 'string' && !isJson(reply.headers) ? reply.body : JSON.stringify(reply.body)
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}

function isTransportFault(kind: string): kind is TransportFault {
  return kind === 'reset' || kind === 'hang' || kind === 'truncated'
}

function isJson(headers: Record<string, string> | undefined): boolean {
  const type = headers?.['content-type']
  return !type || type.includes('json')
}

/** The pipeline's answer to a request whose body may come (`bodyPending`): never written, never journaled. */
const CONTINUE: RelayResponse = Object.freeze({ status: 100, headers: {}, text: '' })

const SLASH = 47

const JSON_HEADERS: Record<string, string> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' })

const CHALLENGE: Readonly<Record<string, string>> = Object.freeze({ 'www-authenticate': 'Bearer realm="relay"' })

/** A client sends the same credentials on every request: mask each value once. */
const maskedValues = new Map<string, string>()
function masked(name: string, value: string): string {
  const key = `${name}:${value}`
  let result = maskedValues.get(key)
  if (result === undefined) {
    result = maskHeader(name, value)
    if (maskedValues.size < 1000) maskedValues.set(key, result)
  }
  return result
}

/** An entry's fixed fields (seq, time, route, status…), about, in bytes. */
const ENTRY_OVERHEAD = 256

/** The last entry's request part without a body, and its response part. */
let lastRequest: JournalEntry['request'] | undefined
let lastResponse: JournalEntry['response'] | undefined

/** A part of the last entry that the next one holds the same as: frozen from now on, as two entries share it. */
function shared<T extends object>(part: T): T {
  return Object.isFrozen(part) ? part : Object.freeze(part)
}

/**
 * The last request's headers as the journal keeps them. A client sends the same headers request after
 * request: when every name and value is the last request's, its entry shares that object (entries are
 * never changed) instead of a copy, which saves a copy, the masking and memory.
 */
let lastHeaders: { names: string[]; values: Array<string | string[] | undefined>; kept: { headers: Record<string, string>; bytes: number } } | undefined

/** The headers as the journal keeps them (credentials masked), and about how many bytes they hold. */
function journalHeaders(headers: RelayRequest['headers']): { headers: Record<string, string>; bytes: number } {
  if (lastHeaders !== undefined && sameHeaders(headers, lastHeaders.names, lastHeaders.values)) return lastHeaders.kept
  const out: Record<string, string> = {}
  const names: string[] = []
  const values: Array<string | string[] | undefined> = []
  let bytes = 0
  for (const name in headers) {
    names.push(name)
    values.push(headers[name])
    const value = header(headers, name)
    if (value === undefined) continue
    out[name] = SECRET_HEADERS.has(name) ? masked(name, value) : value
    bytes += name.length + value.length + 8
  }
  const kept = { headers: Object.freeze(out), bytes }
  lastHeaders = { names, values, kept }
  return kept
}

function sameHeaders(headers: RelayRequest['headers'], names: string[], values: Array<string | string[] | undefined>): boolean {
  let i = 0
  for (const name in headers) {
    // A repeated header is an array: a new one each request, so it never matches, and is copied.
    if (names[i] !== name || values[i] !== headers[name] || Array.isArray(values[i])) return false
    i++
  }
  return i === names.length
}

/** The body as the journal keeps it: whole up to `keep` bytes, else its prefix, its length and its SHA-256. */
function journalBody(body: string | undefined, keep: number): Pick<JournalEntry['request'], 'bodyText' | 'bodyTruncated' | 'bodyBytes' | 'bodySha256'> | undefined {
  if (body === undefined || body === '') return undefined
  if (body.length <= keep / 3) return { bodyText: body }
  const bytes = utf8Bytes(body)
  if (bytes <= keep) return { bodyText: body }
  return { bodyText: body.slice(0, keep), bodyTruncated: true, bodyBytes: bytes, bodySha256: bytesToHex(sha256(utf8ToBytes(body))) }
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return `rm_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** What `read` returns, or undefined when it throws: a cache that fails is a cache that misses. */
function orMiss<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

