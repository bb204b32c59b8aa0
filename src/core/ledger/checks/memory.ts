// What a world's earlier answers taught the ledger's checks: owners the service does not know, links it
// handed out, plates it holds. Bounded per world. learn.ts fills it.

/** What a world's earlier answers taught: owners the service does not know, links it handed out. */
export interface Memory {
  unknownOwners: RecentSet
  links: RecentSet
  /** Plates of vehicles the service listed or created, as written, and in their matched form (normalizePlate). */
  plates: RecentSet
  platesMatched: RecentSet
}

/** At most this many owners and links are remembered per world: memory stays bounded. */
const MEMORY_MAX = 1000

/**
 * A world's fresh memory.
 * @example const memory = createMemory(); learn(observed, memory)
 */
export function createMemory(): Memory {
  return {
    unknownOwners: new RecentSet(),
    links: new RecentSet(),
    plates: new RecentSet(),
    platesMatched: new RecentSet(),
  }
}

/**
 * The latest values seen, at most MEMORY_MAX of them: they go in two generations of at most half that
 * each; when the newer is full it becomes the older, and the older is dropped whole. Once full (and
 * but for values deleted), it holds between half the bound and the bound, the newest always, at no
 * cost per value beyond a Set's own: dropping the oldest values one by one, or copying the newer half
 * of one Set, costs more on every create.
 * @example const links = new RecentSet(); links.add('/vehicles/5f0c…'); links.has('/vehicles/5f0c…') // true
 */
class RecentSet {
  #newer = new Set<string>()
  #older: Set<string> | undefined
  has(value: string): boolean {
    return this.#newer.has(value) || this.#older?.has(value) === true
  }
  add(value: string): void {
    if (this.has(value)) return
    if (this.#newer.size >= MEMORY_MAX / 2) {
      this.#older = this.#newer
      this.#newer = new Set()
    }
    this.#newer.add(value)
  }
  delete(value: string): void {
    this.#newer.delete(value)
    this.#older?.delete(value)
  }
  get size(): number {
    return this.#newer.size + (this.#older?.size ?? 0)
  }
}
