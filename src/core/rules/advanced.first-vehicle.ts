// advanced.first-vehicle: the payment uses the first listed vehicle's id. Works live: the list is the
// mock's answer to GET /vehicles. Applies only when vehicles were found; the id of a newly created
// vehicle is advanced.payment-body's to check.
import { defineRule } from './define.js'
import { bodyOf } from '../exchange/entry.js'
import { at, bodyUnreadable, callsTo, fail, pass, show, skip, valueAt, vehicleFacts } from './facts.js'

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth']

export default defineRule({
  id: 'advanced.first-vehicle',
  flows: ['advanced'],
  title: "the payment uses the first listed vehicle's id",
  cite: '§1 Advanced flow, rule 5 ("its id is used (first element of the list)"); §4 Advanced integration, rule 3',
  needsCase: false,
  check({ requests }) {
    const vehicles = vehicleFacts(requests)
    if (vehicles.kind === 'empty')
      return skip(
        `Does not apply: ${at(requests, vehicles.entry)} answered [] (the new vehicle's id is checked by advanced.payment-body).`,
      )
    if (vehicles.kind === 'none') return skip(`Does not apply: ${vehicles.why}.`)
    const payments = callsTo(requests, 'POST /payments')
    if (payments.length === 0) return skip('Does not apply: no payment was made (see advanced.single-payment).')
    const readable = payments.filter((entry) => !bodyUnreadable(requests, entry))
    if (readable.length === 0) return skip(bodyUnreadable(requests, payments[0])!)
    const first = vehicles.vehicles[0].id
    for (const payment of readable) {
      const sent = valueAt(bodyOf(payment), 'vehicleId')
      if (sent === first) continue
      const index = vehicles.vehicles.findIndex((v) => v.id === sent)
      const which =
        index > 0
          ? ` (the ${ORDINALS[index] ?? `#${index + 1}`} of the ${vehicles.vehicles.length} listed)`
          : index === -1
            ? ' (not one GET /vehicles listed)'
            : ''
      return fail(
        `Expected vehicleId ${show(first)}, the first vehicle ${at(requests, vehicles.entry)} listed; ${at(requests, payment)} sent vehicleId ${show(sent)}${which}.`,
        { seq: payment.seq, expected: first, actual: sent },
      )
    }
    return pass(`The payment used the first listed vehicle ${String(first)}.`)
  },
})
