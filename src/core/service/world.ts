// A world: one token's own store, scenario and journal. Worlds never share records, so many
// clients and many parallel test cases can use one mock.
import { createJournal, type Journal } from './journal.js'
import { createRandom, type Random } from '../random.js'
import type { ArmedFault } from './faults.js'
import type { Scenario, Visit } from './scenario.js'
import type { SeededWorld } from './seed.js'
import { layerStore, type Store } from './store.js'
import type { LocationRecord } from './schemas.js'
import { Reads } from './reads.js'
import type { Variants } from './variants.js'

export interface World {
  /** A short name for the world, e.g. `world-3`: shown in the journal instead of the token. */
  id: string
  token: string
  scenario: Scenario
  store: Store
  /** The location the token was issued to: its id is the `locationId` a client sends. */
  location: LocationRecord
  /** The visit that exercises the scenario. */
  visit: Visit
  hints: SeededWorld['hints']
  /** This world's requests (each also in the mock's whole journal). */
  journal: Journal
  /** The source of ids created at run time. */
  random: Random
  /** The faults armed here: the scenario's, then any armed for this world (a case, `serve --fault`, the admin API). */
  faults: ArmedFault[]
  /** How many times each fault has been answered here: a reset re-arms them, and worlds never share them. */
  faultsAnswered: Map<ArmedFault, number>
  /** Set by the fault `token-revoked`: every later request with this world's token is a 401. */
  revoked: boolean
  /** When a request last reached the world (ms since the epoch): the idle worlds go first beyond the service's cap. */
  lastUsed: number
  /** The answers of its reads (GET), kept while its records stay as they were: see reads.ts. */
  reads: Reads
  /**
   * The alternatives of the assumption ledger this world is served under instead of relay-mock's choices
   * (see variants.ts); undefined when none, so that the pipeline's check costs one property read.
   */
  variants: Variants | undefined
}

/** Creates a world over a seeded (and cached) scenario world and its loaded, shared store. */
export function createWorld(options: {
  id: string
  token: string
  scenario: Scenario
  seeded: SeededWorld
  /** The seeded records, loaded once per scenario and shared read-only by its worlds. */
  base: Store
  journalLimit?: number
  /** Faults armed for this world beyond its scenario's. */
  faults?: ReadonlyArray<ArmedFault>
  /** How many records clients may create in it (the oldest created go first beyond). Default no cap. */
  maxRecords?: number
  /** The alternatives it is served under (see variants.ts). Default none. */
  variants?: Variants
}): World {
  const { id, token, scenario, seeded } = options
  const store = layerStore(options.base, { maxRecords: options.maxRecords })
  return {
    id,
    token,
    scenario,
    store,
    location: store.locations.all()[0],
    visit: seeded.visit,
    hints: seeded.hints,
    journal: createJournal({ limit: options.journalLimit }),
    random: createRandom(`${id}:${scenario.name}`),
    faults: [...(scenario.faults ?? []), ...(options.faults ?? [])],
    faultsAnswered: new Map(),
    revoked: false,
    lastUsed: Date.now(),
    reads: new Reads(),
    variants: options.variants && Object.keys(options.variants).length > 0 ? options.variants : undefined,
  }
}
