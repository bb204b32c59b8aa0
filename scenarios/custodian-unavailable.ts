import { defineScenario } from '../src/core/scenario.js'

export default defineScenario({
  name: 'custodian-unavailable',
  description: 'The plate is not known yet, and the first POST /custodians answers 503 (recording nothing); later ones work',
  faults: [{ route: 'POST /custodians', status: 503, times: 1 }],
  seed({ data, unusedPlate, visitDefaults }) {
    return {
      plate: unusedPlate(),
      ownerKennitala: data.rentalCompanies[0].kennitala,
      registrationDate: '2025-05-14',
      ...visitDefaults,
    }
  },
})
