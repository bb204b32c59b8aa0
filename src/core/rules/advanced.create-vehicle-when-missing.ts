// advanced.create-vehicle-when-missing: after an empty vehicle list, POST /vehicles with the plate and
// country `is`. Works live: the plate expected is the visit's when the case gives it, else the plate
// the client looked up (the empty list answered that plate).
import { normalizePlate } from '../service/schemas.js'
import { plural } from '../text.js'
import { defineRule } from './define.js'
import { isRecord } from '../exchange/answer.js'
import { bodyOf, requestOf } from '../exchange/entry.js'
import { plateSent } from '../exchange/request.js'
import { at, bodyUnreadable, callAfter, fail, fieldProblems, pass, show, skip, vehicleFacts } from './facts.js'

export default defineRule({
  id: 'advanced.create-vehicle-when-missing',
  flows: ['advanced'],
  title: 'after an empty vehicle list, POST `/vehicles` with the plate and country `is`',
  cite: '§1 Advanced flow, rule 4; §4 Advanced integration, endpoint 3 and rule 2; §2 Vehicle',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const vehicles = vehicleFacts(requests)
    if (vehicles.kind === 'found')
      return skip(
        `Does not apply: ${at(requests, vehicles.entry)} found ${plural(vehicles.vehicles.length, 'vehicle')}.`,
      )
    if (vehicles.kind === 'none') return skip(`Does not apply: ${vehicles.why}.`)
    const asked = plateSent(requestOf(vehicles.entry))?.plate
    const plate = visit?.plate ?? (typeof asked === 'string' ? asked : undefined) ?? '<the plate>'
    const expected = { plate, country: 'is' }
    const next = callAfter(requests, vehicles.entry)
    const after = `after ${at(requests, vehicles.entry)} answered []`
    if (!next)
      return fail(`Expected POST /vehicles ${show(expected)} ${after}; the client made no further call.`, {
        seq: vehicles.entry.seq,
        expected,
      })
    if (next.route !== 'POST /vehicles') {
      return fail(`Expected POST /vehicles ${show(expected)} ${after}; the next call was ${at(requests, next)}.`, {
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
      const sent = plateSent({ route: next.route, query: next.request.query, body })?.plate
      if (typeof sent !== 'string' || normalizePlate(sent) !== normalizePlate(plate))
        problems.push(`plate is ${show(sent)}, expected ${show(plate)}`)
      if (body.country !== 'is') problems.push(`country is ${show(body.country)}, expected "is" (lower case)`)
      const extra = Object.keys(body).filter((key) => key !== 'plate' && key !== 'country')
      if (extra.length > 0)
        problems.push(`it sends ${extra.map((k) => `"${k}"`).join(', ')}, which a vehicle does not have`)
    }
    if (problems.length === 0) {
      const mock = fieldProblems(next)
      if (mock) problems.push(`the mock refused it: ${mock}`)
    }
    if (problems.length > 0) {
      return fail(`Expected POST /vehicles ${show(expected)}; in ${at(requests, next)} ${problems.join('; ')}.`, {
        seq: next.seq,
        expected,
        actual: body,
      })
    }
    return pass(`After the empty vehicle list, the client created the vehicle ${show(expected)}.`, { seq: next.seq })
  },
})
