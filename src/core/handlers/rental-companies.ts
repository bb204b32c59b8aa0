// GET /rental-companies?kennitala= (advanced step 1) and GET /rental-companies/:id.
import { z } from 'zod'
import { toProblem } from '../problems.js'
import { defineRoute } from '../route.js'
import { kennitala, problem, rentalCompany, type RentalCompany } from '../schemas.js'

const toCompany = ({ id, name, kennitala }: RentalCompany): RentalCompany => ({ id, name, kennitala })

export const rentalCompanyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/rental-companies',
    integration: 'advanced',
    summary: "Find the rental company by the owner's kennitala; an empty list means the owner is not part of the service",
    query: z.object({ kennitala }),
    answers: {
      200: { description: 'The matching rental companies (empty when the owner is not part of the service)', schema: z.array(rentalCompany) },
      422: { description: 'The kennitala is missing or invalid', schema: problem },
    },
    handle: ({ world, query }) => ({ status: 200, body: world.store.rentalCompanies.byKennitala(query.kennitala).map(toCompany) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/rental-companies/:id',
    integration: 'links',
    summary: 'Fetch one rental company',
    answers: { 200: { description: 'The rental company', schema: rentalCompany }, 404: { description: 'No such company', schema: problem } },
    handle({ world, params }) {
      const company = world.store.rentalCompanies.byId(params.id)
      return company ? { status: 200, body: toCompany(company) } : toProblem(404, `No rental company has the id ${params.id}.`)
    },
  }),
]
