// What a bearer token is, defined once, free of imports: the mock reads `Authorization: Bearer <token>`
// with it (protocol.ts's parseBearer), and the command line checks `--token` with it without loading
// the mock (its commands load their work only when they run).

/**
 * The characters of a bearer token: visible ASCII, no spaces (RFC 5234 VCHAR). A token outside them could
 * not travel in a header as sent, so the command line takes none and the mock reads none.
 * @example new RegExp(`^${TOKEN_CHARACTERS}$`).test('relay-mock-token') // true
 */
export const TOKEN_CHARACTERS = '[\\x21-\\x7e]+'

const tokenPattern = new RegExp(`^${TOKEN_CHARACTERS}$`)

/**
 * Whether `text` is a token the service reads in `Authorization: Bearer <token>` (see parseBearer).
 * @example isBearerToken('relay-mock-token') // true; isBearerToken('a b') // false
 */
export function isBearerToken(text: string): boolean {
  return tokenPattern.test(text)
}
