// POST /custodians (advanced step 4: link a new vehicle to its rental company) and GET /custodians/:id.
import { toFieldProblem } from '../problems.js'
import { createdAnswer, createdReply, defineRoute, linkRoute } from '../route.js'
import { createCustodianBody, custodianRecord, problem, type FieldError } from '../schemas.js'

export const custodianRoutes = [
  defineRoute({
    method: 'POST',
    path: '/custodians',
    integration: 'advanced',
    summary: 'Link a vehicle to the rental company that holds it, from the date it acquired it',
    body: createCustodianBody,
    answers: {
      201: createdAnswer('custodians'),
      422: { description: 'The vehicle or the rental company names no record: `errors` names each', schema: problem },
    },
    handle({ world, body }) {
      const errors: FieldError[] = []
      if (!world.store.vehicles.byId(body.vehicleId)) {
        errors.push({
          field: 'vehicleId',
          problem: 'names no vehicle',
          expected: 'the id of a vehicle, as POST /vehicles answered it',
          received: body.vehicleId,
        })
      }
      if (!world.store.rentalCompanies.byId(body.rentalCompanyId)) {
        errors.push({
          field: 'rentalCompanyId',
          problem: 'names no rental company',
          expected: 'the id of a rental company, as GET /rental-companies answered it',
          received: body.rentalCompanyId,
        })
      }
      if (errors.length > 0) return toFieldProblem(errors)
      const record = world.store.custodians.create({ id: world.random.uuid(), ...body })
      return createdReply('custodians', record.id)
    },
  }),
  linkRoute(
    'custodians',
    'custodian',
    custodianRecord,
    (world, id) => world.store.custodians.byId(id),
    (found) => ({ ...found }),
  ),
]
