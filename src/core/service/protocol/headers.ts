// Headers as the protocol reads them: a header's value, and the end-to-end headers a proxy passes on.

/** Header names in lower case, as Node gives them. */
export type Headers = Record<string, string | string[] | undefined>

/** A header's value, repeated values joined as HTTP joins them; names in lower case. */
export function header(headers: Headers | undefined, name: string): string | undefined {
  const value = headers?.[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * The hop-by-hop headers of RFC 9110 7.6.1 (and the ones older proxies still send): they describe one
 * connection, so a proxy never forwards them; the names a `Connection` header lists are dropped too.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
])

/**
 * The headers a proxy forwards: every one but the hop-by-hop ones and those `Connection` names, and
 * none of `drop` (the proxy sets `host`, `content-length` and the like itself).
 * @example endToEnd({ connection: 'close, x-trace', 'x-trace': '1', accept: '*\/*' }) // { accept: '*\/*' }
 */
export function endToEnd(headers: Headers, drop: ReadonlySet<string> = NO_NAMES): Record<string, string | string[]> {
  const connection = header(headers, 'connection')
  // Most say only keep-alive or close, which name no header of their own.
  const named =
    connection === undefined || PLAIN_CONNECTION.test(connection)
      ? NO_NAMES
      : new Set(
          connection
            .split(',')
            .map((name) => name.trim().toLowerCase())
            .filter(Boolean),
        )
  const out: Record<string, string | string[]> = {}
  for (const name in headers) {
    const value = headers[name]
    const lower = name.toLowerCase()
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower) || drop.has(lower)) continue
    out[lower] = value
  }
  return out
}

const NO_NAMES: ReadonlySet<string> = new Set()
const PLAIN_CONNECTION = /^\s*(?:keep-alive|close)\s*$/i
