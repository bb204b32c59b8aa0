// The client contract: the visit a client gets and the RELAY_* variables it reads, for a command or a function.
import { REQUEST_TIMEOUT_MS } from '../../core/defaults.js'
import type { CaseVisit, Flow } from '../../core/rules/types.js'

/** The visit as a client receives it: the case's visit, its location and the flow to run. */
export type ClientVisit = CaseVisit & { flow: Flow }

/** The variables of the client contract, by name. */
export interface RelayEnv {
  RELAY_BASE_URL: string
  RELAY_API_TOKEN: string
  RELAY_LOCATION_ID: string
  RELAY_FLOW: Flow
  RELAY_PLATE: string
  RELAY_OWNER_KENNITALA: string
  RELAY_REGISTRATION_DATE: string
  RELAY_VISIT_START: string
  RELAY_VISIT_END: string
  RELAY_AMOUNT: string
  RELAY_CURRENCY: string
  RELAY_VISIT: string
  RELAY_RESULT_FILE: string
  /** How long the client waits for one answer before it gives up on the request, in ms. */
  RELAY_REQUEST_TIMEOUT_MS: string
}

/**
 * A client that runs in-process: it gets the visit and the same variables a command gets, calls the
 * mock over HTTP, and may return its report (what a command writes to RELAY_RESULT_FILE). Throwing
 * counts as exiting 1.
 */
export type ClientFunction = (visit: ClientVisit, env: RelayEnv, context: { signal: AbortSignal }) => unknown

/** The client contract's variables for one case. */
export function toRelayEnv(
  visit: ClientVisit,
  baseUrl: string,
  token: string,
  resultFile: string,
  requestTimeoutMs: number = REQUEST_TIMEOUT_MS,
): RelayEnv {
  return {
    RELAY_BASE_URL: baseUrl.replace(/\/+$/, ''),
    RELAY_API_TOKEN: token,
    RELAY_LOCATION_ID: visit.locationId,
    RELAY_FLOW: visit.flow,
    RELAY_PLATE: visit.plate,
    RELAY_OWNER_KENNITALA: visit.ownerKennitala,
    RELAY_REGISTRATION_DATE: visit.registrationDate,
    RELAY_VISIT_START: visit.visitStart,
    RELAY_VISIT_END: visit.visitEnd,
    RELAY_AMOUNT: String(visit.amount),
    RELAY_CURRENCY: visit.currency,
    RELAY_VISIT: JSON.stringify(visit),
    RELAY_RESULT_FILE: resultFile,
    RELAY_REQUEST_TIMEOUT_MS: String(Math.round(requestTimeoutMs)),
  }
}
