// The proxy's step of the pipeline: "ask the upstream" in place of "ask the handler". A request on the
// service's paths goes through the same route match, token → world, faults and journal as the mock's
// own, but its answer is the real service's. The asking itself is the transport's (Node's HTTP client):
// the core only says what to send and makes the answer, or the upstream's trouble, a reply.
import { FAULT_KINDS, faultReply, revokedReply, takeFault, type ArmedFault } from './faults.js'
import type { AuthVerdict } from './journal.js'
import { toProblem, type Reply } from './problems.js'
import { endToEnd, header, parseBearer, parseJsonText, resolveRoute, SERVICE_TABLE } from './protocol.js'
import type { Arrival } from './recorder.js'
import { defineScenario } from './scenario.js'
import type { RelayRequest } from './service.js'
import type { World } from './world.js'
import {
  UPSTREAM_TROUBLES,
  type Upstream,
  type UpstreamAnswer,
  type UpstreamRequest,
  type UpstreamResult,
  type UpstreamTrouble,
} from './upstream.js'

export { UPSTREAM_TROUBLES } from './upstream.js'
export type {
  Upstream,
  UpstreamAnswer,
  UpstreamObservation,
  UpstreamRequest,
  UpstreamResult,
  UpstreamTrouble,
  UpstreamTroubleKind,
} from './upstream.js'

/** The headers the proxy sets itself or must not pass on: Host is the upstream's, the length is the body's as sent. */
const REQUEST_DROP: ReadonlySet<string> = new Set(['host', 'content-length', 'expect', 'accept-encoding'])
/** Of the upstream's answer: the length is recomputed for the text sent, and the proxy asks for no encoding. */
const ANSWER_DROP: ReadonlySet<string> = new Set(['content-length', 'content-encoding', 'date'])

/**
 * The request as the proxy forwards it: end-to-end headers only (RFC 9110 7.6.1), the client's own
 * Authorization untouched (the proxy adds no credential), and no Accept-Encoding: the proxy reads the
 * answer to check it, so it asks for it as identity.
 * @example toUpstreamRequest({ method: 'GET', url: '/vehicles?plate=AB1', headers: { connection: 'keep-alive', authorization: 'Bearer t' } }).headers // { authorization: 'Bearer t' }
 */
export function toUpstreamRequest(request: RelayRequest): UpstreamRequest {
  const forwarded: UpstreamRequest = {
    method: request.method,
    url: request.url,
    headers: endToEnd(request.headers, REQUEST_DROP),
  }
  if (request.body !== undefined) forwarded.body = request.body
  return forwarded
}

/** The upstream's answer as a reply: its status and end-to-end headers, the body parsed when it is JSON, else its text. */
export function upstreamReply(answer: UpstreamAnswer, method: string): { reply: Reply; text: string } {
  const headers: Record<string, string | string[]> = {}
  // A body passed on as it comes is sent as it came: its own length, when it named one, holds.
  const passed = endToEnd(
    answer.headers,
    method === 'HEAD' ? DATE_ONLY : answer.passedOn ? PASSED_ON_DROP : ANSWER_DROP,
  )
  for (const name in passed) {
    const value = passed[name]
    // A field sent more than once is one list, comma-separated (RFC 9110 5.3); Set-Cookie is the
    // exception (its dates hold commas): each stays a header of its own.
    headers[name] = Array.isArray(value) && name !== 'set-cookie' ? value.join(', ') : value
  }
  // A body passed on as it comes is journaled as the text of its first bytes: never whole JSON.
  const read =
    answer.text === '' ? undefined : answer.passedOn ? { problem: 'passed on as it came' } : parseJsonText(answer.text)
  const body = read === undefined ? undefined : 'value' in read ? read.value : answer.text
  answer.json = read !== undefined && 'value' in read ? read : null
  return { reply: { status: answer.status, body, headers }, text: answer.text }
}

/**
 * upstreamReply with a memory of the last answer: an answer the same as the last (status, headers and
 * body text) is the last one's reply, not parsed again, so that the journal's entries share it as they
 * share a mock's repeated answers (read-only). A client polling a lookup gets the same answer many times.
 */
function createAnswerReader(): typeof upstreamReply {
  let last: { answer: UpstreamAnswer; method: string; reply: Reply; json: UpstreamAnswer['json'] } | undefined
  return (answer, method) => {
    if (last !== undefined && !answer.passedOn && sameAnswer(last.answer, answer) && last.method === method) {
      answer.json = last.json
      return { reply: last.reply, text: answer.text }
    }
    const read = upstreamReply(answer, method)
    last = answer.passedOn ? undefined : { answer, method, reply: read.reply, json: answer.json }
    return read
  }
}

function sameAnswer(a: UpstreamAnswer, b: UpstreamAnswer): boolean {
  if (a.status !== b.status || a.text !== b.text) return false
  let count = 0
  for (const name in a.headers) {
    const value = a.headers[name]
    const other = b.headers[name]
    if (
      typeof value === 'string'
        ? value !== other
        : Array.isArray(value)
          ? !Array.isArray(other) || value.join('\n') !== other.join('\n')
          : other !== undefined
    )
      return false
    count++
  }
  for (const _ in b.headers) count--
  return count === 0
}

/** Each upstream's answer reader (see createAnswerReader). */
const readers = new WeakMap<Upstream, typeof upstreamReply>()
const DATE_ONLY: ReadonlySet<string> = new Set(['content-encoding', 'date'])
const PASSED_ON_DROP: ReadonlySet<string> = new Set(['date'])

/**
 * The answer to a request the upstream could not answer: 504 when it took too long, else 502, saying
 * what happened on the way and that the request may have reached the service all the same.
 * @example troubleReply({ kind: 'refused', detail: 'connect ECONNREFUSED 127.0.0.1:1' }, 'http://127.0.0.1:1').status // 502
 */
export function troubleReply(trouble: UpstreamTrouble, baseUrl: string): Reply {
  const status = trouble.kind === 'timeout' ? 504 : 502
  const mayHave =
    trouble.kind === 'refused' || trouble.kind === 'dns' || trouble.kind === 'tls'
      ? 'The request did not reach the service.'
      : 'The service may have applied the request: look it up before sending a POST again.'
  return toProblem(
    status,
    `relay-mock proxy: ${UPSTREAM_TROUBLES[trouble.kind]} (${baseUrl}: ${trouble.detail}). ${mayHave}`,
  )
}

/**
 * The scenario of a proxy's worlds: no records of its own (the upstream holds them), so that the live page
 * and GET /__relay/world show none that the real service does not have.
 */
export const UPSTREAM_SCENARIO = defineScenario({
  name: 'upstream',
  description: "The real service's records: relay-mock forwards each request and holds none of its own",
  seed(world) {
    world.data.rentalCompanies = []
    world.data.vehicles = []
    world.data.custodians = []
    world.data.payments = []
    return {
      plate: world.unusedPlate(),
      ownerKennitala: world.unusedKennitala(),
      registrationDate: '2025-01-01',
      ...world.visitDefaults,
    }
  },
})

/** What the proxy's step gives the pipeline: the reply, the fault it met, the text sent, and the upstream's part. */
export interface Proxied {
  reply: Reply
  fault?: ArmedFault
  text?: string
  upstream?: UpstreamResult
}

/**
 * The proxy's step for one request on the service's paths: the token's world (made on first sight: a
 * real token gets a world of its own, reaching only its own traffic), the route, a fault that forwards
 * nothing, else the upstream's answer (broken afterwards by a fault that applies first). It notes on
 * `arrival` what the journal keeps, as the mock's own step does. A known token's world is at hand: only
 * the upstream is waited for.
 */
export function askUpstream(
  arrival: Arrival,
  upstream: Upstream,
  worlds: WorldsOnSight,
  bodyLimit: number,
  adminToken?: string,
): Promise<Proxied> {
  const bearer = parseBearer(header(arrival.request.headers, 'authorization'))
  const secret = adminToken === undefined ? undefined : whereAdminToken(arrival.request, adminToken)
  if (secret !== undefined) {
    // relay-mock's own secret never leaves it: refused here, with no world made for it and nothing forwarded.
    arrival.auth = bearer.verdict === 'ok' ? 'unknown-token' : bearer.verdict
    const found = resolveRoute(SERVICE_TABLE, arrival.request.method, arrival.path)
    if ('route' in found) arrival.route = found.route
    return Promise.resolve({ reply: adminTokenReply(secret) })
  }
  if (bearer.verdict !== 'ok') return forwardIn(arrival, upstream, worlds, undefined, bearer.verdict, bodyLimit)
  const world = worlds.of(bearer.token)
  return world instanceof Promise
    ? world.then((made) => forwardIn(arrival, upstream, worlds, made, 'ok', bodyLimit))
    : forwardIn(arrival, upstream, worlds, world, 'ok', bodyLimit)
}

/**
 * Where a request carries the proxy's admin token, if it does: its Authorization header, another header,
 * the URL (as sent or percent-decoded) or the body. A request on the service's paths goes to the real
 * service, which must never see relay-mock's own secret, whatever path, method or encoding it came with.
 * @example whereAdminToken({ method: 'GET', url: '/vehicles?plate=ZZ1', headers: { authorization: 'Bearer s3cret-admin' } }, 's3cret-admin') // 'the Authorization header'
 */
export function whereAdminToken(request: RelayRequest, adminToken: string): string | undefined {
  const bearer = parseBearer(header(request.headers, 'authorization'))
  if (bearer.verdict === 'ok' && bearer.token === adminToken) return 'the Authorization header'
  // A token this short is found as the bearer token only: as a part of any text it would refuse requests that hold no secret.
  if (adminToken.length < SECRET_SEARCHED) return undefined
  for (const name in request.headers) {
    const value = request.headers[name]
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join('\n') : value
    if (text.includes(adminToken)) return name === 'authorization' ? 'the Authorization header' : `the header ${name}`
  }
  if (request.url.includes(adminToken) || decoded(request.url).includes(adminToken)) return 'the URL'
  if (request.body !== undefined && (request.body.includes(adminToken) || decoded(request.body).includes(adminToken)))
    return 'the body'
  return undefined
}

/** The length from which an admin token is looked for anywhere in a request, not only as its bearer token. */
const SECRET_SEARCHED = 8

function decoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    // A stray %: each escape decoded alone, the rest kept as sent.
    return text.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)))
  }
}

/** The proxy's refusal of a request that carries its admin token: 403, forwarded nowhere, saying why. */
function adminTokenReply(where: string): Reply {
  return toProblem(
    403,
    `relay-mock proxy refused this request without forwarding it: ${where} carries the proxy's admin token (--admin-token), which never leaves relay-mock. The admin token opens relay-mock's own routes (/__relay/...) only. Please send the token the real service issued to your location for the service's paths.`,
  )
}

/** A proxy's worlds, one per token, made on first sight (see the pipeline's createWorldsOnSight). */
export interface WorldsOnSight {
  /** The token's world, made when it is first seen; undefined for a token no world can have. */
  of(token: string): World | Promise<World | undefined>
  /** Told of the upstream's status for a request of `world`: false when the world is forgotten (its token refused from the first). */
  answered(world: World, status: number): boolean
}

function forwardIn(
  arrival: Arrival,
  upstream: Upstream,
  worlds: WorldsOnSight,
  world: World | undefined,
  verdict: AuthVerdict,
  bodyLimit: number,
): Promise<Proxied> {
  const { request } = arrival
  let auth = verdict
  arrival.world = world
  if (world) world.lastUsed = arrival.arrivedMs
  const found = resolveRoute(SERVICE_TABLE, request.method, arrival.path)
  if ('route' in found) arrival.route = found.route
  arrival.auth = auth
  if (world?.revoked) {
    arrival.auth = 'revoked'
    return Promise.resolve({ reply: revokedReply() })
  }
  if (request.bodyTooLarge) {
    return Promise.resolve({
      reply: toProblem(
        413,
        `The body is larger than ${bodyLimit} bytes, the most relay-mock proxy reads; it was not forwarded. Please send the documented JSON object.`,
      ),
    })
  }
  const fault = world && arrival.route ? takeFault(world, arrival.route.id) : undefined
  const armedBy =
    fault && world?.scenario.faults?.includes(fault) ? `the scenario ${world.scenario.name}` : 'this world'
  if (fault && !FAULT_KINDS[fault.kind].applied) {
    if (fault.kind === 'token-revoked') world!.revoked = true
    return Promise.resolve({ reply: faultReply(fault, undefined, Date.now(), armedBy), fault })
  }
  return upstream.forward(toUpstreamRequest(request)).then((result): Proxied => {
    if ('trouble' in result) {
      arrival.upstream = { status: null, trouble: result.trouble }
      return { reply: troubleReply(result.trouble, upstream.baseUrl), upstream: result }
    }
    arrival.upstream = { status: result.answer.status, durationMs: result.answer.durationMs }
    // A token the upstream refuses is an unknown one, as the mock would journal it; refused from the first, it keeps no world.
    if (auth === 'ok' && (result.answer.status === 401 || result.answer.status === 403))
      arrival.auth = auth = 'unknown-token'
    if (world && !worlds.answered(world, result.answer.status)) arrival.world = undefined
    let read = readers.get(upstream)
    if (!read) readers.set(upstream, (read = createAnswerReader()))
    const { reply, text } = read(result.answer, request.method)
    const { passedOn } = result.answer
    // The answer as it came (no fault, or one that only delays it): a body passed on goes on whole.
    // A fault that breaks the answer strikes what the proxy holds of it, and the rest is dropped.
    if (passedOn && (!fault || fault.kind === 'slow')) arrival.passedOn = passedOn
    else passedOn?.cancel()
    if (!fault) return { reply, text, upstream: result }
    const broken = faultReply(fault, reply, Date.now(), armedBy)
    return { reply: broken, fault, text: broken === reply ? text : undefined, upstream: result }
  })
}
