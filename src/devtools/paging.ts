// Paged admin reads (the journal, the visits): a page from `?since=` of at most `?limit=` items, so
// a poll never copies a whole journal, and a `next` cursor to read on.
import { toProblem, type Reply } from '../core/problems.js'

/** The most entries one page of an admin read holds: a poll never copies a whole journal. */
export const PAGE_MAX = 1000

/**
 * `?since=` and `?limit=` of a paged admin read, or the 400 that says what to send.
 * @example pagingOf({ since: '40', limit: '10' }) // { since: 40, limit: 10 }
 */
export function pagingOf(query: Record<string, string>): { since: number; limit: number } | Reply {
  const since = query.since === undefined || query.since === '' ? 0 : Number(query.since)
  const limit = query.limit === undefined || query.limit === '' ? PAGE_MAX : Number(query.limit)
  if (!Number.isSafeInteger(since) || since < 0) return toProblem(400, `?since= takes the seq of the last entry you have (a whole number from 0), not "${query.since}".`)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_MAX) return toProblem(400, `?limit= takes a whole number from 1 to ${PAGE_MAX}, not "${query.limit}".`)
  return { since, limit }
}


/**
 * `?scope=all` is the admin token's: an ordinary token sees its own world only. Undefined when allowed.
 * @example onlyAdminSeesAll({ scope: 'all' }, false) // a 403 saying what to do
 */
export function onlyAdminSeesAll(query: Record<string, string>, admin: boolean | undefined): Reply | undefined {
  if (query.scope === undefined || query.scope === 'world') return undefined
  if (query.scope !== 'all') return toProblem(400, `?scope= takes world (the default) or all, not "${query.scope}".`)
  return admin ? undefined : toProblem(403, "?scope=all shows every world's requests: only the admin token (relay-mock serve --admin-token) may ask for it. Please drop ?scope=all to read your own world.")
}
