import { defineScenario } from '../src/core/service/scenario.js'
import { ownedVehicleVisit } from '../src/core/service/seed.js'

export default defineScenario({
  name: 'simple-unavailable',
  description:
    "The plate is one of the owner's active vehicles, and the first POST /payment answers 503 with a message and no id (recording nothing); later ones work",
  faults: [{ route: 'POST /payment', kind: 'unavailable', mode: 'once' }],
  seed: ownedVehicleVisit,
})
