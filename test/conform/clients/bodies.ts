// The request bodies of both flows as the interface shows them, for the in-process test clients whose
// habit or defect lies in how they send a request, not in what it carries (quirky.ts, lenient.ts).
import type { ClientVisit } from '../../../src/node/runner.js'

/** The advanced flow's POST /payments: the visit's payment for the vehicle found or created. */
export function paymentBody(visit: ClientVisit, vehicleId: string) {
  return {
    locationId: visit.locationId,
    vehicleId,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
    status: 'new',
  }
}

/** The simple flow's POST /payment: everything at once, with the plate as the client writes it. */
export function simplePaymentBody(visit: ClientVisit, plate: string = visit.plate) {
  return {
    location: visit.locationId,
    vehicle: { owner: visit.ownerKennitala, plate, acquiredOn: visit.registrationDate },
    visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
    payment: { amount: visit.amount, currency: visit.currency },
  }
}
