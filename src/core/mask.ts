// Credentials are masked wherever the mock shows or exports what it saw (the journal, HAR, reports,
// the live page, the console): one function decides what a masked secret looks like, and the
// helpers below find the secrets in headers and query strings.
import { readingOnce } from './once.js'

/**
 * What marks a masked value: masking a masked value changes nothing, so exports can be masked again on
 * import. Never part of a real token (those are ASCII, see token.ts), so a masked one is told apart.
 * @example maskSecret('rm_0123456789abcdef').startsWith(MASK_MARK) // true
 */
export const MASK_MARK = '…'

/** How many trailing characters a masked secret keeps: enough to tell two apart, never enough to use one. */
export const MASK_KEEP = 4

/**
 * A secret reduced to its last 4 characters (none when it is shorter than 12, so that little of a short one shows).
 * @example maskSecret('rm_0123456789abcdef') // '…cdef'
 */
export function maskSecret(secret: string): string {
  if (secret.startsWith(MASK_MARK)) return secret
  return secret.length >= 3 * MASK_KEEP ? `${MASK_MARK}${secret.slice(-MASK_KEEP)}` : MASK_MARK
}

/**
 * An Authorization value with its scheme kept and its credentials masked.
 * @example maskAuthorization('Bearer rm_0123456789abcdef') // 'Bearer …cdef'
 */
export function maskAuthorization(value: string): string {
  // The scheme and the spacing as sent (a stricter service may refuse `bearer` or a double space: see
  // leniency.ts), the secret masked.
  const match = /^(\s*\S+)(\s+)(\S+)(\s*)$/.exec(value)
  // A scheme alone ("Bearer") is a mistake worth showing, not a secret.
  if (!match) return /^(?:bearer|basic|token|digest)$/i.test(value.trim()) ? value.trim() : maskSecret(value.trim())
  return `${match[1]}${match[2]}${maskSecret(match[3])}${match[4]}`
}

/** A Cookie or Set-Cookie value with each cookie's value masked (Set-Cookie's attributes kept). */
function maskCookies(value: string, setCookie: boolean): string {
  // Several Set-Cookie headers are journaled one per line: each line is a cookie of its own.
  if (setCookie && value.includes('\n'))
    return value
      .split('\n')
      .map((line) => maskCookies(line, true))
      .join('\n')
  return value
    .split(';')
    .map((pair, i) => {
      if (setCookie && i > 0) return pair
      const at = pair.indexOf('=')
      return at === -1 ? pair : `${pair.slice(0, at)}=${maskSecret(pair.slice(at + 1).trim())}`
    })
    .join(';')
}

/** The headers that carry credentials, by lower-case name. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
])

/**
 * One header's value as it may be shown: credentials masked, anything else unchanged.
 * @example maskHeader('cookie', 'session=abcdefghijklmnop') // 'session=…mnop'
 */
export function maskHeader(name: string, value: string): string {
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization':
      return maskAuthorization(value)
    case 'cookie':
      return maskCookies(value, false)
    case 'set-cookie':
      return maskCookies(value, true)
    case 'x-api-key':
      return maskSecret(value)
    default:
      return value
  }
}

/**
 * Headers (names in lower case) with their credentials masked; the same object when none has one.
 * @example maskHeaders({ authorization: 'Bearer rm_0123456789abcdef', accept: '*\/*' }).authorization // 'Bearer …cdef'
 */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | undefined
  for (const name in headers) {
    if (!SECRET_HEADERS.has(name.toLowerCase())) continue
    out ??= { ...headers }
    out[name] = maskHeader(name, headers[name])
  }
  return out ?? headers
}

/** Query parameters that carry credentials: a client may put its token in the URL. */
const SECRET_PARAM =
  /^(?:token|access_token|refresh_token|id_token|auth|api[_-]?key|apikey|key|secret|client_secret|password)$/i

/**
 * True for a query parameter name that carries a credential.
 * @example isSecretParam('access_token') // true
 */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name)
}

/**
 * Query parameters with their credentials masked; the same object when none has one.
 * @example maskQuery({ plate: 'AB123', token: 'rm_0123456789abcdef' }) // { plate: 'AB123', token: '…cdef' }
 */
export function maskQuery(query: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  // A frozen query cannot have changed since it was last masked: a client repeats its lookups, and the
  // pipeline hands the same frozen reading of the same query string.
  if (query === lastQuery) return lastMaskedQuery
  const masked = maskQueryOf(query)
  if (!Object.isFrozen(query)) return masked
  // Entries of the requests that sent it share the masked copy: frozen as the query is.
  lastQuery = query
  lastMaskedQuery = Object.freeze(masked)
  return masked
}
let lastQuery: Readonly<Record<string, string>> | undefined
let lastMaskedQuery: Readonly<Record<string, string>> = {}

function maskQueryOf(query: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let out: Record<string, string> | undefined
  for (const name in query) {
    if (!isSecretParam(name)) continue
    out ??= { ...query }
    out[name] = maskSecret(query[name])
  }
  return out ?? query
}

/**
 * A query string (with its leading `?`) with the credentials' values masked, the rest as sent.
 * @example maskSearch('?plate=AB123&api_key=0123456789abcdef') // '?plate=AB123&api_key=%E2%80%A6cdef'
 */
export const maskSearch: (search: string) => string = readingOnce((search) => {
  if (search.length <= 1 || !/(?:token|auth|key|secret|password)/i.test(search)) return search
  return (
    '?' +
    search
      .slice(1)
      .split('&')
      .map((pair) => {
        const at = pair.indexOf('=')
        if (at === -1) return pair
        const name = safeDecode(pair.slice(0, at))
        return isSecretParam(name)
          ? `${pair.slice(0, at)}=${encodeURIComponent(maskSecret(safeDecode(pair.slice(at + 1))))}`
          : pair
      })
      .join('&')
  )
})

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
