// The journal: every request the mock received, in order, with what it answered. It is the single
// source of truth for what a client did: rules, reports, the live page and HAR all read it.
import type { FaultRecord } from './faults.js'

/** One request and its answer, as the mock saw them. */
export interface JournalEntry {
  /** Position in the mock's whole journal, from 1. */
  seq: number
  /** When the request arrived, ISO 8601. */
  time: string
  durationMs: number
  /** The world the request was attributed to (by its token, or by the listener it came in on), or null. */
  worldId: string | null
  request: {
    method: string
    /** The path without the query string. */
    path: string
    /** The query parameters; a repeated name keeps its last value, as the service reads it. */
    query: Record<string, string>
    /** The query string as sent, with its leading `?`, or ''. */
    search: string
    /** Header names in lower case; the bearer token masked. */
    headers: Record<string, string>
    /** The body as text, exactly as received (up to the size limit), when there was one. */
    bodyText?: string
    /** The parsed body, when it was valid JSON. */
    body?: unknown
    /** Why the body could not be read as JSON, when it could not. */
    bodyError?: string
  }
  response: {
    status: number
    headers: Record<string, string>
    body: unknown
  }
  /** The documented endpoint the request matched, e.g. `GET /vehicles`; null when it matched none. */
  route: string | null
  /** What the mock made of the Authorization header. */
  auth: AuthVerdict
  /** The fault this request met, when one was armed for it (see FAULT_KINDS). */
  fault?: FaultRecord
}

export type AuthVerdict = 'ok' | 'missing' | 'malformed' | 'unknown-token' | 'revoked'

export interface JournalPage {
  /** How many entries were ever recorded here. */
  total: number
  /** How many of the oldest were dropped beyond the cap. */
  dropped: number
  limit: number
  entries: JournalEntry[]
}

/**
 * A capped, ordered record of requests. Beyond the cap the oldest entries are dropped and counted.
 * @example
 * const journal = createJournal({ limit: 1000 })
 * journal.record(entry)
 * journal.page().entries
 */
export function createJournal({ limit = 10_000 }: { limit?: number } = {}) {
  let ring: JournalEntry[] = []
  let start = 0 // index of the oldest entry in `ring` once it is full
  let total = 0
  const listeners = new Set<(entry: JournalEntry) => void>()

  /** The i-th oldest kept entry. */
  const at = (i: number): JournalEntry => ring[ring.length < limit ? i : (start + i) % limit]

  return {
    limit,
    record(entry: JournalEntry): void {
      total++
      if (ring.length < limit) ring.push(entry)
      else {
        ring[start] = entry
        start = (start + 1) % limit
      }
      for (const listener of listeners) listener(entry)
    },
    /** The kept entries, oldest first; with `since`, only those whose seq is greater (found from the newest end). */
    entries(since = 0): JournalEntry[] {
      let from = ring.length
      while (from > 0 && at(from - 1).seq > since) from--
      const out: JournalEntry[] = []
      for (let i = from; i < ring.length; i++) out.push(at(i))
      return out
    },
    /** The newest kept entry, without copying the journal. */
    latest(): JournalEntry | undefined {
      return ring.length > 0 ? at(ring.length - 1) : undefined
    },
    page(since = 0): JournalPage {
      return { total, dropped: Math.max(0, total - limit), limit, entries: this.entries(since) }
    },
    get size() {
      return ring.length
    },
    clear(): void {
      ring = []
      start = 0
      total = 0
    },
    /** Calls `listener` with each entry as it is recorded; returns the unsubscribe function. */
    subscribe(listener: (entry: JournalEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type Journal = ReturnType<typeof createJournal>

export { maskAuthorization, maskSecret as maskToken } from './mask.js'
