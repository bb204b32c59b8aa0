// What an Authorization header says: no header, not `Bearer <token>`, or a token.
import { readingOnce } from '../../once.js'
import { TOKEN_CHARACTERS } from '../token.js'
import { MASK_MARK } from '../../mask.js'

/** What an Authorization header says: no header, not `Bearer <token>`, or a token. */
export type BearerVerdict = { verdict: 'missing' } | { verdict: 'malformed' } | { verdict: 'ok'; token: string }

/**
 * Reads `Authorization: Bearer <token>` (the scheme in any case, one token, no other parameters).
 * @example parseBearer('Bearer abc') // { verdict: 'ok', token: 'abc' }
 */
export function parseBearer(authorization: string | undefined): BearerVerdict {
  if (authorization === undefined || authorization === '') return { verdict: 'missing' }
  return readBearer(authorization)
}

// The token's characters are token.ts's, which the command line's --token check shares. A token as the
// journal keeps it (masked: `…cdef`, or `…` for a short one) is read as a token too: the rules read the
// journal's headers with this function, and a client that sends a masked token has sent a token that
// names no world (401), not a malformed header.
const bearerPattern = new RegExp(`^Bearer +(${MASK_MARK}(?:${TOKEN_CHARACTERS})?|${TOKEN_CHARACTERS})\\s*$`, 'i')

const readBearer = readingOnce((authorization): BearerVerdict => {
  const match = bearerPattern.exec(authorization)
  return Object.freeze(match ? { verdict: 'ok', token: match[1] } : { verdict: 'malformed' })
})
