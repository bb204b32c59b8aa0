// The route table of the relay service: every documented endpoint, once.
import { z } from 'zod'
import type { FAULT_STEPS } from '../faults.js'
import { custodianRoutes } from './custodians.js'
import { paymentRoutes } from './payments.js'
import { rentalCompanyRoutes } from './rental-companies.js'
import { simplePaymentRoutes } from './simple-payment.js'
import { vehicleRoutes } from './vehicles.js'

export const serviceRoutes = [
  ...rentalCompanyRoutes,
  ...vehicleRoutes,
  ...custodianRoutes,
  ...paymentRoutes,
  ...simplePaymentRoutes,
] as const

/** An endpoint's stable name, `METHOD /path`, typed from the table: e.g. `POST /payments`. */
export type ServiceRouteId = (typeof serviceRoutes)[number]['id']

/**
 * The query parameters each endpoint reads, by route id, read off its query schema: any other parameter
 * (a cache-buster such as `_=1795791066550`) means nothing to the service.
 * @example DOCUMENTED_QUERY.get('GET /vehicles') // ['plate']
 */
export const DOCUMENTED_QUERY: ReadonlyMap<string, readonly string[]> = new Map(
  serviceRoutes.map((route) => [
    route.id,
    'query' in route && route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [],
  ]),
)

/** Every request a fault can break is an endpoint of the table: a typo here does not compile. */
export type FaultRoutesAreEndpoints = (typeof FAULT_STEPS)[keyof typeof FAULT_STEPS] extends ServiceRouteId
  ? true
  : never
const faultRoutesAreEndpoints: FaultRoutesAreEndpoints = true
void faultRoutesAreEndpoints
