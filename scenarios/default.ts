import { defineScenario } from '../src/core/scenario.js'
import { ownedVehicleVisit } from '../src/core/seed.js'

export default defineScenario({
  name: 'default',
  description: 'The base world: five rental companies, their vehicles and custodians; everything is accepted',
  seed: ownedVehicleVisit,
})
