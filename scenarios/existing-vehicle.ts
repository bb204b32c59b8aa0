import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'existing-vehicle',
  description: 'The owner is registered and the plate is one of its active vehicles: nothing to create',
  seed: ownedVehicleVisit,
})
