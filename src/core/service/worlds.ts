// One service's worlds, by token and by id. A world costs memory for as long as it is kept, and clients
// may ask for new ones at any time (POST /__relay/tokens, each conformance case): beyond the cap the one
// unused longest goes, never a start token's, which the user was told to use.
import { RelayMockError } from '../errors.js'
import type { ArmedFault } from './faults.js'
import type { Scenario } from './scenario.js'
import type { Scenarios } from './scenarios.js'
import type { RelayServiceSettings } from './service.js'
import { createWorld, type World } from './world.js'
import { isBearerToken } from './token.js'
import { toVariants, type Variants } from './variants.js'
import { calibrationVariants, type Calibration } from './calibration.js'

/**
 * The worlds of a service, seeded from its scenarios; those of the start tokens (`settings.tokens`) are pinned.
 * @example
 * const worlds = createWorlds({ settings, scenarios })
 * const world = await worlds.add({ scenario: 'new-vehicle' }) // a fresh token
 * worlds.byToken.get(world.token) === world
 */
export function createWorlds({
  settings,
  scenarios,
}: {
  settings: RelayServiceSettings
  scenarios: Scenarios
}): Worlds {
  const byToken = new Map<string, World>()
  const byId = new Map<string, World>()
  /** The worlds of the start tokens: never replaced by the cap on worlds. */
  const pinned = new Set<string>(settings.tokens)
  let count = 0

  async function add({
    token,
    scenario,
    faults = [],
    variants,
    roomLater = false,
  }: AddWorldOptions = {}): Promise<World> {
    const chosen = scenarios.named(scenario ?? settings.scenario)
    // Read before anything is taken: a wrong variant is the caller's mistake, said at once.
    const served =
      variants === undefined ? settings.variants : withCalibration(toVariants(variants), settings.calibration)
    const worldToken = token ?? newToken()
    checkToken(worldToken, byToken)
    // The id is taken before the world is seeded: worlds asked for at once are numbered in the order asked.
    const number = ++count
    const id = `world-${number}`
    const { seeded: seed, base } = await scenarios.seeded(chosen).catch((error: unknown) => {
      // A world that could not be seeded gives its number back, if no world took one since.
      if (count === number) count--
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
      variants: served,
    })
    // A world whose room is made later (makeRoom) may stand beyond the cap meanwhile: relay-mock proxy's, until the service accepts its token.
    if (!roomLater && byToken.size >= settings.maxWorlds) makeRoomForOne()
    byToken.set(worldToken, world)
    byId.set(world.id, world)
    return world
  }

  /** Removes the world unused longest, to add one more at the cap; throws when only start tokens' worlds are left. */
  function makeRoomForOne(): void {
    const gone = idlest(byToken.values(), pinned)
    if (!gone) {
      throw new RelayMockError(
        'TOO_MANY_WORLDS',
        `Failed to add a world: the mock keeps at most ${settings.maxWorlds} worlds and each is a start token's. Please start relay-mock with a larger --max-worlds.`,
      )
    }
    remove(gone)
  }

  /**
   * Brings the worlds back within the cap for `kept`, added with `roomLater`: the others unused longest
   * go, never a start token's. False when only start tokens' worlds are left to go.
   */
  function makeRoom(kept: World): boolean {
    while (byToken.size > settings.maxWorlds) {
      const gone = idlest(byToken.values(), pinned, kept)
      if (!gone) return false
      remove(gone)
    }
    return true
  }

  function remove(world: World): void {
    if (byToken.get(world.token) !== world) return
    byToken.delete(world.token)
    byId.delete(world.id)
  }

  const reset = (world: World, scenario?: string | Scenario): Promise<World> =>
    resetWorld(world, scenario, { settings, scenarios })
  return { byToken, byId, first: () => byToken.values().next().value as World, add, reset, remove, makeRoom }
}

export interface AddWorldOptions {
  /** Default: a fresh one. */
  token?: string
  /** Default: the service's. */
  scenario?: string | Scenario
  /** Armed besides the service's. */
  faults?: ReadonlyArray<ArmedFault>
  /** Default: the service's. */
  variants?: Variants | ReadonlyArray<string>
  /** The cap on worlds is kept later, by makeRoom: relay-mock proxy's world, until the service accepts its token. */
  roomLater?: boolean
}

export interface Worlds {
  /** Every world, by token: the pipeline reads it on each request. */
  readonly byToken: Map<string, World>
  /** Every world, by id (`world-3`): the admin token's `?world=` and the journal's dropped entries read it. */
  readonly byId: Map<string, World>
  /** The first token's world. */
  first(): World
  /** Adds a world with its own token (a fresh one by default), scenario, armed faults and variants (default the service's). */
  add(options?: AddWorldOptions): Promise<World>
  /** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
  reset(world: World, scenario?: string | Scenario): Promise<World>
  remove(world: World): void
  /**
   * Brings the worlds back within the cap for `kept`, added with `roomLater`: the others unused longest
   * go, never a start token's. False when only start tokens' worlds are left to go.
   */
  makeRoom(kept: World): boolean
}

/** Re-seeds a world in place (same token, same id), with its scenario or another; clears its journal. */
async function resetWorld(
  world: World,
  scenario: string | Scenario | undefined,
  { settings, scenarios }: { settings: RelayServiceSettings; scenarios: Scenarios },
): Promise<World> {
  const chosen = scenarios.named(scenario ?? world.scenario.name)
  const { seeded: seed, base } = await scenarios.seeded(chosen)
  // The faults armed for this world (not its old scenario's) stay armed, and count again from zero.
  const own = world.faults.filter((fault) => !world.scenario.faults?.includes(fault))
  // Its variants stay too: a reset re-seeds the records, not the service's answers.
  const fresh = createWorld({
    id: world.id,
    token: world.token,
    scenario: chosen,
    seeded: seed,
    base,
    journalLimit: settings.journalLimit,
    faults: own,
    maxRecords: settings.worldRecords,
    variants: world.variants,
  })
  Object.assign(world, fresh)
  return world
}

/** A world no request could reach is a mistake to say at once: its token is one the service reads, and no other world's. */
function checkToken(token: string, byToken: ReadonlyMap<string, World>): void {
  if (!isBearerToken(token)) {
    throw new RelayMockError(
      'TOKEN_INVALID',
      `Failed to add a world: the token ${JSON.stringify(token)} cannot be sent as Authorization: Bearer <token>. Please use printable ASCII characters without spaces, such as relay-mock-token.`,
    )
  }
  if (byToken.has(token)) {
    throw new RelayMockError(
      'TOKEN_IN_USE',
      `Failed to add a world: the token ${token} has one already. Please choose another token.`,
    )
  }
}

/** The world to make room for one more: the one unused longest, never a start token's (`pinned`) nor `kept`; undefined when none may go. */
function idlest(worlds: Iterable<World>, pinned: ReadonlySet<string>, kept?: World): World | undefined {
  let found: World | undefined
  for (const world of worlds) {
    if (world !== kept && !pinned.has(world.token) && (!found || world.lastUsed < found.lastUsed)) found = world
  }
  return found
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return `rm_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** A world's own variants over the calibration's (the choices a handler makes as the real service was seen to). */
function withCalibration(variants: Variants, calibration: Calibration | undefined): Variants {
  if (!calibration) return variants
  const merged = { ...calibrationVariants(calibration), ...variants }
  return Object.keys(merged).length === Object.keys(variants).length ? variants : Object.freeze(merged)
}
