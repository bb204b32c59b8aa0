// GET /vehicles?plate= (advanced step 2), POST /vehicles (step 3) and GET /vehicles/:id.
import { z } from 'zod'
import { createdAnswer, createdReply, defineRoute, linkRoute } from '../route.js'
import { createVehicleBody, exactPlates, plate, vehicle, type Vehicle } from '../schemas.js'

const toVehicle = ({ id, plate, country }: Vehicle): Vehicle => ({ id, plate, country })

export const vehicleRoutes = [
  defineRoute({
    method: 'GET',
    path: '/vehicles',
    integration: 'advanced',
    summary: 'Find the active vehicles with a plate (case, spaces and hyphens ignored), oldest first',
    query: z.object({ plate }),
    answers: { 200: { description: 'The active vehicles with this plate; empty when none', schema: z.array(vehicle) } },
    handle: ({ world, query }) => ({
      status: 200,
      body: exactPlates(world.store.vehicles.activeByPlate(query.plate), query.plate, world.variants).map(toVehicle),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/vehicles',
    integration: 'advanced',
    summary: 'Create a vehicle (only when GET /vehicles found none)',
    body: createVehicleBody,
    answers: { 201: createdAnswer('vehicles') },
    handle({ world, body }) {
      const record = world.store.vehicles.create({
        id: world.random.uuid(),
        plate: body.plate,
        country: body.country,
        active: true,
      })
      return createdReply('vehicles', record.id)
    },
  }),
  linkRoute('vehicles', 'vehicle', vehicle, (world, id) => world.store.vehicles.byId(id), toVehicle),
]
