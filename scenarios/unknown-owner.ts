import { defineScenario } from '../src/core/service/scenario.js'
import { firstOwnedVehicle } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'unknown-owner',
  description:
    "The owner's kennitala is not a registered rental company (the plate is known, to catch clients that skip the company lookup)",
  seed({ data, unusedKennitala, visitDefaults }) {
    const { vehicle, registrationDate } = firstOwnedVehicle(data)
    return { plate: vehicle.plate, ownerKennitala: unusedKennitala(), registrationDate, ...visitDefaults }
  },
})
