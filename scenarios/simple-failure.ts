import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'simple-failure',
  description: 'POST /payment refuses every payment: 422 with a message and no id (the advanced endpoints work)',
  simplePayment: 'refuse',
  seed: ownedVehicleVisit,
})
