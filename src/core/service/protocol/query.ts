// The query string read as the service reads it: each name once, the last value counting.
import { readingOnce } from '../../once.js'

/**
 * The query string's parameters; a repeated name keeps its last value, as the service reads it. A string
 * with nothing to decode (the usual `?plate=AB123`) is split by hand: URLSearchParams costs more than
 * the rest of a lookup.
 * @example parseQuery('?plate=AB123&x=1') // { plate: 'AB123', x: '1' }
 */
export function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {}
  if (search.length <= 1) return query
  if (search.includes('%') || search.includes('+')) {
    for (const [k, v] of new URLSearchParams(search)) query[k] = v
    return query
  }
  let at = 1
  while (at <= search.length) {
    let end = search.indexOf('&', at)
    if (end === -1) end = search.length
    if (end > at) {
      const eq = search.indexOf('=', at)
      if (eq === -1 || eq > end) query[search.slice(at, end)] = ''
      else query[search.slice(at, eq)] = search.slice(eq + 1, end)
    }
    at = end + 1
  }
  return query
}

/**
 * parseQuery, frozen, answering the same object again for the same query string as last time: a client
 * repeats its lookups, and their journal entries share the one reading.
 */
export const parseQueryOnce: (search: string) => Readonly<Record<string, string>> = readingOnce((search) =>
  Object.freeze(parseQuery(search)),
)
