// The scenarios one service knows by name, and each one's seeded world. Seeding is the slow part of a
// world (faker, then the store's load and checks): a scenario is seeded once per seed and vehicle
// count, and every world of it shares the result, read-only.
import { scenarios as builtInScenarios } from '../../../scenarios/index.js'
import { describeError, RelayMockError } from '../errors.js'
import type { Scenario } from './scenario.js'
import { buildWorld, type SeededWorld } from './seed.js'
import type { RelayServiceSettings, SeedCache } from './service.js'
import { createStore, type Store } from './store.js'

/** A scenario's seeded world and its store loaded with it: what every world of the scenario is layered on. */
interface Seed {
  seeded: SeededWorld
  base: Store
}

/**
 * The built-in scenarios and the user's, by name, each seeded on first use.
 * @example
 * const scenarios = createScenarios({ settings, own: [myScenario] })
 * const { seeded, base } = await scenarios.seeded(scenarios.named('new-vehicle'))
 */
export function createScenarios({
  settings,
  own = [],
  seedCache,
}: {
  settings: RelayServiceSettings
  own?: ReadonlyArray<Scenario>
  seedCache?: SeedCache
}) {
  // The service's own map: a scenario of the user's joins the built-in ones here, never in the shared registry.
  const known = new Map(builtInScenarios)
  const seeds = new Map<string, Promise<Seed>>()

  /** Makes a scenario of the user's known by its name; one name is one scenario. */
  function register(scenario: Scenario): Scenario {
    const taken = known.get(scenario.name)
    if (taken && taken !== scenario) {
      const whose = builtInScenarios.has(scenario.name)
        ? 'a built-in scenario'
        : 'another scenario given to this service'
      throw new RelayMockError(
        'SCENARIO_NAME_TAKEN',
        `Failed to add the scenario "${scenario.name}": ${whose} has that name. Please give your scenario a name of its own.`,
      )
    }
    known.set(scenario.name, scenario)
    return scenario
  }

  function named(nameOrScenario: string | Scenario): Scenario {
    if (typeof nameOrScenario !== 'string') return register(nameOrScenario)
    const name = nameOrScenario
    const scenario = known.get(name)
    if (!scenario) {
      throw new RelayMockError(
        'SCENARIO_NOT_FOUND',
        `Failed to find the scenario "${name}". Please use one of: ${[...known.keys()].join(', ')}; or one of your own (a file such as ./my-world.json, or defineScenario in code).`,
      )
    }
    return scenario
  }

  /** A scenario's seeded world and its loaded store, built once and shared by every world of the scenario. */
  function seeded(scenario: Scenario): Promise<Seed> {
    const key = `${scenario.name}|${settings.seed}|${settings.vehicles}`
    let found = seeds.get(key)
    if (!found) {
      found = seedScenario(scenario, key, settings, seedCache)
      seeds.set(key, found)
      // A failed seed is not kept: the next world of the scenario tries again (and says why again).
      found.catch(() => seeds.delete(key))
    }
    return found
  }

  for (const scenario of own) register(scenario)
  return {
    /** The scenarios known by name: the built-in ones and those of the user's given to this service. */
    known: known as ReadonlyMap<string, Scenario>,
    /** The scenario of that name, or the user's own scenario, made known by its name. */
    named,
    seeded,
  }
}

export type Scenarios = ReturnType<typeof createScenarios>

/** Seeds a scenario, or reads its world from the seed cache (only a built-in scenario's). */
async function seedScenario(
  scenario: Scenario,
  key: string,
  settings: RelayServiceSettings,
  seedCache: SeedCache | undefined,
): Promise<Seed> {
  // Only a built-in scenario's world is cached: a user's scenario can change between runs under the same name.
  const cache = seedCache && builtInScenarios.get(scenario.name) === scenario ? seedCache : undefined
  const cached = orMiss(() => cache?.get(key))
  if (cached) {
    const base = createStore()
    // The store checks every record by its schema: a cached world that fails is seeded afresh instead.
    if (
      await base.load(cached.data).then(
        () => true,
        () => false,
      )
    )
      return { seeded: cached, base }
  }
  let world: SeededWorld
  try {
    world = await buildWorld(scenario, { seed: settings.seed, vehicles: settings.vehicles })
  } catch (error) {
    // A scenario of the user's may fail in its seed: that is a set-up error to fix, not a bug in the mock.
    throw new RelayMockError(
      'SCENARIO_SEED_FAILED',
      `Failed to seed the scenario "${scenario.name}": ${describeError(error).replace(/\.?$/, '.')} Please fix its seed.`,
    )
  }
  const base = createStore()
  try {
    await base.load(world.data)
  } catch (error) {
    throw new RelayMockError(
      'SCENARIO_SEED_FAILED',
      `Failed to seed the scenario "${scenario.name}": ${describeError(error)}. Please fix its seed.`,
    )
  }
  if (cache) orMiss(() => cache.set(key, world))
  return { seeded: world, base }
}

/** What `read` returns, or undefined when it throws: a cache that fails is a cache that misses. */
function orMiss<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}
