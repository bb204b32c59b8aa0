// The dev tools' admin API under /__relay/ (and the OpenAPI documents under /openapi/): look at a world,
// its journal, switch its scenario, reset it, or issue a fresh token with a world of its own.
// Admin calls reach one world: the one of their bearer token (the admin token, serve --admin-token, reaches any).
import { maskSecret } from '../core/mask.js'
import { onlyAdminSeesAll, PAGE_MAX, pagingOf, recordsPage } from './paging.js'
import { RelayMockError, type RelayService, type ServiceExtension } from '../core/service/mock.js'
import { toOpenApi } from '../core/openapi/documents.js'
import { acceptsHtml, liveRoutes } from './live/routes.js'
import { createResetMarks, type ResetMarks } from './live/resets.js'
import { toProblem, type Reply } from '../core/service/problems.js'
import { defineRoute, type Method, type Route } from '../core/service/route.js'
import { FAULT_KINDS, FAULT_STEPS, formatFault, stepOf, toArmedFault } from '../core/service/faults.js'
import type { World } from '../core/service/world.js'
import { ASSUMPTIONS } from '../core/ledger/assumptions.js'
import { servedVariants, toVariants, type Variants } from '../core/service/variants.js'

/** What a person needs to try a world by hand: its token, location, scenario and the visit to send. */
export interface WorldDescription {
  id: string
  /** Masked. */
  token: string
  scenario: { name: string; description: string }
  locationId: string
  visit: World['visit']
  hints: World['hints']
  variants: Variants
}

/** @example describeWorld(world).token // '…cdef', masked */
export function describeWorld(world: World): WorldDescription {
  return {
    id: world.id,
    // Masked, as everywhere it is shown: only a token just issued (POST /__relay/tokens) is answered whole, once.
    token: maskSecret(world.token),
    scenario: { name: world.scenario.name, description: world.scenario.description },
    locationId: world.location.id,
    visit: world.visit,
    hints: world.hints,
    variants: world.variants ?? {},
  }
}

/** A world's variants as the admin API shows them, with every alternative it could be served under. */
function variantsOf(world: World) {
  return {
    variants: world.variants ?? {},
    served: servedVariants(),
    assumptions: ASSUMPTIONS.map((entry) => ({
      id: entry.id,
      question: entry.question,
      choice: entry.choice,
      alternatives: entry.alternatives
        .filter((alternative) => alternative.notServed === undefined)
        .map(({ id, answer }) => ({ id, answer })),
    })).filter((entry) => entry.alternatives.length > 0),
  }
}

/** Sets a world's variants from an admin call's body: `{"variants": {"create.status": "200-no-location"}}` or a list of `<assumption>=<alternative>`. */
function setVariants(world: World, body: unknown, merge: boolean): Reply {
  const given = (body as { variants?: unknown } | undefined)?.variants
  const list = Array.isArray(given) && given.every((item) => typeof item === 'string')
  const map =
    typeof given === 'object' &&
    given !== null &&
    !Array.isArray(given) &&
    Object.values(given).every((value) => typeof value === 'string')
  if (!list && !map) {
    return toProblem(
      422,
      'Please send {"variants": {"<assumption>": "<alternative>"}} or {"variants": ["<assumption>=<alternative>"]}; GET /__relay/variants lists them.',
    )
  }
  try {
    const read = toVariants(given as string[] | Record<string, string>)
    const next = merge ? { ...(world.variants ?? {}), ...read } : read
    world.variants = Object.keys(next).length > 0 ? Object.freeze(next) : undefined
  } catch (error) {
    return toProblem(422, (error as Error).message)
  }
  return { status: 200, body: variantsOf(world) }
}

/** A world's armed faults as the admin API shows them, with the table of kinds and steps to choose from. */
function faultsOf(world: World) {
  return {
    armed: world.faults.map((fault) => ({
      ...fault,
      step: stepOf(fault.route),
      text: formatFault(fault),
      struck: world.faultsAnswered.get(fault) ?? 0,
    })),
    kinds: FAULT_KINDS,
    steps: FAULT_STEPS,
  }
}

type AdminRoute = Route<Record<string, string>, unknown>

function admin(
  path: string,
  method: Method,
  summary: string,
  handle: AdminRoute['handle'],
  options: { public?: boolean } = {},
): AdminRoute {
  return defineRoute<Record<string, string>, unknown>({
    method,
    path,
    integration: 'admin',
    summary,
    answers: {},
    handle,
    ...options,
  })
}

/** A field of an admin call's JSON body, when the body is an object. */
function fieldOf(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined
}

/** A string field of the body, else undefined. */
function textOf(body: unknown, name: string): string | undefined {
  const value = fieldOf(body, name)
  return typeof value === 'string' ? value : undefined
}

function adminRoutes(marks: ResetMarks): Route[] {
  // The index lists every admin route with its summary: the routes are its one source.
  const index = (): Reply => ({
    status: 200,
    body: { endpoints: Object.fromEntries(routes.filter((r) => r.path !== '/__relay').map((r) => [r.id, r.summary])) },
  })
  const routes: Route[] = [
    admin(
      '/__relay',
      'GET',
      'What the admin API offers',
      ({ headers }) =>
        // A browser asking for /__relay gets the live page at /__relay/ (relative, so a mounted prefix is kept).
        acceptsHtml(headers)
          ? { status: 302, headers: { location: '__relay/' }, body: { location: '__relay/' } }
          : index(),
      { public: true },
    ),
    ...worldRoutes(marks.service),
    ...scenarioRoutes(marks.service),
    tokenRoute(marks.service),
    ...faultRoutes(),
    ...variantRoutes(),
    admin(
      '/openapi/advanced.json',
      'GET',
      'OpenAPI 3 document of the advanced integration',
      () => ({ status: 200, body: toOpenApi('advanced') }),
      { public: true },
    ),
    admin(
      '/openapi/simple.json',
      'GET',
      'OpenAPI 3 document of the simple integration',
      () => ({ status: 200, body: toOpenApi('simple') }),
      { public: true },
    ),
    ...liveRoutes(marks, index),
  ]
  return routes
}

/** The worlds, one world's records and journal, and a reset of it. */
function worldRoutes(mock: RelayService): AdminRoute[] {
  return [
    admin(
      '/__relay/worlds',
      'GET',
      'Every world, for the admin token only (serve --admin-token): ids, scenarios, masked tokens',
      ({ admin: isAdmin }) => {
        if (!isAdmin)
          return toProblem(
            403,
            "Only the admin token (relay-mock serve --admin-token) may list the worlds; a world's token reaches its own world: GET /__relay/world.",
          )
        return {
          status: 200,
          body: [...mock.worlds.values()].map((w) => ({
            id: w.id,
            token: maskSecret(w.token),
            scenario: w.scenario.name,
            lastUsed: new Date(w.lastUsed).toISOString(),
            requests: w.journal.page({ limit: 0 }).total,
          })),
        }
      },
    ),
    admin(
      '/__relay/world',
      'GET',
      `The world: its token (masked), location id, scenario, the scenario's visit, how many created records the cap evicted, and its records in pages (?since=<id of the last record you have>, ?limit=<n> up to ${PAGE_MAX}; next is the since of the next page)`,
      ({ world, query }) => {
        const page = recordsPage(world.store.snapshot(), query)
        if ('status' in page) return page
        return { status: 200, body: { ...describeWorld(world), evicted: world.store.evicted(), ...page } }
      },
    ),
    admin(
      '/__relay/journal',
      'GET',
      `The world's requests and answers, oldest first, in pages (?since=<seq>, ?limit=<n> up to ${PAGE_MAX}; next is the since of the next page; ?scope=all every world's, for the admin token)`,
      ({ world, query, admin: isAdmin }) => {
        const refused = onlyAdminSeesAll(query, isAdmin)
        if (refused) return refused
        const paging = pagingOf(query)
        if ('status' in paging) return paging
        const page = query.scope === 'all' ? mock.journal.page(paging) : world.journal.page(paging)
        return { status: 200, body: { world: world.id, token: maskSecret(world.token), ...page } }
      },
    ),
    admin(
      '/__relay/reset',
      'POST',
      'Re-seed the world, clear its journal and re-arm its faults (each counts again from zero; its variants stay); {"scenario": "..."} to switch at the same time',
      async ({ world, body }) => {
        const refused = fieldOf(body, 'scenario') !== undefined ? noScenarioOnProxy(mock) : undefined
        if (refused) return refused
        await mock.resetWorld(world, textOf(body, 'scenario'))
        return { status: 200, body: describeWorld(world) }
      },
    ),
  ]
}

/** relay-mock proxy's worlds are the real service's records: a scenario would show records it does not have. */
function noScenarioOnProxy(mock: RelayService): Reply | undefined {
  return mock.upstream === undefined
    ? undefined
    : toProblem(
        409,
        `relay-mock proxy's worlds hold no records of their own (the real service at ${mock.upstream} has them), so there is no scenario to switch to. POST /__relay/reset without a scenario clears the world's journal and re-arms its faults.`,
      )
}

/** The scenarios, and a switch to another. */
function scenarioRoutes(mock: RelayService): AdminRoute[] {
  const switchScenario: AdminRoute['handle'] = async ({ world, body }) => {
    const refused = noScenarioOnProxy(mock)
    if (refused) return refused
    const name = fieldOf(body, 'name') ?? fieldOf(body, 'scenario')
    if (typeof name !== 'string') {
      return toProblem(
        422,
        `Please send the scenario's name as {"name": "..."}; the scenarios are ${[...mock.scenarios.keys()].join(', ')}.`,
      )
    }
    await mock.resetWorld(world, name)
    return { status: 200, body: describeWorld(world) }
  }
  return [
    admin('/__relay/scenarios', 'GET', 'The scenarios, the current one marked', ({ world }) => ({
      status: 200,
      body: [...mock.scenarios.values()].map((s) => ({
        name: s.name,
        description: s.description,
        current: s.name === world.scenario.name,
      })),
    })),
    admin('/__relay/scenario', 'PUT', 'Switch the scenario (re-seeds the world): {"name": "..."}', switchScenario),
    admin('/__relay/scenario', 'POST', 'Switch the scenario, as PUT does', switchScenario),
  ]
}

/** A fresh token with a world of its own. */
function tokenRoute(mock: RelayService): AdminRoute {
  return admin(
    '/__relay/tokens',
    'POST',
    `Issue a fresh token with a world of its own: {"scenario": "..."} (optional); needs a valid token; beyond --max-worlds worlds the longest unused is replaced`,
    async ({ body }) => {
      try {
        const world = await mock.addWorld({ scenario: textOf(body, 'scenario') })
        return { status: 201, body: { ...describeWorld(world), token: world.token } }
      } catch (error) {
        if (error instanceof RelayMockError && error.code === 'TOO_MANY_WORLDS') return toProblem(503, error.message)
        throw error
      }
    },
  )
}

/** The faults armed on a world: listed, armed, cleared. */
function faultRoutes(): AdminRoute[] {
  return [
    admin(
      '/__relay/faults',
      'GET',
      'The faults armed on the world, how often each has struck, and every kind and step',
      ({ world }) => ({
        status: 200,
        body: faultsOf(world),
      }),
    ),
    admin(
      '/__relay/faults',
      'POST',
      'Arm a fault on the world: {"route": "POST /payments" or "payment-create", "kind": "reset", "mode": "once" | "always"}',
      ({ world, body }) => {
        try {
          world.faults.push(toArmedFault(body ?? {}))
        } catch (error) {
          return toProblem(422, `Failed to arm the fault: ${(error as Error).message}.`)
        }
        return { status: 201, body: faultsOf(world) }
      },
    ),
    admin(
      '/__relay/faults',
      'DELETE',
      "Clear the world's faults (?route= or ?step= for one request's)",
      ({ world, query }) => {
        const only = query.route ?? query.step
        world.faults = only ? world.faults.filter((f) => f.route !== only && stepOf(f.route) !== only) : []
        return { status: 200, body: faultsOf(world) }
      },
    ),
  ]
}

/** The alternatives of the assumption ledger a world is served under: listed, set, added to, cleared. */
function variantRoutes(): AdminRoute[] {
  return [
    admin(
      '/__relay/variants',
      'GET',
      'The alternatives of the assumption ledger the world is served under, and every one it could be',
      ({ world }) => ({ status: 200, body: variantsOf(world) }),
    ),
    admin(
      '/__relay/variants',
      'PUT',
      'Serve the world under these alternatives only: {"variants": {"create.status": "200-no-location"}} (or a list of "<assumption>=<alternative>"); {} for relay-mock\'s choices',
      ({ world, body }) => setVariants(world, body, false),
    ),
    admin(
      '/__relay/variants',
      'POST',
      'Add alternatives to those the world is served under, as PUT takes them',
      ({ world, body }) => setVariants(world, body, true),
    ),
    admin(
      '/__relay/variants',
      'DELETE',
      "Serve the world under relay-mock's choices again (?assumption=<id> for one)",
      ({ world, query }) => {
        const rest = Object.fromEntries(
          Object.entries(world.variants ?? {}).filter(
            ([id]) => query.assumption !== undefined && id !== query.assumption,
          ),
        )
        world.variants = Object.keys(rest).length > 0 ? Object.freeze(rest) : undefined
        return { status: 200, body: variantsOf(world) }
      },
    ),
  ]
}

/**
 * The dev tools as one extension of the service: the admin API under /__relay/, the live page, and the
 * OpenAPI documents. Mounted by the entry points (`createRelayMock`, `relay-mock serve`), never by the core.
 * @example const service = await createRelayService({ extensions: [devtools()] })
 */
export function devtools(): ServiceExtension {
  let marks: ResetMarks | undefined
  return {
    routes(service: RelayService) {
      marks = createResetMarks(service)
      return adminRoutes(marks)
    },
    onReset(world) {
      marks?.mark(world)
    },
    refusals: {
      noToken:
        "The admin API reads and changes one world: send that world's token as Authorization: Bearer <token> (the live page takes it from its address, /__relay/#token=<token>).",
      unknownToken:
        "The bearer token is not one of this mock's worlds. Please send a token relay-mock serve printed, or one POST /__relay/tokens issued.",
      unknownWorld: (id) => `No world has the id ${id}. GET /__relay/worlds lists them.`,
    },
  }
}
