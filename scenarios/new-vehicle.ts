import { defineScenario } from '../src/core/service/scenario.js'

export default defineScenario({
  name: 'new-vehicle',
  description: 'The owner is registered; the plate is not known yet, so the vehicle and its custodian are created',
  seed({ data, unusedPlate, visitDefaults }) {
    return {
      plate: unusedPlate(),
      ownerKennitala: data.rentalCompanies[0].kennitala,
      registrationDate: '2025-05-14',
      ...visitDefaults,
    }
  },
})
