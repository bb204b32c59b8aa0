// The mock service's contract, types only: its options and settings, a request and its answer as plain
// data, a dev tool's plug, and the service itself. The modules that make the service (scenarios.ts,
// worlds.ts, extensions.ts, pipeline.ts) and mock.ts, which composes them, all speak these: kept apart
// from each of them so that none imports another in a circle.
import type { ArmedFault, TransportFault } from './faults.js'
import type { Journal, JournalEntry } from './journal.js'
import type { BodyStream, Upstream } from './upstream.js'
import type { Route } from './route.js'
import type { Scenario } from './scenario.js'
import type { SeededWorld } from './seed.js'
import type { Variants } from './variants.js'
import type { Calibration } from './calibration.js'
import type { World } from './world.js'

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
   * Serve every world under these alternatives of the assumption ledger instead of relay-mock's choices
   * (`serve --variant`): `{ 'create.status': '200-no-location' }` or `['create.status=200-no-location']`.
   * `relay-mock assumptions` lists them. A world added with variants of its own has those instead. Default none.
   */
  variants?: Variants | ReadonlyArray<string>
  /**
   * Where seeded worlds of the built-in scenarios are kept between runs (`serve` keeps them in files), so
   * a start reads a world instead of seeding it. Default none: every world is seeded.
   */
  seedCache?: SeedCache
  /**
   * Forward the service's requests to a real service instead of answering them (`relay-mock proxy`):
   * route, token → world, faults, the journal and the dev tools work as before; the answer is the
   * upstream's. A token the service has not seen gets a world of its own. Default none: the mock answers.
   */
  upstream?: Upstream
  /**
   * Answer as the real service was seen to answer (`serve --calibrate`): an assumptions report of
   * `relay-mock proxy` or `relay-mock probe`, as its `assumptions.json` holds it (see calibration.ts).
   * Each contradicted assumption is served as observed. Default none: relay-mock's choices.
   */
  calibration?: object
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
export type RelayServiceSettings = Required<
  Omit<
    RelayServiceOptions,
    'extensions' | 'scenarios' | 'adminToken' | 'seedCache' | 'variants' | 'upstream' | 'calibration'
  >
> & {
  adminToken?: string
  /** The calibration every world answers under, read (see calibration.ts); undefined when none. */
  calibration: Calibration | undefined
  /** The variants of every world made without its own, read (see variants.ts); undefined when none. */
  variants: Variants | undefined
}

/**
 * What a dev tool plugs into the service (the admin API, the live page): routes of its own, answered
 * before the service's and given the caller's world, a subscription to what the service records, and
 * word of a world re-seeded. The core authenticates its routes' callers itself (a world's token reaches
 * that world only; the admin token any: extensions.ts), so that isolation is enforced in one place; the
 * tool words the refusals, and the core knows nothing else of it.
 * @example service.use({ routes: () => [myRoute], onRecord: (entry) => console.log(entry.route) })
 */
export interface ServiceExtension {
  /** Routes under path prefixes of their own (e.g. `/__relay/...`); each handler gets the caller's world. */
  routes?(service: RelayService): ReadonlyArray<Route>
  /** Each request as the journal records it, with the world it was attributed to. */
  onRecord?: (entry: JournalEntry, world: World | undefined) => void
  /** A world was re-seeded in place (a reset or a scenario switch). */
  onReset?(world: World): void
  /** How the refusals of its routes' callers read, each saying what to send (default: the core's own, which name no tool). */
  refusals?: Partial<ExtensionRefusals>
}

/**
 * The sentences of the 401s and 404 that an extension's routes answer a caller the core did not let in.
 * @example { noToken: "Send the world's token as Authorization: Bearer <token>.", unknownToken: 'Send a token this mock gave you.', unknownWorld: (id) => `No world has the id ${id}.` }
 */
export interface ExtensionRefusals {
  /** No Authorization header was sent. */
  noToken: string
  /** The bearer token is no world's. */
  unknownToken: string
  /** The admin token's `?world=` names no world. */
  unknownWorld(id: string): string
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
  /** Set by a transport that knows it: the connection the request came on (an id unique among the transport's). */
  connection?: string
}

/** An answer as plain data: what a transport writes back. */
export interface RelayResponse {
  status: number
  /** Header names in lower case; a field sent more than once (a proxied Set-Cookie) as the list of its values. */
  headers: Record<string, string | string[]>
  text: string
  /**
   * A fault the transport must carry out instead of writing the answer plainly: reset the connection,
   * never answer, or stop the body halfway. Transports that cannot do one say so (see FAULT_KINDS).
   */
  fault?: TransportFault
  /**
   * A body to send as it comes instead of `text` (`relay-mock proxy`, for an upstream's answer larger
   * than the body limit): `text` then holds only its first bytes, as journaled. Node's server only.
   */
  passedOn?: BodyStream
  /** For `hang`: call when the client gave up (the connection closed), to date the journal entry. */
  onClosed?(): void
}

/** The mock service: its worlds by token, its journal, and the pipeline behind every transport. */
export interface RelayService {
  settings: RelayServiceSettings
  /** The real service's base URL when this service forwards to one (`relay-mock proxy`); undefined when it answers itself. */
  readonly upstream?: string
  /** Every world, by token. */
  worlds: ReadonlyMap<string, World>
  /** The first token's world. */
  readonly world: World
  /** Every request the mock received, in order. */
  journal: Journal
  /** The scenarios known by name: the built-in ones and those of the user's given to this service. */
  scenarios: ReadonlyMap<string, Scenario>
  /** Adds a world with its own token (a fresh one by default), scenario (by name, or one of your own, which the service then knows by its name) and armed faults. */
  addWorld(options?: {
    token?: string
    scenario?: string | Scenario
    faults?: ReadonlyArray<ArmedFault>
    variants?: Variants | ReadonlyArray<string>
  }): Promise<World>
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
