// The journal: every request the mock received, in order, with what it answered. It is the single
// source of truth for what a client did: rules, reports, the live page and HAR all read it.
import { describeError } from '../errors.js'
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
    /** The query parameters; a repeated name keeps its last value, as the service reads it. Entries of requests with the same query string may share one object: read-only. */
    query: Readonly<Record<string, string>>
    /** The query string as sent, with its leading `?`, or ''. */
    search: string
    /** Header names in lower case; the bearer token masked. Entries whose requests sent the same headers share one object: read-only. */
    headers: Readonly<Record<string, string>>
    /** The body as text, exactly as received, when there was one; only its first characters when `bodyTruncated`. */
    bodyText?: string
    /** Set when the body was longer than the journal keeps: `bodyText` is its prefix. */
    bodyTruncated?: true
    /** The whole body's length in bytes (UTF-8), when it was truncated. */
    bodyBytes?: number
    /** The whole body's SHA-256 (hex), when it was truncated: to tell two long bodies apart. */
    bodySha256?: string
    /** The parsed body, when it was valid JSON (not kept for a truncated body). */
    body?: unknown
    /** Why the body could not be read as JSON, when it could not. */
    bodyError?: string
  }
  response: {
    status: number
    /** Names in lower case; a field sent more than once (a proxied Set-Cookie) holds its values one per line. */
    headers: Record<string, string>
    body: unknown
    /** `relay-mock proxy`: set when the upstream's answer was larger than the body limit. It was passed on whole as it came; `body` holds its first bytes as text. */
    bodyTruncated?: true
  }
  /** The documented endpoint the request matched, e.g. `GET /vehicles`; null when it matched none. */
  route: string | null
  /** What the mock made of the Authorization header. */
  auth: AuthVerdict
  /** The fault this request met, when one was armed for it (see FAULT_KINDS). */
  fault?: FaultRecord
  /** `relay-mock proxy` only: the upstream's part in the answer (its status, or what went wrong on the way). */
  upstream?: UpstreamNote
  /**
   * The connection the request came on, when the transport knows it (relay-mock's Node server does; a HAR's
   * `connection`): entries with the same id came on the same connection, so a request after the first on it
   * came on a kept-alive connection.
   */
  connection?: string
}

/** What the journal keeps of the upstream's part in a proxied answer. */
export interface UpstreamNote {
  /** The upstream's status; null when it gave none (trouble) or was not asked (a fault that forwards nothing, a refusal of the proxy's own). */
  status: number | null
  /** What went wrong on the way, when something did: its kind (see UPSTREAM_TROUBLES) and the transport's words. */
  trouble?: { kind: string; detail: string }
  /** How long the upstream took to answer whole. */
  durationMs?: number
}

/** What the mock makes of a request's Authorization header. */
export const AUTH_VERDICTS = ['ok', 'missing', 'malformed', 'unknown-token', 'revoked'] as const

export type AuthVerdict = (typeof AUTH_VERDICTS)[number]

export interface JournalPage {
  /** How many entries were ever recorded here. */
  total: number
  /** How many of the oldest were dropped beyond the caps (entry count or bytes). */
  dropped: number
  /** The bytes of the dropped entries (as counted by the journal: their JSON size, about). */
  droppedBytes: number
  /** The bytes the kept entries hold. */
  bytes: number
  /** The entry cap. */
  limit: number
  /** The byte cap. */
  maxBytes: number
  entries: JournalEntry[]
  /** The `since` that reads on from this page, when it stopped at its `limit` with newer entries left. */
  next?: number
}

export interface JournalOptions {
  /** How many entries it keeps (the oldest are dropped beyond). Default 10,000. */
  limit?: number
  /** How many bytes the kept entries may hold (the oldest are dropped beyond). Default no cap. */
  maxBytes?: number
  /** Told of each entry dropped beyond a cap, oldest first. */
  onDrop?: (entry: JournalEntry) => void
}

/**
 * About how many bytes an entry holds: its JSON size. The mock passes its own count to `record`,
 * cheaper than this (it has the texts at hand).
 * @example entryBytes(entry) // 812
 */
export function entryBytes(entry: JournalEntry): number {
  return JSON.stringify(entry).length
}

/**
 * A capped, ordered record of requests. Beyond either cap (entries, bytes) the oldest entries are
 * dropped and counted.
 * @example
 * const journal = createJournal({ limit: 1000, maxBytes: 1 << 20 })
 * journal.record(entry)
 * journal.page({ since: 0, limit: 100 }).entries
 */
export function createJournal({ limit = 10_000, maxBytes = Number.POSITIVE_INFINITY, onDrop }: JournalOptions = {}) {
  // A queue: entries[head..] are kept, oldest first; the dropped front is cut off now and then.
  let entries: JournalEntry[] = []
  let sizes: number[] = []
  let head = 0
  let total = 0
  let bytes = 0
  let dropped = 0
  let droppedBytes = 0
  const listeners = new Set<(entry: JournalEntry) => void>()

  const size = () => entries.length - head
  /** The i-th oldest kept entry. */
  const at = (i: number): JournalEntry => entries[head + i]

  function dropOldest(): void {
    const entry = entries[head]
    bytes -= sizes[head]
    droppedBytes += sizes[head]
    dropped++
    entries[head] = undefined as unknown as JournalEntry
    head++
    if (head >= 1024 && head * 2 >= entries.length) {
      entries = entries.slice(head)
      sizes = sizes.slice(head)
      head = 0
    }
    onDrop?.(entry)
  }

  /** The index (from the oldest kept) of the first entry whose seq is greater than `since`, found from the newest end. */
  function firstAfter(since: number): number {
    let from = size()
    while (from > 0 && at(from - 1).seq > since) from--
    return from
  }

  return {
    limit,
    maxBytes,
    /** Records an entry of about `entrySize` bytes (default: its JSON size), dropping the oldest beyond the caps. */
    record(entry: JournalEntry, entrySize = entryBytes(entry)): void {
      total++
      entries.push(entry)
      sizes.push(entrySize)
      bytes += entrySize
      while (size() > limit || (bytes > maxBytes && size() > 1)) dropOldest()
      // Most journals have no listener: no iterator is made for them on every request.
      if (listeners.size > 0) for (const listener of listeners) tell('a journal subscriber', entry, listener)
    },
    /** Drops the kept entries up to `seq` (the whole journal dropped them: a world's journal follows it). */
    dropThrough(seq: number): void {
      while (size() > 0 && at(0).seq <= seq) dropOldest()
    },
    /** The kept entries, oldest first; with `since`, only those whose seq is greater (found from the newest end). */
    entries(since = 0): JournalEntry[] {
      return entries.slice(head + firstAfter(since))
    },
    /** The newest kept entry, without copying the journal. */
    latest(): JournalEntry | undefined {
      return size() > 0 ? at(size() - 1) : undefined
    },
    /** The entries after `since`, at most `limit` of them (oldest first), with the cursor to read on. */
    page({ since = 0, limit: most = Number.POSITIVE_INFINITY }: { since?: number; limit?: number } = {}): JournalPage {
      const from = head + firstAfter(since)
      const to = Math.min(entries.length, from + most)
      return toPage(
        { total, dropped, droppedBytes, bytes, limit, maxBytes },
        entries.slice(from, to),
        to < entries.length,
      )
    },
    get size() {
      return size()
    },
    get bytes() {
      return bytes
    },
    clear(): void {
      entries = []
      sizes = []
      head = total = bytes = dropped = droppedBytes = 0
    },
    /** Calls `listener` with each entry as it is recorded; returns the unsubscribe function. */
    subscribe(listener: (entry: JournalEntry) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** A page of entries with the journal's counts, and the cursor to read on when newer entries follow it. */
function toPage(counts: Omit<JournalPage, 'entries' | 'next'>, page: JournalEntry[], more: boolean): JournalPage {
  return { ...counts, entries: page, ...(more && page.length > 0 ? { next: page[page.length - 1].seq } : {}) }
}

/**
 * A listener (a journal subscriber, a dev tool) hears of an entry. One that fails to is a bug of its
 * own (a reporter's, a test's, a tool's): it is reported on stderr, and neither the entry, the answer
 * (already decided, maybe already applied), nor the other listeners are changed by it.
 * @example tell('a dev tool', entry, tool.onRecord, owner)
 */
export function tell<Rest extends unknown[]>(
  who: string,
  entry: JournalEntry,
  listener: ((entry: JournalEntry, ...rest: Rest) => void) | undefined,
  ...rest: Rest
): void {
  try {
    listener?.(entry, ...rest)
  } catch (error) {
    console.error(
      `relay-mock: ${who} failed on journal entry ${entry.seq} (${describeError(error)}); the request was answered and journaled as usual.`,
    )
  }
}

export type Journal = ReturnType<typeof createJournal>

export { maskAuthorization, maskSecret as maskToken } from '../mask.js'
