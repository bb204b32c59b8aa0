// advanced.custodian-after-create: then POST /custodians with the new vehicle's id, the company's id,
// and `acquiredOn` on the registration date. Applies only when GET /vehicles answered [] and the
// mock created the vehicle. Works live for the ids (the company's from the company lookup's answer,
// the vehicle's from POST /vehicles' answer) and for the form of `acquiredOn`; the date itself is
// compared with the visit's registration date (RELAY_REGISTRATION_DATE) when the case gives it.
// `acquiredOn` may be `YYYY-MM-DD HH:MM:SS` (the interface's example) or `YYYY-MM-DD`.
import { isDate, isTimestamp } from '../service/schemas.js'
import { defineRule } from './define.js'
import { isRecord } from '../exchange/answer.js'
import { bodyOf } from '../exchange/entry.js'
import {
  at,
  bodyUnreadable,
  callAfter,
  companyFacts,
  createdVehicle,
  fail,
  fieldProblems,
  pass,
  show,
  skip,
  vehicleFacts,
} from './facts.js'

export default defineRule({
  id: 'advanced.custodian-after-create',
  flows: ['advanced'],
  title:
    "then POST `/custodians` with the new vehicle's id, the company's id, and `acquiredOn` on the registration date",
  cite: '§1 Advanced flow, rule 4; §4 Advanced integration, endpoint 4 and rule 2; §2 Custodian',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const vehicles = vehicleFacts(requests)
    if (vehicles.kind === 'found')
      return skip(`Does not apply: ${at(requests, vehicles.entry)} found the vehicle, so no vehicle is created.`)
    if (vehicles.kind === 'none') return skip(`Does not apply: ${vehicles.why}.`)
    const created = createdVehicle(requests)
    if (!created) return skip('Does not apply: no vehicle was created (see advanced.create-vehicle-when-missing).')
    const company = companyFacts(requests)
    const companyId =
      company.kind === 'found' && typeof company.company.id === 'string' ? company.company.id : undefined
    const expected = {
      vehicleId: created.id,
      rentalCompanyId: companyId ?? '<the company id from GET /rental-companies>',
      acquiredOn: visit ? `${visit.registrationDate} 00:00:00` : '<the registration date>',
    }
    const next = callAfter(requests, created.entry)
    const after = `after ${at(requests, created.entry)} created the vehicle ${created.id}`
    if (!next)
      return fail(`Expected POST /custodians ${show(expected)} ${after}; the client made no further call.`, {
        seq: created.entry.seq,
        expected,
      })
    if (next.route !== 'POST /custodians') {
      return fail(`Expected POST /custodians ${after}; the next call was ${at(requests, next)}.`, {
        seq: next.seq,
        expected,
        actual: next.route,
      })
    }
    const unreadable = bodyUnreadable(requests, next)
    if (unreadable) return skip(unreadable)
    const body = bodyOf(next)
    const problems: string[] = []
    if (!isRecord(body)) problems.push(`the body ${show(body)} is not a JSON object`)
    else {
      if (body.vehicleId !== created.id)
        problems.push(
          `vehicleId is ${show(body.vehicleId)}, expected the new vehicle's id ${show(created.id)} (from ${at(requests, created.entry)})`,
        )
      if (companyId !== undefined && body.rentalCompanyId !== companyId) {
        problems.push(
          `rentalCompanyId is ${show(body.rentalCompanyId)}, expected the company's id ${show(companyId)} (from ${at(requests, (company as { entry: typeof next }).entry)})`,
        )
      }
      const acquiredOn = body.acquiredOn
      if (typeof acquiredOn !== 'string' || !(isTimestamp(acquiredOn) || isDate(acquiredOn))) {
        problems.push(
          `acquiredOn is ${show(acquiredOn)}, expected the registration date as YYYY-MM-DD HH:MM:SS (or YYYY-MM-DD)`,
        )
      } else if (visit && acquiredOn.slice(0, 10) !== visit.registrationDate) {
        problems.push(
          `acquiredOn is ${show(acquiredOn)}, expected the registration date ${visit.registrationDate} (RELAY_REGISTRATION_DATE), e.g. "${visit.registrationDate} 00:00:00"`,
        )
      }
      const extra = Object.keys(body).filter((key) => !['vehicleId', 'rentalCompanyId', 'acquiredOn'].includes(key))
      if (extra.length > 0)
        problems.push(`it sends ${extra.map((k) => `"${k}"`).join(', ')}, which a custodian does not have`)
    }
    if (problems.length === 0) {
      const mock = fieldProblems(next)
      if (mock) problems.push(`the mock refused it: ${mock}`)
    }
    if (problems.length > 0)
      return fail(`Expected POST /custodians ${show(expected)}; in ${at(requests, next)} ${problems.join('; ')}.`, {
        seq: next.seq,
        expected,
        actual: body,
      })
    return pass(`The client linked the new vehicle ${created.id} to the company.`, { seq: next.seq })
  },
})
