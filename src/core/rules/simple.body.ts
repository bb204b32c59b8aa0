// simple.body: its body carries the visit: location, vehicle owner, plate, `acquiredOn` (`YYYY-MM-DD`),
// visit times, amount, currency. Works live for the forms (UUID, 10-digit kennitala, a plate, the
// date and timestamp forms, an integer JSON number, ISK, no unknown fields); the values are compared
// with the visit when the case gives it. The mock's own refusals (an unknown owner, a scenario that
// refuses) are not the body's fault: only its per-field problems are.
import { isDate, isTimestamp, uuid } from '../service/schemas.js'
import { normalizePlate } from '../service/schemas.js'
import { defineRule } from './define.js'
import { isRecord } from '../exchange/answer.js'
import { bodyOf } from '../exchange/entry.js'
import { plateSent } from '../exchange/request.js'
import { at, callsTo, bodyUnreadable, fail, firstFaultyBody, notUtf8, pass, show, skip, valueAt } from './facts.js'
import type { CaseVisit } from './types.js'

const SHAPE: Record<string, string[]> = {
  '': ['location', 'vehicle', 'visit', 'payment'],
  vehicle: ['owner', 'plate', 'acquiredOn'],
  visit: ['startedOn', 'endedOn'],
  payment: ['amount', 'currency'],
}

function problemsOf(body: unknown, visit: CaseVisit | undefined): string[] {
  if (!isRecord(body)) return [`the body ${show(body)} is not a JSON object`]
  const problems: string[] = []
  const get = (path: string) => valueAt(body, path)
  const location = get('location')
  if (typeof location !== 'string' || !uuid.safeParse(location).success)
    problems.push(`location is ${show(location)}, expected the location's id (a UUID, RELAY_LOCATION_ID)`)
  else if (visit && location !== visit.locationId)
    problems.push(`location is ${show(location)}, expected ${show(visit.locationId)} (RELAY_LOCATION_ID)`)
  const owner = get('vehicle.owner')
  if (typeof owner !== 'string' || !/^\d{10}$/.test(owner))
    problems.push(`vehicle.owner is ${show(owner)}, expected the owner's kennitala, 10 digits`)
  else if (visit && owner !== visit.ownerKennitala)
    problems.push(`vehicle.owner is ${show(owner)}, expected ${show(visit.ownerKennitala)} (RELAY_OWNER_KENNITALA)`)
  const plate = plateSent({ route: 'POST /payment', query: {}, body })?.plate
  if (typeof plate !== 'string' || plate.trim() === '')
    problems.push(`vehicle.plate is ${show(plate)}, expected the plate`)
  else if (visit && normalizePlate(plate) !== normalizePlate(visit.plate)) {
    const bytes = notUtf8('plate', visit.plate, plate)
    problems.push(
      `vehicle.plate is ${show(plate)}, expected ${show(visit.plate)} (RELAY_PLATE)${bytes ? `: ${bytes}` : ''}`,
    )
  }
  const acquiredOn = get('vehicle.acquiredOn')
  if (typeof acquiredOn !== 'string' || !isDate(acquiredOn)) {
    problems.push(
      `vehicle.acquiredOn is ${show(acquiredOn)}, expected ${visit ? `"${visit.registrationDate}"` : 'a date'} in the form YYYY-MM-DD`,
    )
  } else if (visit && acquiredOn !== visit.registrationDate)
    problems.push(
      `vehicle.acquiredOn is ${show(acquiredOn)}, expected ${show(visit.registrationDate)} (RELAY_REGISTRATION_DATE)`,
    )
  for (const [path, expected, variable] of [
    ['visit.startedOn', visit?.visitStart, 'RELAY_VISIT_START'],
    ['visit.endedOn', visit?.visitEnd, 'RELAY_VISIT_END'],
  ] as const) {
    const value = get(path)
    if (typeof value !== 'string' || !isTimestamp(value))
      problems.push(
        `${path} is ${show(value)}, expected ${expected ? `"${expected}"` : 'a timestamp'} in the form YYYY-MM-DD HH:MM:SS`,
      )
    else if (expected !== undefined && value !== expected)
      problems.push(`${path} is ${show(value)}, expected the visit's "${expected}" (${variable})`)
  }
  const amount = get('payment.amount')
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    problems.push(
      `payment.amount is ${show(amount)}${typeof amount === 'string' ? ' (a string)' : ''}, expected ${visit ? `the integer ${visit.amount}` : 'an integer'} as a JSON number`,
    )
  } else if (visit && amount !== visit.amount)
    problems.push(`payment.amount is ${amount}, expected ${visit.amount} (RELAY_AMOUNT)`)
  const currency = get('payment.currency')
  if (currency !== 'ISK') problems.push(`payment.currency is ${show(currency)}, expected "ISK" (the only currency)`)
  for (const [path, keys] of Object.entries(SHAPE)) {
    const part = path === '' ? body : get(path)
    if (!isRecord(part)) continue
    const extra = Object.keys(part).filter((key) => !keys.includes(key))
    if (extra.length > 0)
      problems.push(
        `${path || 'the body'} also carries ${extra.map((k) => `"${k}"`).join(', ')}, which the simple body does not have`,
      )
  }
  return problems
}

export default defineRule({
  id: 'simple.body',
  flows: ['simple'],
  title:
    'its body carries the visit: location, vehicle owner, plate, `acquiredOn` (`YYYY-MM-DD`), visit times, amount, currency',
  cite: '§2 Payment (simple integration request body); §4 Simple integration',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const payments = callsTo(requests, 'POST /payment')
    if (payments.length === 0) return skip('Does not apply: no POST /payment was made (see simple.one-request).')
    const readable = payments.filter((entry) => !bodyUnreadable(requests, entry))
    if (readable.length === 0) return skip(bodyUnreadable(requests, payments[0])!)
    const faulty = firstFaultyBody(readable, (body) => problemsOf(body, visit))
    if (!faulty) return pass(`The body carried the visit as the interface requires.`)
    const expected = visit
      ? {
          location: visit.locationId,
          vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
          visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
          payment: { amount: visit.amount, currency: visit.currency },
        }
      : undefined
    return fail(
      `Expected the simple body to carry the visit; in ${at(requests, faulty.entry)} ${faulty.problems.join('; ')}.`,
      {
        seq: faulty.entry.seq,
        expected,
        actual: bodyOf(faulty.entry),
      },
    )
  },
})
