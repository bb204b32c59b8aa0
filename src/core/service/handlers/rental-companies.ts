// GET /rental-companies?kennitala= (advanced step 1) and GET /rental-companies/:id.
import { z } from 'zod'
import { defineRoute, linkRoute } from '../route.js'
import { kennitala, rentalCompany, type RentalCompany } from '../schemas.js'

const toCompany = ({ id, name, kennitala }: RentalCompany): RentalCompany => ({ id, name, kennitala })

export const rentalCompanyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/rental-companies',
    integration: 'advanced',
    summary:
      "Find the rental company by the owner's kennitala; an empty list means the owner is not part of the service",
    query: z.object({ kennitala }),
    answers: {
      200: {
        description: 'The matching rental companies (empty when the owner is not part of the service)',
        schema: z.array(rentalCompany),
      },
    },
    handle: ({ world, query }) => ({
      status: 200,
      body: world.store.rentalCompanies.byKennitala(query.kennitala).map(toCompany),
    }),
  }),
  linkRoute(
    'rental-companies',
    'rental company',
    rentalCompany,
    (world, id) => world.store.rentalCompanies.byId(id),
    toCompany,
  ),
]
