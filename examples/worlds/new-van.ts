// A scenario of your own in TypeScript: code over the generated base world. Serve it with
// `relay-mock serve --scenario examples/worlds/new-van.ts`, or name it in a cases file.
import { defineScenario } from 'relay-mock'

export default defineScenario({
  name: 'new-van',
  description: "The first company's new van, not yet known to the service; POST /payment refuses every payment",
  // The advanced endpoints work; the simple one answers 422 with a message and no id.
  simplePayment: 'refuse',
  seed({ data, unusedPlate, visitDefaults }) {
    const company = data.rentalCompanies[0]
    return {
      plate: unusedPlate(),
      ownerKennitala: company.kennitala,
      registrationDate: '2026-11-02',
      ...visitDefaults,
      amount: 4490,
    }
  },
})
