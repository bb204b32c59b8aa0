// The admission of a request before the pipeline runs its handler: the world its bearer token reaches
// (or the 401 and why), and a strict world's refusal of forms it does not read.
import type { AuthVerdict } from './journal.js'
import { revokedReply } from './faults.js'
import { maskAuthorization } from '../mask.js'
import { toProblem, type Reply } from './problems.js'
import { parseBearer } from './protocol.js'
import { formRefusal, type LenientForm } from './leniency.js'
import type { Route } from './route.js'
import type { World } from './world.js'

/** A strict world's refusal of a request in forms it does not read: the first form's status, every form named. */
export function strictRefusal(forms: readonly LenientForm[], route: Route, world: World): Reply {
  const { status, message, field } = formRefusal(forms[0], forms)
  const reply = toProblem(status, message, field ? [field] : undefined, status === 401 ? CHALLENGE : undefined)
  return route.refuse && status !== 401 ? route.refuse({ world, reply }) : reply
}

/** The world a request's bearer token reaches (only `bound`, on a world's own listener), or the 401 and why. */
export function authenticate(
  authorization: string | undefined,
  bound: World | undefined,
  worlds: ReadonlyMap<string, World>,
): { verdict: AuthVerdict; world?: World; reply?: Reply; owner?: World } {
  const bearer = parseBearer(authorization)
  if (bearer.verdict === 'missing') {
    return {
      verdict: 'missing',
      reply: toProblem(
        401,
        'The request has no Authorization header. Please send Authorization: Bearer <your API token>.',
        undefined,
        CHALLENGE,
      ),
    }
  }
  if (bearer.verdict === 'malformed') {
    return {
      verdict: 'malformed',
      reply: toProblem(
        401,
        `The Authorization header is malformed (${maskAuthorization(authorization!)}). Please send exactly: Authorization: Bearer <your API token>.`,
        undefined,
        CHALLENGE,
      ),
    }
  }
  const world = worlds.get(bearer.token)
  // A revoked token's requests still belong to its world's journal: the client's retries must show there.
  if (world?.revoked && (!bound || world === bound)) return { verdict: 'revoked', reply: revokedReply(), owner: world }
  if (!world || (bound && world !== bound)) {
    return {
      verdict: 'unknown-token',
      reply: toProblem(
        401,
        'The bearer token is not recognised. Please send the token issued to your location (relay-mock serve prints it at start).',
        undefined,
        CHALLENGE,
      ),
    }
  }
  return { verdict: 'ok', world }
}

const CHALLENGE: Readonly<Record<string, string>> = Object.freeze({ 'www-authenticate': 'Bearer realm="relay"' })
