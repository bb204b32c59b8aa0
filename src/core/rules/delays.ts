// How long a case waited on the service's deliberate delays, from its journal: a slow answer's hold, a
// hung request until the client gave up on it, and the wait a 503 or 429 asked for (as much of it as
// the client waited before it came back). What a run's summary calls time spent waiting on the service.
import type { JournalEntry } from '../service/journal.js'
import { waitAskedFor } from '../exchange/entry.js'
import { attempts, waitBetween } from './facts.js'

/**
 * The ms a case's requests were held or told to wait by the service on purpose.
 * @example deliberateDelayMs(entries) // 5000: a lookup hung twice, each given up after 2.5 s
 */
export function deliberateDelayMs(requests: ReadonlyArray<JournalEntry>): number {
  let total = 0
  for (const entry of requests) {
    if (entry.fault?.kind === 'slow' || entry.fault?.kind === 'hang') total += entry.durationMs
  }
  for (const group of attempts(requests)) {
    for (let i = 0; i + 1 < group.length; i++) {
      const told = waitAskedFor(group[i])
      if (told) total += Math.max(0, Math.min(told.ms, waitBetween(group[i], group[i + 1])))
    }
  }
  return total
}
