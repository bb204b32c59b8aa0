// POST /payment: the simple integration. The service does the advanced flow itself and answers
// with `id` when it recorded the payment, or with a `message` and no `id` when it refused.
import type { Reply } from '../problems.js'
import { defineRoute } from '../route.js'
import {
  exactPlates,
  simplePaymentAnswer,
  simplePaymentBody,
  type FieldError,
  type SimplePaymentAnswer,
} from '../schemas.js'
import { paymentReferenceErrors } from './payments.js'

function refused(status: number, message: string, errors?: FieldError[]): Reply {
  const body: SimplePaymentAnswer & { errors?: FieldError[] } = {
    status: 'refused',
    message,
    ...(errors ? { errors } : {}),
  }
  return { status, body }
}

export const simplePaymentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/payment',
    integration: 'simple',
    summary: 'Report a paid visit in one request; the service finds or creates the vehicle and its custodian',
    body: simplePaymentBody,
    answers: {
      201: {
        description: 'Recorded: the answer carries `id`',
        schema: simplePaymentAnswer,
        headers: { Location: "The recorded payment's link, /payments/<id>" },
      },
      200: {
        description: 'Refused, in worlds that answer refusals with 200: `message` and no `id`',
        schema: simplePaymentAnswer,
      },
      422: {
        description:
          'Refused: `message` and no `id` (the location or times are wrong, the owner is not in the service, or the service declined)',
        schema: simplePaymentAnswer,
      },
    },
    // Refusals on this endpoint keep its own answer shape, so a client reads `message` the same way every time.
    refusal: simplePaymentAnswer,
    refuse: ({ reply }) => {
      // The problem's own headers (Retry-After on an injected 503) stay; its problem+json type does not.
      const { 'content-type': _, ...headers } = reply.headers ?? {}
      const answer = refused(
        reply.status,
        (reply.body as { message: string }).message,
        (reply.body as { errors?: FieldError[] }).errors,
      )
      return Object.keys(headers).length > 0 ? { ...answer, headers } : answer
    },
    handle({ world, body }) {
      const { store } = world
      const errors = paymentReferenceErrors(
        world,
        { locationId: body.location, startedOn: body.visit.startedOn, endedOn: body.visit.endedOn },
        { locationId: 'location', endedOn: 'visit.endedOn' },
      )
      if (errors.length > 0)
        return refused(
          422,
          `The payment was refused: ${errors.map((e) => `${e.field} ${e.problem}`).join('; ')}.`,
          errors,
        )

      if (world.scenario.simplePayment !== 'accept') {
        return refused(
          world.scenario.simplePayment === 'refuse-ok-status' ? 200 : 422,
          `The payment was refused: the service could not record it just now (scenario ${world.scenario.name}). The customer's payment still completes.`,
        )
      }
      const company = store.rentalCompanies.byKennitala(body.vehicle.owner)[0]
      // Under simple.unknown-owner=accepted the payment is recorded all the same, with no custodian to link.
      if (!company && world.variants?.['simple.unknown-owner'] !== 'accepted') {
        return refused(
          422,
          `The payment was refused: the owner ${body.vehicle.owner} is not a rental company registered with the service, so nothing was recorded. The customer's payment still completes.`,
        )
      }
      let vehicle = exactPlates(store.vehicles.activeByPlate(body.vehicle.plate), body.vehicle.plate, world.variants)[0]
      if (!vehicle) {
        vehicle = store.vehicles.create({
          id: world.random.uuid(),
          plate: body.vehicle.plate,
          country: 'is',
          active: true,
        })
        if (company)
          store.custodians.create({
            id: world.random.uuid(),
            vehicleId: vehicle.id,
            rentalCompanyId: company.id,
            acquiredOn: `${body.vehicle.acquiredOn} 00:00:00`,
          })
      }
      const payment = store.payments.create({
        id: world.random.uuid(),
        locationId: body.location,
        vehicleId: vehicle.id,
        amount: { amount: body.payment.amount, currency: body.payment.currency },
        startedOn: body.visit.startedOn,
        endedOn: body.visit.endedOn,
        status: 'new',
        via: 'simple',
      })
      const answer: SimplePaymentAnswer = { id: payment.id, status: 'new', message: 'The payment was recorded.' }
      return { status: 201, body: answer, headers: { location: `/payments/${payment.id}` } }
    },
  }),
]
