// The assumption ledger held against a real service's answers: for each assumption, what in an answer
// confirms or contradicts relay-mock's choice (and which alternative the service made instead), and the
// answers that depart from the interface itself (findings). Plain data in, verdicts out: `relay-mock
// proxy` feeds it each upstream answer; the ledger itself is assumptions.ts. Each check is a module of its
// own in checks/, named by its assumption's id; this table holds them to the ledger.
import type { AssumptionId } from './assumptions.js'
import type { AssumptionCheck, NotObservable } from './checks/observed.js'
import { JSON_FORM_CHECKS } from './checks/json-forms.js'
import { NOT_OBSERVABLE } from './checks/not-observable.js'
import { createStatus } from './checks/create.status.js'
import { invalidStatus } from './checks/invalid.status.js'
import { errorBody } from './checks/error.body.js'
import { authRefusal } from './checks/auth.refusal.js'
import { simpleAnswer } from './checks/simple.answer.js'
import { simpleRefusalStatus } from './checks/simple.refusal-status.js'
import { simpleUnknownOwner } from './checks/simple.unknown-owner.js'
import { recordsExtraFields } from './checks/records.extra-fields.js'
import { linksFetchable } from './checks/links.fetchable.js'
import { slipPath } from './checks/slip.path.js'
import { slipMethod } from './checks/slip.method.js'
import { requestRefusals } from './checks/request.refusals.js'
import { httpHead } from './checks/http.head.js'
import { httpOptions } from './checks/http.options.js'
import { requestCheckOrder } from './checks/request.check-order.js'
import { httpGetBody } from './checks/http.get-body.js'
import { custodianAcquiredOn } from './checks/custodian.acquired-on.js'
import { vehicleCountry } from './checks/vehicle.country.js'
import { kennitalaFormat } from './checks/kennitala.format.js'
import { plateFormat } from './checks/plate.format.js'
import { vehiclesSeveral } from './checks/vehicles.several.js'
import { queryExtra } from './checks/query.extra.js'
import { listsPaging } from './checks/lists.paging.js'
import { authScheme } from './checks/auth.scheme.js'
import { requestContentType } from './checks/request.content-type.js'

export type { AssumptionCheck, CheckVerdict, Finding, NotObservable, Observed } from './checks/observed.js'
export { createMemory, type Memory } from './checks/memory.js'
export { learn } from './checks/learn.js'
export { findingsOf } from './checks/findings.js'

/**
 * Each assumption of the ledger, once: its check, or why traffic cannot show it. The type holds this
 * table to the ledger, so that an assumption added there without deciding here is caught.
 */
export const ASSUMPTION_CHECKS: Record<AssumptionId, AssumptionCheck | NotObservable> = {
  'create.status': createStatus,
  'invalid.status': invalidStatus,
  'error.body': errorBody,
  'auth.refusal': authRefusal,
  'simple.answer': simpleAnswer,
  'simple.refusal-status': simpleRefusalStatus,
  'simple.unknown-owner': simpleUnknownOwner,
  'records.extra-fields': recordsExtraFields,
  'links.fetchable': linksFetchable,
  'slip.path': slipPath,
  'slip.method': slipMethod,
  'request.refusals': requestRefusals,
  'http.head': httpHead,
  'http.options': httpOptions,
  'http.expect-continue': NOT_OBSERVABLE['http.expect-continue'],
  'request.check-order': requestCheckOrder,
  'http.get-body': httpGetBody,
  'time.zone': NOT_OBSERVABLE['time.zone'],
  'custodian.acquired-on': custodianAcquiredOn,
  'amount.unit': NOT_OBSERVABLE['amount.unit'],
  'vehicle.country': vehicleCountry,
  'kennitala.format': kennitalaFormat,
  'plate.format': plateFormat,
  'location.id': NOT_OBSERVABLE['location.id'],
  'vehicles.several': vehiclesSeveral,
  'query.extra': queryExtra,
  'lists.paging': listsPaging,
  'query.encoding': NOT_OBSERVABLE['query.encoding'],
  'auth.scheme': authScheme,
  'request.content-type': requestContentType,
  ...JSON_FORM_CHECKS,
}
