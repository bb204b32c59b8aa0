// advanced.no-create-when-found: when vehicles are found, no POST /vehicles or /custodians. Works
// live: "found" is the mock's answer to GET /vehicles.
import { plural } from '../text.js'
import { defineRule } from './define.js'
import { at, fail, list, pass, skip, vehicleFacts } from './facts.js'

export default defineRule({
  id: 'advanced.no-create-when-found',
  flows: ['advanced'],
  title: 'when vehicles are found, no POST `/vehicles` or `/custodians`',
  cite: '§4 Advanced integration, rule 2 ("Endpoint 3 is used only when endpoint 2 returns an empty array"); §1 Advanced flow, rule 5',
  needsCase: false,
  check({ requests }) {
    const vehicles = vehicleFacts(requests)
    if (vehicles.kind === 'empty')
      return skip(`Does not apply: ${at(requests, vehicles.entry)} answered [], so creating the vehicle is right.`)
    if (vehicles.kind === 'none') return skip(`Does not apply: ${vehicles.why}.`)
    const creates = requests.filter((entry) => entry.route === 'POST /vehicles' || entry.route === 'POST /custodians')
    if (creates.length === 0) {
      return pass(`${at(requests, vehicles.entry)} found the vehicle and the client created no vehicle or custodian.`)
    }
    return fail(
      `Expected no POST /vehicles or POST /custodians once ${at(requests, vehicles.entry)} found ${plural(vehicles.vehicles.length, 'vehicle')} (the first one's id is used); the client sent ${list(requests, creates)}.`,
      { seq: creates[0].seq, expected: [], actual: creates.map((entry) => entry.route) },
    )
  },
})
