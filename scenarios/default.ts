import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'default',
  description: 'The base world: five rental companies, their vehicles and custodians; everything is accepted',
  seed: ownedVehicleVisit,
})
