// relay-mock's runtime-neutral API: the mock service, its msw handlers, scenarios and schemas.
import { createRelayService, type RelayService, type RelayServiceOptions } from './core/mock.js'
import { toHandlers } from './core/msw.js'
import { devtools } from './devtools/admin.js'
import type { HttpHandler } from 'msw'

export interface RelayMockOptions extends RelayServiceOptions {
  /** The base URL the msw handlers answer under. Default `http://relay.test`. */
  baseUrl?: string
}

export interface RelayMock extends RelayService {
  baseUrl: string
  /** msw handlers for `setupServer(...mock.handlers)` or `setupWorker(...)`. */
  handlers: HttpHandler[]
}

/**
 * The mock relay service in-process: worlds (store + journal) and the msw handlers that serve them.
 * @example
 * const mock = await createRelayMock({ scenario: 'new-vehicle' })
 * const server = setupServer(...mock.handlers)
 * server.listen()
 * // your client calls http://relay.test with `Bearer ${mock.world.token}`
 */
export async function createRelayMock(options: RelayMockOptions = {}): Promise<RelayMock> {
  const { baseUrl = 'http://relay.test', ...rest } = options
  // In-process, the admin API and the live page answer under the base URL as they do on `serve`.
  const service = await createRelayService({ ...rest, extensions: [devtools(), ...(rest.extensions ?? [])] })
  return Object.assign(service, { baseUrl, handlers: toHandlers(service, { baseUrl }) })
}

// Service
export { createRelayService, RelayMockError, MOCK_DEFAULTS, toResponse } from './core/mock.js'
export { toHandlers } from './core/msw.js'
export { describeWorld } from './devtools/admin.js'
export { toOpenApi } from './core/openapi.js'

// Scenarios and data
export { defineScenario } from './core/scenario.js'
export { buildWorld, SEED_DEFAULTS } from './core/seed.js'
export { createStore, normalizePlate } from './core/store.js'
export { scenarios } from '../scenarios/index.js'
export { isValidKennitala, isCompanyKennitala, companyKennitala } from './core/kennitala.js'
export * as schemas from './core/schemas.js'

// Journal, HAR and visits
export { createJournal, maskAuthorization, maskToken } from './core/journal.js'
export { toHar, fromHar } from './devtools/har.js'
export { groupVisits, checkVisits } from './devtools/live/visits.js'

export type { RelayService, RelayServiceOptions, RelayRequest, RelayResponse } from './core/mock.js'
export type { World } from './core/world.js'
export type { Scenario, Visit, SeedContext, SimplePaymentBehaviour } from './core/scenario.js'
export type { Store, WorldData } from './core/store.js'
export type { JournalEntry, JournalPage, Journal, AuthVerdict } from './core/journal.js'
export type { Route, Integration } from './core/route.js'
export type { Reply } from './core/problems.js'
