// What a real service revealed through `relay-mock proxy --record`: the rental companies, vehicles,
// custodians and payments its answers (and the requests it accepted) showed, with their ids, made into a
// scenario file that `serve --scenario FILE` loads, so that a team can replay its staging world offline.
// Only records are kept: no token, no header, nothing a request carried beyond the record's own fields.
// Here: reading the records off each exchange. Writing them as a scenario file: recorded-scenario.ts.
import { isRecord, isSuccess } from '../exchange/answer.js'
import { jsonOf } from '../service/protocol.js'
import type { ScenarioFile } from '../service/scenario-file.js'
import type { UpstreamObservation } from '../service/upstream.js'
import { toRecordedScenario, type Company, type Seen } from './recorded-scenario.js'

/** The records seen through a proxy, and the scenario file made of them. */
export interface WorldRecording {
  /** Reads the records an upstream answer (and the request it accepted) shows. */
  observe: (observation: UpstreamObservation) => void
  /**
   * The scenario file of what was seen, and what was left out (records a scenario file cannot hold: a
   * kennitala or plate relay-mock would refuse, a payment whose vehicle was not seen).
   */
  toScenarioFile(): { file: ScenarioFile; left: string[] }
  counts(): { companies: number; vehicles: number; custodians: number; payments: number }
}

/** At most this many records of each kind are kept: memory stays bounded whatever the traffic. */
const KEPT = 10_000

type Json = Record<string, unknown>

/**
 * @example
 * const recording = createWorldRecording('https://staging.example')
 * // observe(...) each upstream answer; then:
 * writeFileSync('staging.json', JSON.stringify(recording.toScenarioFile().file, null, 2))
 */
export function createWorldRecording(upstream: string): WorldRecording {
  const seen: Seen = {
    companies: new Map(),
    vehicles: new Map(),
    custodians: new Map(),
    payments: new Map(),
    locations: new Set(),
    unknownOwners: new Set(),
    simplePayments: new Map(),
  }
  return {
    observe: (observation) => observe(seen, observation),
    toScenarioFile: () => toRecordedScenario(seen, upstream),
    counts: () => ({
      companies: seen.companies.size,
      vehicles: seen.vehicles.size,
      custodians: seen.custodians.size,
      payments: seen.payments.size,
    }),
  }
}

function keep<T extends { id: string }>(map: Map<string, T>, record: T): void {
  if (!map.has(record.id) && map.size >= KEPT) return
  map.set(record.id, { ...map.get(record.id), ...record })
}

function observe(seen: Seen, { entry, upstream: result }: UpstreamObservation): void {
  if (
    !result ||
    'trouble' in result ||
    !isSuccess(result.answer.status) ||
    (entry.request.method !== 'GET' && entry.request.method !== 'POST')
  )
    return
  const answer = jsonOf(result.answer)
  const sent = entry.request.body
  const items = Array.isArray(answer) ? (answer as unknown[]) : [answer]
  switch (entry.route) {
    case 'GET /rental-companies':
      if (Array.isArray(answer) && answer.length === 0 && entry.request.query.kennitala)
        seen.unknownOwners.add(entry.request.query.kennitala)
    // falls through: its items are companies
    case 'GET /rental-companies/:id':
      for (const item of items)
        if (isCompany(item)) keep(seen.companies, { id: item.id, name: item.name, kennitala: item.kennitala })
      return
    case 'GET /vehicles':
    case 'GET /vehicles/:id':
      for (const item of items) if (isRecord(item) && typeof item.id === 'string') readVehicle(seen, item.id, item)
      return
    case 'POST /vehicles':
      if (isRecord(answer) && typeof answer.id === 'string' && isRecord(sent)) readVehicle(seen, answer.id, sent)
      return
    case 'GET /custodians/:id':
    case 'POST /custodians':
      readCustodian(
        seen,
        entry.route === 'POST /custodians' && isRecord(answer) && isRecord(sent) ? { ...sent, id: answer.id } : answer,
      )
      return
    case 'GET /payments/:id':
    case 'POST /payments':
      readPayment(
        seen,
        entry.route === 'POST /payments' && isRecord(answer) && isRecord(sent) ? { ...sent, id: answer.id } : answer,
      )
      return
    case 'POST /payment':
      readSimplePayment(seen, answer, sent)
      return
    default:
  }
}

/** A vehicle: its id from the answer, its plate and country from the record (the answer's, or the request's for a create). */
function readVehicle(seen: Seen, id: string, record: Json): void {
  if (typeof record.plate !== 'string') return
  keep(seen.vehicles, {
    id,
    plate: record.plate,
    ...(typeof record.country === 'string' ? { country: record.country } : {}),
  })
}

function readCustodian(seen: Seen, record: unknown): void {
  if (
    !isRecord(record) ||
    typeof record.id !== 'string' ||
    typeof record.vehicleId !== 'string' ||
    typeof record.rentalCompanyId !== 'string' ||
    typeof record.acquiredOn !== 'string'
  )
    return
  keep(seen.custodians, {
    id: record.id,
    vehicleId: record.vehicleId,
    rentalCompanyId: record.rentalCompanyId,
    acquiredOn: record.acquiredOn,
  })
}

function readPayment(seen: Seen, record: unknown): void {
  if (
    !isRecord(record) ||
    typeof record.id !== 'string' ||
    typeof record.vehicleId !== 'string' ||
    !isRecord(record.amount) ||
    typeof record.amount.amount !== 'number' ||
    typeof record.startedOn !== 'string' ||
    typeof record.endedOn !== 'string'
  )
    return
  keep(seen.payments, {
    id: record.id,
    vehicleId: record.vehicleId,
    amount: record.amount.amount,
    startedOn: record.startedOn,
    endedOn: record.endedOn,
    ...(typeof record.status === 'string' ? { status: record.status } : {}),
  })
  if (typeof record.locationId === 'string') seen.locations.add(record.locationId)
}

/** A simple payment the service accepted: its answer names the payment, not the vehicle, which is found by plate. */
function readSimplePayment(seen: Seen, answer: unknown, sent: unknown): void {
  if (isRecord(sent) && typeof sent.location === 'string') seen.locations.add(sent.location)
  if (!isRecord(answer) || typeof answer.id !== 'string' || !isRecord(sent)) return
  const { vehicle, payment, visit } = sent
  if (
    !isRecord(vehicle) ||
    typeof vehicle.plate !== 'string' ||
    !isRecord(payment) ||
    typeof payment.amount !== 'number' ||
    !isRecord(visit) ||
    typeof visit.startedOn !== 'string' ||
    typeof visit.endedOn !== 'string'
  )
    return
  if (!seen.simplePayments.has(answer.id) && seen.simplePayments.size >= KEPT) return
  seen.simplePayments.set(answer.id, {
    id: answer.id,
    plate: vehicle.plate,
    amount: payment.amount,
    startedOn: visit.startedOn,
    endedOn: visit.endedOn,
    ...(typeof answer.status === 'string' ? { status: answer.status } : {}),
  })
}

function isCompany(value: unknown): value is Company {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.name === 'string' &&
    typeof value.kennitala === 'string'
  )
}
