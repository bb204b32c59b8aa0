import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'payment-unavailable',
  description:
    "The plate is one of the owner's active vehicles, and the first POST /payments answers 503 (recording nothing); later ones work",
  faults: [{ route: 'POST /payments', kind: 'unavailable', mode: 'once' }],
  seed: ownedVehicleVisit,
})
