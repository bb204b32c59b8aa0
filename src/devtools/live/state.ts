// What the live page shows of one world, computed on each poll: its requests (its own, and those no
// token attributed to any world), its visits with their verdicts, and which records the clients made.
// The state belongs to one mounted set of dev tools (createLiveState per service), never to the module.
import { formatVariants } from '../../core/service/variants.js'
import type { JournalEntry, Journal } from '../../core/service/journal.js'
import type { RelayService } from '../../core/service/mock.js'
import type { World } from '../../core/service/world.js'
import { checkVisits, VISIT_DEFAULTS, type LiveVisit } from './visits.js'
import { formatFault } from '../../core/service/faults.js'
import { createResetMarks, lastSeq, type ResetMarks } from './resets.js'

export interface LiveState {
  /** Changes whenever anything the page shows changes. */
  state: string
  entries: JournalEntry[]
  quietMs: number
}

export interface LiveSnapshot extends LiveState {
  visits: LiveVisit[]
}

/** The live page's view of one service: which requests each world's page shows, and their verdicts. */
export interface LiveView {
  service: RelayService
  /**
   * The requests the live page shows for a world, oldest first: the world's own, and the requests that
   * carried no valid token (the mock could not attribute them to any world, and a client that forgets its
   * token must still see its requests). Stray requests from before the world's last reset are left out.
   */
  entries(world: World): JournalEntry[]
  /** Records that a world was just reset, so requests no world claimed before now drop out of its page. */
  markReset(world: World): void
  /**
   * The world's requests and a state key for cheap polling, without judging anything: the key changes
   * with a request, a reset, a scenario switch, a fault armed or cleared, or the last visit falling quiet.
   */
  state(world: World, options: { now: number; quietMs?: number }): LiveState
  /** The world's visits, judged (each complete visit once, then remembered), and the state key. */
  snapshot(world: World, options: { now: number; quietMs?: number }, known?: LiveState): LiveSnapshot
}

/**
 * The live page's state over a service. `marks` are the resets recorded since the service started, when the
 * state is made later than the service (the dev tools load the live page on its first request).
 * @example const live = createLiveState(service); live.snapshot(service.world, { now: Date.now() }).visits
 */
export function createLiveState(service: RelayService, marks: ResetMarks = createResetMarks(service)): LiveView {
  const { seen } = marks
  const judged = new WeakMap<World, Map<string, LiveVisit>>()
  const generations = new WeakMap<Journal, number>()
  let generationCount = 0

  /** A number per journal object: a reset gives the world a new journal, so the page knows to redraw. */
  function generation(journal: Journal): number {
    let n = generations.get(journal)
    if (n === undefined) generations.set(journal, (n = ++generationCount))
    return n
  }

  function entries(world: World): JournalEntry[] {
    let record = seen.get(world)
    if (!record) {
      // Seen for the first time: if it was reset before, its requests from before the reset are in the
      // service's journal but not in its own, and the last of them bounds the strays that belong to it now.
      const own = new Set(world.journal.entries().map((entry) => entry.seq))
      const before =
        service.journal
          .entries()
          .filter((entry) => entry.worldId === world.id && !own.has(entry.seq))
          .at(-1)?.seq ?? 0
      record = { journal: world.journal, strayAfter: before }
      seen.set(world, record)
    } else if (record.journal !== world.journal) {
      // resetWorld gives the world a fresh journal: strays before it belong to the old world.
      const first = world.journal.entries()[0]?.seq
      record.journal = world.journal
      record.strayAfter = first !== undefined ? first - 1 : lastSeq(service.journal)
    }
    const own = world.journal.entries()
    // A browser that opens the page asks for /favicon.ico with no token: that is not the client's request.
    const strays = service.journal
      .entries(record.strayAfter)
      .filter((entry) => entry.worldId === null && entry.request.path !== '/favicon.ico')
    if (strays.length === 0) return own
    return [...own, ...strays].sort((a, b) => a.seq - b.seq)
  }

  function state(
    world: World,
    { now, quietMs = VISIT_DEFAULTS.quietMs }: { now: number; quietMs?: number },
  ): LiveState {
    const shown = entries(world)
    const last = shown.at(-1)
    const quiet = last === undefined || now - Date.parse(last.time) >= quietMs
    // Arming or clearing a fault, or changing the variants, sends no request of the world's, so they are part of the key.
    const key = [
      world.id,
      generation(world.journal),
      world.scenario.name,
      shown.length,
      last?.seq ?? 0,
      quiet ? 'c' : 'o',
      world.faults.map(formatFault).join(','),
      formatVariants(world.variants),
    ].join('.')
    return { state: key, entries: shown, quietMs }
  }

  return {
    service,
    entries,
    markReset: (world) => marks.mark(world),
    state,
    snapshot(world, options, known) {
      const live = known ?? state(world, options)
      let cache = judged.get(world)
      if (!cache) judged.set(world, (cache = new Map<string, LiveVisit>()))
      return {
        ...live,
        visits: checkVisits(live.entries, { now: options.now, quietMs: live.quietMs, cache, token: world.token }),
      }
    },
  }
}
