// advanced.payment-body: POST /payments carries the location id, the vehicle id, `amount`
// `{amount: <integer>, currency: "ISK"}`, `startedOn`/`endedOn` equal to the visit's, in
// `YYYY-MM-DD HH:MM:SS`; `status`, if sent, is `new`.
// Works live: the forms (UUIDs, an integer JSON number, ISK, the timestamp form, status, no unknown
// fields) and the new vehicle's id (from POST /vehicles' answer) need no case; the values the
// location holds (location id, amount, start and end) are compared with the visit when the case
// gives it. Which listed vehicle is used is advanced.first-vehicle's to check.
import { isTimestamp, uuid } from '../service/schemas.js'
import { defineRule } from './define.js'
import { isRecord } from '../exchange/answer.js'
import { bodyOf } from '../exchange/entry.js'
import { at, callsTo, bodyUnreadable, createdVehicle, fail, firstFaultyBody, pass, show, skip } from './facts.js'
import type { CaseVisit } from './types.js'

const FIELDS = ['locationId', 'vehicleId', 'amount', 'startedOn', 'endedOn', 'status']
const isUuid = (value: unknown) => typeof value === 'string' && uuid.safeParse(value).success

function problemsOf(body: unknown, visit: CaseVisit | undefined, newVehicle: string | undefined): string[] {
  if (!isRecord(body)) return [`the body ${show(body)} is not a JSON object`]
  const problems: string[] = []
  if (!isUuid(body.locationId))
    problems.push(`locationId is ${show(body.locationId)}, expected the location's id (a UUID, RELAY_LOCATION_ID)`)
  else if (visit && body.locationId !== visit.locationId)
    problems.push(`locationId is ${show(body.locationId)}, expected ${show(visit.locationId)} (RELAY_LOCATION_ID)`)
  if (!isUuid(body.vehicleId)) problems.push(`vehicleId is ${show(body.vehicleId)}, expected the vehicle's id (a UUID)`)
  else if (newVehicle !== undefined && body.vehicleId !== newVehicle)
    problems.push(`vehicleId is ${show(body.vehicleId)}, expected the new vehicle's id ${show(newVehicle)}`)
  const amount = body.amount
  if (!isRecord(amount))
    problems.push(`amount is ${show(amount)}, expected an object {"amount": <integer>, "currency": "ISK"}`)
  else {
    const value = amount.amount
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      problems.push(
        `amount.amount is ${show(value)}${typeof value === 'string' ? ' (a string)' : ''}, expected ${visit ? `the integer ${visit.amount}` : 'an integer'} as a JSON number`,
      )
    } else if (visit && value !== visit.amount)
      problems.push(`amount.amount is ${value}, expected ${visit.amount} (RELAY_AMOUNT)`)
    if (amount.currency !== 'ISK')
      problems.push(`amount.currency is ${show(amount.currency)}, expected "ISK" (the only currency)`)
    const extra = Object.keys(amount).filter((key) => key !== 'amount' && key !== 'currency')
    if (extra.length > 0)
      problems.push(
        `amount also carries ${extra.map((k) => `"${k}"`).join(', ')}; a money object is exactly {amount, currency}`,
      )
  }
  for (const [field, expected, variable] of [
    ['startedOn', visit?.visitStart, 'RELAY_VISIT_START'],
    ['endedOn', visit?.visitEnd, 'RELAY_VISIT_END'],
  ] as const) {
    const value = body[field]
    if (typeof value !== 'string' || !isTimestamp(value)) {
      problems.push(
        `${field} is ${show(value)}, expected ${expected ? `"${expected}"` : 'a timestamp'} in the form YYYY-MM-DD HH:MM:SS`,
      )
    } else if (expected !== undefined && value !== expected)
      problems.push(`${field} is ${show(value)}, expected the visit's "${expected}" (${variable})`)
  }
  if ('status' in body && body.status !== 'new')
    problems.push(`status is ${show(body.status)}; when sent it must be "new"`)
  const extra = Object.keys(body).filter((key) => !FIELDS.includes(key))
  if (extra.length > 0)
    problems.push(`it sends ${extra.map((k) => `"${k}"`).join(', ')}, which a payment does not have`)
  return problems
}

export default defineRule({
  id: 'advanced.payment-body',
  flows: ['advanced'],
  title:
    'POST `/payments` carries the location id, the vehicle id, `amount` `{amount: <integer>, currency: "ISK"}`, `startedOn`/`endedOn` equal to the visit\'s, in `YYYY-MM-DD HH:MM:SS`; `status`, if sent, is `new`',
  cite: '§2 Payment (advanced integration); §4 Advanced integration, endpoint 5 and rule 3; §8 Limits',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const payments = callsTo(requests, 'POST /payments')
    if (payments.length === 0) return skip('Does not apply: no POST /payments was made.')
    const newVehicle = createdVehicle(requests)?.id
    const readable = payments.filter((entry) => !bodyUnreadable(requests, entry))
    if (readable.length === 0) return skip(bodyUnreadable(requests, payments[0])!)
    const faulty = firstFaultyBody(readable, (body) => problemsOf(body, visit, newVehicle))
    if (!faulty) return pass(`The payment body carried the visit as the interface requires.`)
    const expected = visit
      ? {
          locationId: visit.locationId,
          vehicleId: newVehicle ?? '<the vehicle id>',
          amount: { amount: visit.amount, currency: visit.currency },
          startedOn: visit.visitStart,
          endedOn: visit.visitEnd,
          status: 'new',
        }
      : undefined
    return fail(
      `Expected the payment body to carry the visit; in ${at(requests, faulty.entry)} ${faulty.problems.join('; ')}.`,
      {
        seq: faulty.entry.seq,
        expected,
        actual: bodyOf(faulty.entry),
      },
    )
  },
})
