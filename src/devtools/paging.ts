// Paged admin reads (the journal, the visits, the world's records): a page from `?since=` of at most `?limit=` items, so
// a poll never copies a whole journal, and a `next` cursor to read on.
import { toProblem, type Reply } from '../core/service/problems.js'
import type { WorldData } from '../core/service/store.js'

/** The most entries one page of an admin read holds: a poll never copies a whole journal. */
export const PAGE_MAX = 1000

/**
 * `?since=` and `?limit=` of a paged admin read, or the 400 that says what to send.
 * @example pagingOf({ since: '40', limit: '10' }) // { since: 40, limit: 10 }
 */
export function pagingOf(query: Record<string, string>): { since: number; limit: number } | Reply {
  const since = query.since === undefined || query.since === '' ? 0 : Number(query.since)
  if (!Number.isSafeInteger(since) || since < 0)
    return toProblem(
      400,
      `?since= takes the seq of the last entry you have (a whole number from 0), not "${query.since}".`,
    )
  const limit = limitOf(query)
  return typeof limit === 'number' ? { since, limit } : limit
}

function limitOf(query: Record<string, string>): number | Reply {
  const limit = query.limit === undefined || query.limit === '' ? PAGE_MAX : Number(query.limit)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_MAX)
    return toProblem(400, `?limit= takes a whole number from 1 to ${PAGE_MAX}, not "${query.limit}".`)
  return limit
}

/** One page of a world's records, by kind, with how many there are in all and the cursor to read on. */
export interface RecordsPage {
  records: WorldData
  total: number
  /** The `since` that reads on from this page (the id of its last record), when records are left. */
  next?: string
}

/**
 * A page of a world's records as `?since=` and `?limit=` ask: the kinds in their order (locations,
 * rental companies, vehicles, custodians, payments), each oldest first, from after the record whose
 * id `since` is. Records carry no seq, so the cursor is an id: it stays put when the cap evicts older
 * created records, and names the record it lost when that one itself was evicted.
 * @example recordsPage(world.store.snapshot(), { limit: '100' }) // { records: { locations: [...], ... }, total: 1210, next: '<id>' }
 */
export function recordsPage(data: WorldData, query: Record<string, string>): RecordsPage | Reply {
  const limit = limitOf(query)
  if (typeof limit !== 'number') return limit
  const kinds = Object.keys(data) as Array<keyof WorldData>
  let total = 0
  for (const kind of kinds) total += data[kind].length
  let kind = 0
  let at = 0
  if (query.since !== undefined && query.since !== '') {
    kind = kinds.findIndex((name) => (at = data[name].findIndex((record) => record.id === query.since)) !== -1)
    if (kind === -1) {
      return toProblem(
        400,
        `?since= takes the id of the last record you have; the world has no record with the id "${query.since}" (a created record the cap evicted is gone). Please read again without ?since=.`,
      )
    }
    at++
  }
  const records = Object.fromEntries(kinds.map((name) => [name, []])) as unknown as Record<keyof WorldData, unknown[]>
  let taken = 0
  let last: string | undefined
  while (kind < kinds.length && taken < limit) {
    const list = data[kinds[kind]]
    const page = list.slice(at, at + limit - taken)
    records[kinds[kind]] = page
    taken += page.length
    at += page.length
    if (page.length > 0) last = page[page.length - 1].id
    if (at >= list.length) {
      kind++
      at = 0
    }
  }
  let left = false
  for (let k = kind; k < kinds.length && !left; k++) left = data[kinds[k]].length > (k === kind ? at : 0)
  return { records: records as unknown as WorldData, total, ...(left && last !== undefined ? { next: last } : {}) }
}

/**
 * `?scope=all` is the admin token's: an ordinary token sees its own world only. Undefined when allowed.
 * @example onlyAdminSeesAll({ scope: 'all' }, false) // a 403 saying what to do
 */
export function onlyAdminSeesAll(query: Record<string, string>, admin: boolean | undefined): Reply | undefined {
  if (query.scope === undefined || query.scope === 'world') return undefined
  if (query.scope !== 'all') return toProblem(400, `?scope= takes world (the default) or all, not "${query.scope}".`)
  return admin
    ? undefined
    : toProblem(
        403,
        "?scope=all shows every world's requests: only the admin token (relay-mock serve --admin-token) may ask for it. Please drop ?scope=all to read your own world.",
      )
}
