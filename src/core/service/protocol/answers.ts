// The answers the OpenAPI documents list for each route: the pipeline's own (faults, limits, refusals)
// beside the route's, and those of any path.
import { FAULT_STEPS, RATE_LIMITED_AHEAD, RETRY_AFTER_SECONDS, type FaultKind } from '../faults.js'
import type { Answer, Route } from '../route.js'
import { problem, proxyPage } from '../schemas.js'

/** The media type of a problem answer (RFC 9457). */
export const PROBLEM_JSON = 'application/problem+json'

/**
 * A documented answer with its status: the pipeline gives several answers of one status (a 401 of two
 * shapes). `fault`: the answer is sent only when that fault is armed (relay-mock's test tool, not a
 * claim about the service).
 */
export type PipelineAnswer = Answer & { status: number; fault?: FaultKind }

/**
 * Every answer the pipeline itself can give a route beyond its handler's (the route table's `answers`):
 * the token check, the body's reading, the query's and body's schemas, and the faults a world may arm,
 * each (status, media type) it sends. The OpenAPI documents list these with the handler's answers, so
 * they say all a client may get. The faults that break the transport (reset, hang, truncated) send no
 * answer to list; `slow` sends the handler's, late.
 * @example pipelineAnswers(postVehicles).map((a) => a.status) // [401, 400, 413, 415, 422, 401, 429, 503, 500, 201]
 */
export function pipelineAnswers(route: Route): PipelineAnswer[] {
  const asProblem = (status: number, description: string, headers?: Record<string, string>): PipelineAnswer => ({
    status,
    description,
    schema: problem,
    mediaType: PROBLEM_JSON,
    headers,
  })
  // Refusals before the handler take the route's own shape where it has one (the simple endpoint's).
  const refusal = (status: number, description: string, headers?: Record<string, string>): PipelineAnswer =>
    route.refuse
      ? { status, description, schema: route.refusal ?? problem, mediaType: 'application/json', headers }
      : asProblem(status, description, headers)
  const challenge = { 'WWW-Authenticate': 'Bearer realm="relay" (for a revoked token also error="invalid_token")' }
  const answers = [
    asProblem(
      401,
      'The Authorization header is missing, is not `Bearer <token>`, names no token, or the token was revoked',
      challenge,
    ),
  ]
  if (route.body) {
    answers.push(refusal(400, 'The body is empty, is not JSON, or nests deeper than 64 levels'))
    answers.push(refusal(413, 'The body is larger than the limit (1 MiB by default)'))
    answers.push(refusal(415, 'The body is not sent as JSON in UTF-8 (`Content-Type: application/json`)'))
  }
  if (route.body || route.query)
    answers.push(refusal(422, 'A field is missing or invalid: `errors` names each, with what was expected'))
  if ((Object.values(FAULT_STEPS) as string[]).includes(route.id)) {
    // What the mock sends when a fault is armed on this route (see FAULT_KINDS).
    answers.push({
      ...refusal(401, 'The token was revoked (relay-mock: the fault token-revoked)', challenge),
      fault: 'token-revoked',
    })
    answers.push({
      ...refusal(429, 'Too many requests (relay-mock: the fault rate-limited); nothing was applied', {
        'Retry-After': `an HTTP-date ${RATE_LIMITED_AHEAD}`,
      }),
      fault: 'rate-limited',
    })
    answers.push({
      ...refusal(503, 'Unavailable just now (relay-mock: the fault unavailable); nothing was applied', {
        'Retry-After': `seconds (${RETRY_AFTER_SECONDS})`,
      }),
      fault: 'unavailable',
    })
    answers.push({
      ...asProblem(
        500,
        'The service failed after applying the request (relay-mock: the fault server-error): do not resend a POST blind',
      ),
      fault: 'server-error',
    })
    // garbage lets the handler answer, then sends its status with a proxy's page instead of its body.
    for (const status of Object.keys(route.answers)) {
      answers.push({
        status: Number(status),
        description:
          "A proxy's HTML error page in place of the answer, after the request was applied (relay-mock: the fault garbage)",
        schema: proxyPage,
        mediaType: 'text/html',
        fault: 'garbage',
      })
    }
  }
  return answers
}

/**
 * The answers the pipeline gives a path rather than an operation: a method the path lacks, and a path
 * no operation has. The OpenAPI documents list them under `components.responses`.
 * @example PATH_ANSWERS.MethodNotAllowed.status // 405
 */
export const PATH_ANSWERS = {
  MethodNotAllowed: {
    status: 405,
    description:
      'The path has no operation for this method (e.g. `GET /payment`): `Allow` lists the methods it answers',
    schema: problem,
    mediaType: PROBLEM_JSON,
    headers: { Allow: "The path's methods, HEAD wherever GET is, and OPTIONS" },
  },
  UnknownPath: {
    status: 404,
    description: 'No operation has this path, whatever the method: the message names the nearest path',
    schema: problem,
    mediaType: PROBLEM_JSON,
  },
} as const satisfies Record<string, PipelineAnswer>
