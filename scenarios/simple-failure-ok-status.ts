import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'simple-failure-ok-status',
  description: 'POST /payment refuses every payment but answers 200 with a message and no id: clients must key on id',
  simplePayment: 'refuse-ok-status',
  seed: ownedVehicleVisit,
})
