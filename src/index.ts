// relay-mock's in-process API (runtime-neutral): the mock service, its msw handlers, scenarios, faults and
// the types of its data. Named exports only; what is not here is internal. test/architecture/entries.test.ts
// pins the names.
import { createRelayService, type RelayService, type RelayServiceOptions } from './core/service/mock.js'
import { toHandlers } from './core/service/msw.js'
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
export { createRelayService, RelayMockError } from './core/service/mock.js'
export { toHandlers } from './core/service/msw.js'
export { devtools } from './devtools/admin.js'
export { toOpenApi } from './core/openapi/documents.js'

// Scenarios and faults
export { defineScenario } from './core/service/scenario.js'
export { toScenario, parseScenarioFile } from './core/service/scenario-file.js'
export { scenarios } from '../scenarios/index.js'
export { FAULT_KINDS, FAULT_STEPS, parseFault, formatFault } from './core/service/faults.js'
export { isValidKennitala, isCompanyKennitala, companyKennitala } from './core/kennitala.js'

export type {
  ExtensionRefusals,
  RelayService,
  RelayServiceOptions,
  RelayRequest,
  RelayResponse,
  SeedCache,
  ServiceExtension,
} from './core/service/mock.js'
export type { SeededWorld } from './core/service/seed.js'
export type { World } from './core/service/world.js'
export type { Scenario, Visit, SeedContext, SimplePaymentBehaviour } from './core/service/scenario.js'
export type { ArmedFault, FaultKind, FaultMode, FaultStep, FaultRoute, FaultRecord } from './core/service/faults.js'
export type { ScenarioFile } from './core/service/scenario-file.js'
export type { Store, WorldData, RecordQuery } from './core/service/store.js'
export type { JournalEntry, JournalPage, Journal, AuthVerdict } from './core/service/journal.js'
export type { ServiceRouteId } from './core/service/handlers/index.js'
export type {
  OpenApiDocument,
  OpenApiOperation,
  OpenApiResponse,
  OpenApiMedia,
  OpenApiParameter,
  JsonSchema,
} from './core/openapi/model.js'
export type {
  RentalCompany,
  Vehicle,
  CreateVehicleBody,
  CreateCustodianBody,
  CreatePaymentBody,
  SimplePaymentBody,
  SimplePaymentAnswer,
  FieldError,
  Problem,
  VehicleRecord,
  CustodianRecord,
  PaymentRecord,
  LocationRecord,
} from './core/service/schemas.js'
