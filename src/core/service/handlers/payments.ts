// POST /payments (advanced step 5) and GET /payments/:id.
import { toFieldProblem } from '../problems.js'
import { createdAnswer, createdReply, defineRoute, linkRoute } from '../route.js'
import { createPaymentBody, paymentRecord, problem, type FieldError, type PaymentRecord } from '../schemas.js'
import type { World } from '../world.js'

const toPayment = ({ via: _via, ...payment }: PaymentRecord) => ({ ...payment, amount: { ...payment.amount } })

/** The checks of a payment beyond its schema, shared by both integrations; `at` names the fields. */
export function paymentReferenceErrors(
  world: World,
  payment: { locationId: string; startedOn: string; endedOn: string },
  at: { locationId: string; endedOn: string },
): FieldError[] {
  const errors: FieldError[] = []
  if (!world.store.locations.byId(payment.locationId)) {
    errors.push({
      field: at.locationId,
      problem: 'names no location',
      expected: `the location id issued with your token (${world.location.id})`,
      received: payment.locationId,
    })
  }
  // Both are YYYY-MM-DD HH:MM:SS, so text order is time order.
  if (payment.endedOn < payment.startedOn) {
    errors.push({
      field: at.endedOn,
      problem: 'is before the visit start',
      expected: 'a time equal to or after the visit start',
      received: payment.endedOn,
    })
  }
  return errors
}

export const paymentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/payments',
    integration: 'advanced',
    summary: 'Record the payment for a visit, for an existing or newly created vehicle',
    body: createPaymentBody,
    answers: {
      201: createdAnswer('payments', 'Created (status new)'),
      422: {
        description:
          'The location or the vehicle names no record, or the visit ends before it starts: `errors` names each',
        schema: problem,
      },
    },
    handle({ world, body }) {
      const errors = paymentReferenceErrors(world, body, { locationId: 'locationId', endedOn: 'endedOn' })
      if (!world.store.vehicles.byId(body.vehicleId)) {
        errors.push({
          field: 'vehicleId',
          problem: 'names no vehicle',
          expected: 'the id of a vehicle from GET /vehicles or POST /vehicles',
          received: body.vehicleId,
        })
      }
      if (errors.length > 0) return toFieldProblem(errors)
      const record = world.store.payments.create({ id: world.random.uuid(), ...body, status: 'new', via: 'advanced' })
      return createdReply('payments', record.id)
    },
  }),
  linkRoute(
    'payments',
    'payment',
    paymentRecord.omit({ via: true }),
    (world, id) => world.store.payments.byId(id),
    toPayment,
  ),
]
