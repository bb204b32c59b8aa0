// The answers of a world's reads, kept while its records stay as they were. A GET changes nothing
// (RFC 9110 9.2.1) and the service's GET handlers answer from the world's records, the path and the
// query alone: the same request against the same records has the same answer. A client asks the same
// lookup again and again (each visit's steps, its retries, a poll), so the pipeline keeps the answer,
// already validated and serialized, until the next write to the world. Faults, latency and the
// journal are not kept: every request still meets them.
import type { Reply } from './problems.js'

/** A read's answer as the pipeline keeps it: the validated query its handler was given, the reply and its text. */
export interface KeptRead {
  query: unknown
  /** Frozen, with its body: journal entries share it. */
  reply: Reply
  text: string
}

/** How many answers a world keeps; beyond, the one kept longest goes. */
export const READS_KEPT = 64
/**
 * An answer whose URL and text are longer in all (in UTF-16 units) is not kept: a read's answers are
 * small (a lookup finds a few records), and a world's kept reads stay within READS_KEPT times this.
 */
export const READ_TEXT_KEPT = 16 * 1024

/**
 * One world's kept reads, by request URL, valid for one version of its store (see Store.version).
 * @example
 * const kept = reads.get(url, store.version()) // undefined after any write
 * if (!kept) reads.set(url, store.version(), { query, reply, text })
 */
export class Reads {
  #version = -1
  readonly #kept = new Map<string, KeptRead>()

  /** The answer kept for `url` when the records are still at `version`. */
  get(url: string, version: number): KeptRead | undefined {
    if (version !== this.#version) return undefined
    return this.#kept.get(url)
  }

  /**
   * Keeps an answer read at `version` (answers of an older version are forgotten). Freezes the reply,
   * body and all: a read's handler answers copies of the records it read (never the stored records,
   * which @msw/data still writes to), as every GET handler of the service does.
   */
  set(url: string, version: number, read: KeptRead): void {
    if (url.length + read.text.length > READ_TEXT_KEPT) return
    if (version !== this.#version) {
      this.#kept.clear()
      this.#version = version
    }
    if (this.#kept.size >= READS_KEPT) this.#kept.delete(this.#kept.keys().next().value as string)
    deepFreeze(read.reply)
    this.#kept.set(url, read)
  }

  get size(): number {
    return this.#kept.size
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return
  Object.freeze(value)
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
}
