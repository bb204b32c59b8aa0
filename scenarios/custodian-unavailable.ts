import { defineScenario } from '../src/core/service/scenario.js'
import newVehicle from './new-vehicle.js'

export default defineScenario({
  name: 'custodian-unavailable',
  description:
    'The plate is not known yet, and the first POST /custodians answers 503 (recording nothing); later ones work',
  faults: [{ route: 'POST /custodians', kind: 'unavailable', mode: 'once' }],
  // The new-vehicle world and visit: only the fault differs.
  seed: newVehicle.seed,
})
