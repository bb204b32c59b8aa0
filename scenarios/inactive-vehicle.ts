import { defineScenario } from '../src/core/service/scenario.js'

export default defineScenario({
  name: 'inactive-vehicle',
  description: 'The plate belongs only to an inactive vehicle: GET /vehicles answers [] and a new vehicle is created',
  seed({ data, random, unusedPlate, visitDefaults }) {
    const plate = unusedPlate()
    const [owner] = data.rentalCompanies
    const vehicle = { id: random.uuid(), plate, country: 'is', active: false }
    data.vehicles.push(vehicle)
    data.custodians.push({
      id: random.uuid(),
      vehicleId: vehicle.id,
      rentalCompanyId: owner.id,
      acquiredOn: '2020-02-01 00:00:00',
    })
    return { plate, ownerKennitala: owner.kennitala, registrationDate: '2025-09-30', ...visitDefaults }
  },
})
