// When each world was last reset, as the live page needs it to tell a world's stray requests from an
// older world's. Kept from the service's start, so the live page (loaded on its first request) sees every
// reset made before it was loaded, exactly as if it had been there all along.
import type { Journal } from '../../core/service/journal.js'
import type { RelayService } from '../../core/service/mock.js'
import type { World } from '../../core/service/world.js'

/** What the live page knows of a world's journal: which one it is, and from where its strays count. */
export interface Seen {
  journal: Journal
  /** Requests no world claimed are shown from after this seq: the world's last reset. */
  strayAfter: number
}

/** The live page's record of resets over one service: one per world, replaced at each reset. */
export interface ResetMarks {
  service: RelayService
  /** Per world, what the live page has seen of it (a reset, or its first look at the world). */
  seen: WeakMap<World, Seen>
  /** Records that a world was just reset, so requests no world claimed before now drop out of its page. */
  mark(world: World): void
}

/** The last seq a journal holds, 0 when it holds none. */
export function lastSeq(journal: Journal): number {
  return journal.latest()?.seq ?? 0
}

/**
 * The reset marks of a service, for `createLiveState`.
 * @example const marks = createResetMarks(service); service.use({ onReset: (world) => marks.mark(world) })
 */
export function createResetMarks(service: RelayService): ResetMarks {
  const seen = new WeakMap<World, Seen>()
  return {
    service,
    seen,
    mark(world) {
      seen.set(world, { journal: world.journal, strayAfter: lastSeq(service.journal) })
    },
  }
}
