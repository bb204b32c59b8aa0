// The ledger's checks of the body forms JSON.parse cannot tell apart (json-literals.ts): a whole number
// written `3990.0`, `3.99e3` or `-0`, and a key named twice. A request that used the form and was answered
// as any other confirms relay-mock's choice; one the service refused for it contradicts it. Kept apart
// from the other checks, which read each answer's own shape; these read how the request was written.
import { routeById } from '../../service/protocol.js'
import { validate } from '../../service/validate.js'
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type AssumptionCheck, type Observed } from './observed.js'

/** Whether relay-mock itself takes the body: only then can a refusal be for the form alone. */
function takenByRelayMock(o: Observed): boolean {
  const route = routeById(o.route)
  return route?.body !== undefined && o.body !== undefined && validate(route.body, o.body).success
}

/** The checks of `request.number-form` and `request.duplicate-keys`, for ASSUMPTION_CHECKS. */
export const JSON_FORM_CHECKS: { 'request.number-form': AssumptionCheck; 'request.duplicate-keys': AssumptionCheck } = {
  'request.number-form'(o) {
    // `-0` is no amount: relay-mock refuses it too, so its refusal tells nothing.
    const form = o.forms?.find((f) => f.assumption === 'request.number-form' && !Object.is(Number(f.sent), -0))
    if (!form || silent(o.status)) return undefined
    const expected = `${form.sent} read as ${Number(form.sent)} (${form.where})`
    if (isSuccess(o.status)) return confirmed(expected, String(o.status))
    // A refusal is for the number only when relay-mock takes the rest, and the service's words name the field or the literal.
    const named = o.text.includes(form.sent) || o.text.includes(form.where.split('.').at(-1)!)
    if ((o.status === 400 || o.status === 422) && named && takenByRelayMock(o))
      return contradicted(expected, `${o.status} naming ${form.where}`, 'integer-literal')
    return undefined
  },
  'request.duplicate-keys'(o) {
    const form = o.forms?.find((f) => f.assumption === 'request.duplicate-keys')
    if (!form || silent(o.status)) return undefined
    const expected = `the body read, the last value of each key counting (${form.sent})`
    if (isSuccess(o.status)) return confirmed(expected, String(o.status))
    if (o.status === 400 && takenByRelayMock(o)) return contradicted(expected, '400', 'refused')
    return undefined
  },
}
