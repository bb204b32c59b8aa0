// The ledger's check of `links.fetchable` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'
import type { Memory } from './memory.js'

/** The verdict an answer gives `links.fetchable`, or undefined when it says nothing of it. */
export function linksFetchable(o: Observed, memory: Memory): CheckVerdict | undefined {
  if (o.method !== 'GET' || !memory.links.has(o.path) || silent(o.status)) return undefined
  const expected = `GET ${o.path} answers the record`
  if (o.status === 200) return confirmed(expected, '200')
  if (o.status === 404 || o.status === 405 || o.status === 410)
    return contradicted(expected, String(o.status), 'not-fetchable')
  return contradicted(expected, String(o.status))
}
