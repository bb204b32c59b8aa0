// One request's path through the service, whichever transport brought it: a dev tool's route, or route
// and method → token → world → content type, charset and JSON → schema → armed fault → handler →
// journal. Most requests are answered in the turn they were read (no promise), so that the Node server
// writes the answer in that turn: only latency, a fault or a dev tool's route waits.
import { describeError } from '../errors.js'
import type { Extensions } from './extensions.js'
import { FAULT_KINDS, faultReply, slowFaultMs, takeFault, type ArmedFault } from './faults.js'
import type { Journal } from './journal.js'
import { toProblem, toValidationProblem, type Reply } from './problems.js'
import { header, parseQueryOnce, pendingBodyRefusal, readJsonBody, resolveRoute, SERVICE_TABLE } from './protocol.js'
import { askUpstream, type Proxied, type Upstream, type WorldsOnSight } from './forward.js'
import { authenticate, strictRefusal } from './admission.js'
import { createWorldsOnSight } from './worlds-on-sight.js'
import { createRecorder, type Arrival } from './recorder.js'
import { CONTINUE, textOf, toResponse } from './response.js'
import type { Route } from './route.js'
import type { RelayRequest, RelayResponse, RelayService, RelayServiceSettings } from './service.js'
import { validate } from './validate.js'
import { lenientForms, refusedForms } from './leniency.js'
import { varyReply, type Variants } from './variants.js'
import { calibrateReply, type Calibration } from './calibration.js'
import type { World } from './world.js'
import type { Worlds } from './worlds.js'

/**
 * The service's answering functions: `answer` (the pipeline itself), `handle` and `preflight` over it.
 * @example
 * const pipeline = createPipeline({ settings, worlds, journal, extensions })
 * const answer = pipeline.answer({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: 'Bearer relay-mock-token' } })
 */
export function createPipeline({
  settings,
  worlds,
  journal,
  extensions,
  upstream,
}: {
  settings: RelayServiceSettings
  worlds: Worlds
  journal: Journal
  extensions: Extensions
  upstream?: Upstream
}): Pick<RelayService, 'answer' | 'handle' | 'preflight'> {
  const byToken = worlds.byToken
  const { isExtensionPath } = extensions
  const record = createRecorder({ settings, journal, worlds, extensions: extensions.mounted })
  const onSight = upstream ? createWorldsOnSight(worlds, settings.maxWorlds) : undefined

  /** Answers one request, as a promise: `answer` (the pipeline every transport calls) for callers that await. Never rejects. */
  async function handle(request: RelayRequest): Promise<RelayResponse> {
    return answer(request)
  }

  /**
   * The pipeline itself: the answer at once when nothing in it waits (a lookup, a create, a refusal), so
   * that a transport writes it in the same turn of the event loop; a promise when something does (an
   * admin route, a fault, latency). Never throws, and never rejects.
   */
  function answer(request: RelayRequest): RelayResponse | Promise<RelayResponse> {
    try {
      const answered = respond(request)
      return isPromise(answered)
        ? answered.catch((error: unknown) => toResponse(pipelineFailed(error, 'recording')))
        : answered
    } catch (error) {
      // A failure after the reply was decided (journaling it, a dev tool's subscription): still an answer.
      return toResponse(pipelineFailed(error, 'recording'))
    }
  }

  function respond(request: RelayRequest): RelayResponse | Promise<RelayResponse> {
    const started = performance.now()
    // The entry's time is when the request arrived: the rules add durationMs to it for when it was answered.
    const arrivedMs = Date.now()
    const { path, search } = splitUrl(request.url)

    if (isExtensionPath(path)) return extensions.answer(request, path, search)

    const arrival: Arrival = {
      request,
      started,
      arrivedMs,
      path,
      search,
      query: parseQueryOnce(search),
      world: request.world,
      auth: 'missing',
      route: undefined,
      parsedBody: undefined,
      bodyError: undefined,
    }
    // A proxy asks the upstream where the mock asks its handler; a body always may come (the upstream decides).
    if (upstream) return request.bodyPending ? CONTINUE : proxied(arrival, upstream, onSight!, settings, finish)
    const ran = decideOrFail(arrival, byToken, settings.bodyLimit)
    if (ran === undefined) return CONTINUE
    const shape = reshaper(arrival, settings)
    if (isPromise(ran))
      return ran.then(
        (settled) => finish(arrival, shape ? shape(settled) : settled),
        (error: unknown) => finish(arrival, { reply: pipelineFailed(error) }),
      )
    return finish(arrival, shape ? shape(ran) : ran)
  }

  /** Waits out the latency asked for (the service's, a slow fault's), then records and answers. */
  function finish(arrival: Arrival, { reply, fault, text }: Ran): RelayResponse | Promise<RelayResponse> {
    const delay = latencyMs(settings.latency) + (fault?.kind === 'slow' ? slowFaultMs(fault) : 0)
    if (delay > 0)
      return new Promise((resolve) => setTimeout(resolve, delay)).then(() => record(arrival, reply, fault, text))
    return record(arrival, reply, fault, text)
  }

  return {
    handle,
    answer,
    preflight: (request) =>
      handle({ ...request, bodyPending: true }).then((answer) => (answer === CONTINUE ? undefined : answer)),
  }
}

/** A request's path and its query string (with its `?`, or empty). */
function splitUrl(url: string): { path: string; search: string } {
  const queryAt = url.indexOf('?')
  return { path: queryAt === -1 ? url : url.slice(0, queryAt), search: queryAt === -1 ? '' : url.slice(queryAt) }
}

/** `decide`, with a failure of its own answered as relay-mock's bug. */
function decideOrFail(
  arrival: Arrival,
  worlds: ReadonlyMap<string, World>,
  bodyLimit: number,
): Ran | Promise<Ran> | undefined {
  try {
    return decide(arrival, worlds, bodyLimit)
  } catch (error) {
    return { reply: pipelineFailed(error) }
  }
}

/** The proxy's path: ask the upstream, then wait, record and answer as the mock does (`finish`); observers hear of it with the upstream's answer. */
function proxied(
  arrival: Arrival,
  to: Upstream,
  worldsFor: WorldsOnSight,
  settings: RelayServiceSettings,
  finish: (arrival: Arrival, ran: Ran) => RelayResponse | Promise<RelayResponse>,
): Promise<RelayResponse> {
  let asked: Promise<Proxied>
  try {
    asked = askUpstream(arrival, to, worldsFor, settings.bodyLimit, settings.adminToken)
  } catch (error) {
    asked = Promise.reject(error instanceof Error ? error : new Error(String(error)))
  }
  const settle = (settled: Proxied) => {
    if (to.observe) {
      arrival.observedBy = to
      arrival.upstreamResult = settled.upstream
    }
    return finish(arrival, settled)
  }
  return asked.then(settle, (error: unknown) => settle({ reply: pipelineFailed(error) }))
}

/**
 * How a reply is reshaped before it is recorded, or undefined when it is not. A world served under
 * alternatives of the ledger (see variants.ts) has its replies reshaped here; a request that reached no
 * world is answered as the service's own variants say. A calibrated service answers as the real one
 * was seen to (see calibration.ts), after the variants.
 */
function reshaper(arrival: Arrival, settings: RelayServiceSettings): ((ran: Ran) => Ran) | undefined {
  const variants = arrival.world ? arrival.world.variants : settings.variants
  const { calibration } = settings
  if (!variants && !calibration) return undefined
  return (settled: Ran) => {
    const after = variants ? varied(variants, arrival, settled) : settled
    return calibration ? calibrated(calibration, arrival, after) : after
  }
}

/** What `run` answered, as the world's variants answer it (a fault's answer too: a revoked token's 401 is a 403 under auth.refusal=403). */
function varied(variants: Variants, arrival: Arrival, ran: Ran): Ran {
  const reply = varyReply(variants, ran.reply, { route: arrival.route, path: arrival.path })
  return reply === ran.reply ? ran : { reply, ...(ran.fault ? { fault: ran.fault } : {}) }
}

/** What `run` answered, as the real service was seen to answer it. */
function calibrated(calibration: Calibration, arrival: Arrival, ran: Ran): Ran {
  const reply = calibrateReply(calibration, ran.reply, { route: arrival.route, path: arrival.path })
  return reply === ran.reply ? ran : { reply, ...(ran.fault ? { fault: ran.fault } : {}) }
}

/**
 * The service's reply to a request (undefined: its body may come, see `bodyPending`). On the way it
 * notes in `arrival` what the journal keeps: the world, the auth verdict, the route, the body.
 */
function decide(
  arrival: Arrival,
  worlds: ReadonlyMap<string, World>,
  bodyLimit: number,
): Ran | Promise<Ran> | undefined {
  const { request } = arrival
  // The token is read even for a wrong path, so that the request lands in its world's journal.
  const checked = authenticate(header(request.headers, 'authorization'), request.world, worlds)
  arrival.auth = checked.verdict
  arrival.world = checked.world ?? checked.owner ?? request.world
  if (checked.world) checked.world.lastUsed = arrival.arrivedMs
  const found = resolveRoute(SERVICE_TABLE, request.method, arrival.path)
  if ('reply' in found) return { reply: found.reply }
  const route = (arrival.route = found.route)
  if (!checked.world) return { reply: checked.reply! }
  if (request.bodyPending) {
    // The same checks as below, short of the body: its declared length and its type.
    const refused = pendingBodyRefusal(request, route, bodyLimit)
    if (!refused) return undefined
    arrival.bodyError = (refused.body as { message: string }).message
    return { reply: route.refuse ? route.refuse({ world: checked.world, reply: refused }) : refused }
  }
  const body = readJsonBody(request, route, bodyLimit)
  if (body && 'reply' in body) {
    arrival.bodyError = (body.reply.body as { message: string }).message
    return { reply: route.refuse ? route.refuse({ world: checked.world, reply: body.reply }) : body.reply }
  }
  arrival.parsedBody = body?.value
  // A world served under the alternatives that refuse what the interface does not show (see leniency.ts).
  const strict =
    checked.world.variants &&
    refusedForms(
      lenientForms(
        {
          method: request.method,
          headers: request.headers,
          search: arrival.search,
          route,
          bodyText: request.body,
          body: arrival.parsedBody,
        },
        checked.world.variants,
      ),
      checked.world.variants,
    )
  if (strict && strict.length > 0) return { reply: strictRefusal(strict, route, checked.world) }
  return run(route, checked.world, found.params, arrival.query, arrival.parsedBody, request.url)
}

/** What `run` answers: the reply, the fault it met when one was armed, and the reply's text when it is at hand. */
interface Ran {
  reply: Reply
  fault?: ArmedFault
  text?: string
}

/**
 * Validates, then answers with the route's handler or the armed fault. Synchronous when the handler is
 * (every route of the service's: its lookups and creates), so that the answer goes out without a turn
 * of the microtask queue per step; a fault that applies first makes it async.
 */
function run(
  route: Route,
  world: World,
  params: Record<string, string>,
  query: Record<string, string>,
  body: unknown,
  url: string,
): Ran | Promise<Ran> {
  // A read asked before of the same records is answered as it was then, without validating and
  // handling it again (see reads.ts); a fault armed for it is still met.
  const reads = route.method === 'GET' ? world.reads : undefined
  const version = reads ? world.store.version() : 0
  const kept = reads?.get(url, version)
  let validQuery: unknown = kept ? kept.query : query
  if (route.query && !kept) {
    const result = validate(route.query, query)
    if (!result.success) return { reply: toValidationProblem(route.query, result.error.issues, query, 'query') }
    validQuery = result.data
  }
  let validBody: unknown = body
  if (route.body) {
    const result = validate(route.body, body)
    if (!result.success) {
      const reply = toValidationProblem(route.body, result.error.issues, body)
      return { reply: route.refuse ? route.refuse({ world, reply }) : reply }
    }
    validBody = result.data
  }
  // An armed fault comes after auth and validation. One that applies nothing answers instead of the
  // handler; one that applies first lets the handler change the world, then breaks its answer.
  const fault = takeFault(world, route.id)
  if (!fault) {
    // The kept read is a Ran already (its reply and text): nothing is made for it.
    if (kept) return kept
    const reply = route.handle({ world, params, query: validQuery, body: validBody })
    if (isPromise(reply)) return reply.then((answer) => ({ reply: answer }))
    if (!reads) return { reply }
    const text = textOf(reply)
    reads.set(url, version, { query: validQuery, reply, text })
    return { reply, text }
  }
  return runFaulted(route, world, fault, { world, params, query: validQuery, body: validBody })
}

async function runFaulted(
  route: Route,
  world: World,
  fault: ArmedFault,
  context: Parameters<Route['handle']>[0],
): Promise<Ran> {
  if (fault.kind === 'token-revoked') world.revoked = true
  const answer = FAULT_KINDS[fault.kind].applied ? await route.handle(context) : undefined
  const armedBy = world.scenario.faults?.includes(fault) ? `the scenario ${world.scenario.name}` : 'this world'
  const reply = faultReply(fault, answer, Date.now(), armedBy)
  // A refusal the fault answers instead of the handler takes the route's own shape (the simple endpoint's);
  // a failure after applying is the service's failure, not a refusal, and stays a problem.
  const refused = !answer && route.refuse ? route.refuse({ world, reply }) : reply
  return { reply: refused, fault }
}

/** The service's latency for one answer: fixed, or drawn from its range. */
function latencyMs(latency: RelayServiceSettings['latency']): number {
  if (typeof latency === 'number') return latency
  const [min, max] = latency
  return min + Math.random() * (max - min)
}

/** The reply to a request the pipeline failed on: a bug of relay-mock's, said as one. */
function pipelineFailed(error: unknown, step: 'answering' | 'recording' = 'answering'): Reply {
  const where = step === 'answering' ? 'the request is in the journal' : 'the request may be missing from the journal'
  return toProblem(
    500,
    `The mock failed while ${step} this request: ${describeError(error)}. This is a bug in relay-mock; ${where}.`,
  )
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
