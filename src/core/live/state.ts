// What the live page shows of one world, computed on each poll: its requests (its own, and those no
// token attributed to any world), its visits with their verdicts, and which records the clients made.
import type { JournalEntry, Journal } from '../journal.js'
import type { RelayService } from '../mock.js'
import type { World } from '../world.js'
import { checkVisits, VISIT_DEFAULTS, type LiveVisit } from './visits.js'

interface Seen {
  journal: Journal
  /** Requests no world claimed are shown from after this seq: the world's last reset. */
  strayAfter: number
}

const seen = new WeakMap<World, Seen>()

function lastSeq(journal: Journal): number {
  return journal.latest()?.seq ?? 0
}

/**
 * The requests the live page shows for a world, oldest first: the world's own, and the requests that
 * carried no valid token (the mock could not attribute them to any world, and a client that forgets its
 * token must still see its requests). Stray requests from before the world's last reset are left out.
 * @example liveEntries(mock, mock.world).length
 */
export function liveEntries(mock: RelayService, world: World): JournalEntry[] {
  let record = seen.get(world)
  if (!record) {
    // Seen for the first time: if it was reset before, its requests from before the reset are in the
    // mock's journal but not in its own, and the last of them bounds the strays that belong to it now.
    const own = new Set(world.journal.entries().map((entry) => entry.seq))
    const before = mock.journal.entries().filter((entry) => entry.worldId === world.id && !own.has(entry.seq)).at(-1)?.seq ?? 0
    record = { journal: world.journal, strayAfter: before }
    seen.set(world, record)
  } else if (record.journal !== world.journal) {
    // resetWorld gives the world a fresh journal: strays before it belong to the old world.
    const first = world.journal.entries()[0]?.seq
    record.journal = world.journal
    record.strayAfter = first !== undefined ? first - 1 : lastSeq(mock.journal)
  }
  const own = world.journal.entries()
  const after = record.strayAfter
  // A browser that opens the page asks for /favicon.ico with no token: that is not the client's request.
  const strays = mock.journal.entries(after).filter((entry) => entry.worldId === null && entry.request.path !== '/favicon.ico')
  if (strays.length === 0) return own
  return [...own, ...strays].sort((a, b) => a.seq - b.seq)
}

/**
 * Records that a world was just reset (the admin API's reset and scenario switch call it), so requests
 * that no world claimed before now drop out of its page at once.
 * @example await mock.resetWorld(world, 'unknown-owner'); markReset(mock, world)
 */
export function markReset(mock: RelayService, world: World): void {
  seen.set(world, { journal: world.journal, strayAfter: lastSeq(mock.journal) })
}

const generations = new WeakMap<Journal, number>()
let generationCount = 0

/** A number per journal object: a reset gives the world a new journal, so the page knows to redraw. */
function generation(journal: Journal): number {
  let n = generations.get(journal)
  if (n === undefined) generations.set(journal, (n = ++generationCount))
  return n
}

export interface LiveState {
  /** Changes whenever anything the page shows changes. */
  state: string
  entries: JournalEntry[]
  quietMs: number
}

export interface LiveSnapshot extends LiveState {
  visits: LiveVisit[]
}

/**
 * The world's requests and a state key for cheap polling, without judging anything: the key changes
 * with a request, a reset, a scenario switch, or the last visit falling quiet.
 * @example liveState(mock, mock.world, { now: Date.now() }).state
 */
export function liveState(mock: RelayService, world: World, { now, quietMs = VISIT_DEFAULTS.quietMs }: { now: number; quietMs?: number }): LiveState {
  const entries = liveEntries(mock, world)
  const last = entries.at(-1)
  const quiet = last === undefined || now - Date.parse(last.time) >= quietMs
  const state = [world.id, generation(world.journal), world.scenario.name, entries.length, last?.seq ?? 0, quiet ? 'c' : 'o'].join('.')
  return { state, entries, quietMs }
}

const judged = new WeakMap<World, Map<string, LiveVisit>>()

/**
 * The world's visits, judged (each complete visit once, then remembered), and the state key.
 * @example const { state, visits } = liveSnapshot(mock, mock.world, { now: Date.now() })
 */
export function liveSnapshot(mock: RelayService, world: World, options: { now: number; quietMs?: number }, known?: LiveState): LiveSnapshot {
  const live = known ?? liveState(mock, world, options)
  let cache = judged.get(world)
  if (!cache) judged.set(world, (cache = new Map()))
  return { ...live, visits: checkVisits(live.entries, { now: options.now, quietMs: live.quietMs, cache }) }
}
