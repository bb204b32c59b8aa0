// The route table of the relay service: every documented endpoint, once.
import type { Route } from '../route.js'
import { custodianRoutes } from './custodians.js'
import { paymentRoutes } from './payments.js'
import { rentalCompanyRoutes } from './rental-companies.js'
import { simplePaymentRoutes } from './simple-payment.js'
import { vehicleRoutes } from './vehicles.js'

export const serviceRoutes: ReadonlyArray<Route<any, any>> = [
  ...rentalCompanyRoutes,
  ...vehicleRoutes,
  ...custodianRoutes,
  ...paymentRoutes,
  ...simplePaymentRoutes,
]
