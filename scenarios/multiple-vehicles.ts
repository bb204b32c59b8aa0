import { defineScenario } from '../src/core/service/scenario.js'

export default defineScenario({
  name: 'multiple-vehicles',
  description:
    'The plate has two active vehicles (and an older inactive one): the payment must use the first one listed',
  seed({ data, random, unusedPlate, visitDefaults }) {
    const plate = unusedPlate()
    const [owner, other] = data.rentalCompanies
    const vehicles = [
      { id: random.uuid(), plate, country: 'is', active: false },
      { id: random.uuid(), plate, country: 'is', active: true },
      { id: random.uuid(), plate, country: 'is', active: true },
    ]
    data.vehicles.push(...vehicles)
    vehicles.forEach((vehicle, i) =>
      data.custodians.push({
        id: random.uuid(),
        vehicleId: vehicle.id,
        rentalCompanyId: i === 2 ? other.id : owner.id,
        acquiredOn: `202${i + 2}-0${i + 3}-01 00:00:00`,
      }),
    )
    return { plate, ownerKennitala: owner.kennitala, registrationDate: '2023-04-01', ...visitDefaults }
  },
})
