// What a real service revealed through `relay-mock proxy --record`: the rental companies, vehicles,
// custodians and payments its answers (and the requests it accepted) showed, with their ids, made into a
// scenario file that `serve --scenario FILE` loads, so that a team can replay its staging world offline.
// Only records are kept: no token, no header, nothing a request carried beyond the record's own fields.
import { isRecord } from '../exchange/answer.js'
import { parseJsonText } from '../service/protocol.js'
import { parseScenarioFile, type ScenarioFile } from '../service/scenario-file.js'
import { country, date, kennitala, plate, timestamp, uuid, amountValue } from '../service/schemas.js'
import type { UpstreamObservation } from '../service/upstream.js'

interface Company { id: string; name: string; kennitala: string }
interface Vehicle { id: string; plate: string; country?: string }
interface Custodian { id: string; vehicleId: string; rentalCompanyId: string; acquiredOn: string }
interface Payment { id: string; vehicleId: string; amount: number; startedOn: string; endedOn: string; status?: string; locationId?: string }

/** At most this many records of each kind are kept: memory stays bounded whatever the traffic. */
const KEPT = 10_000

/**
 * The records seen through a proxy, and the scenario file made of them.
 * @example
 * const recording = createWorldRecording('https://staging.example')
 * // observe(...) each upstream answer; then:
 * writeFileSync('staging.json', JSON.stringify(recording.toScenarioFile().file, null, 2))
 */
export function createWorldRecording(upstream: string) {
  const companies = new Map<string, Company>()
  const vehicles = new Map<string, Vehicle>()
  const custodians = new Map<string, Custodian>()
  const payments = new Map<string, Payment>()
  const locations = new Set<string>()
  const unknownOwners = new Set<string>()
  /** Simple payments the service accepted: their answer names the payment, not the vehicle, which is found by plate. */
  const simplePayments = new Map<string, Omit<Payment, 'vehicleId'> & { plate: string }>()

  const keep = <T extends { id: string }>(map: Map<string, T>, record: T) => {
    if (!map.has(record.id) && map.size >= KEPT) return
    map.set(record.id, { ...map.get(record.id), ...record })
  }

  function observe({ entry, upstream: result }: UpstreamObservation): void {
    if (!result || 'trouble' in result || result.answer.status < 200 || result.answer.status >= 300 || entry.request.method !== 'GET' && entry.request.method !== 'POST') return
    const read = result.answer.text === '' ? undefined : parseJsonText(result.answer.text)
    const answer = read && 'value' in read ? read.value : undefined
    const sent = entry.request.body
    const items = Array.isArray(answer) ? answer : [answer]
    switch (entry.route) {
      case 'GET /rental-companies':
        if (Array.isArray(answer) && answer.length === 0 && entry.request.query.kennitala) unknownOwners.add(entry.request.query.kennitala)
      // falls through: its items are companies
      case 'GET /rental-companies/:id':
        for (const item of items) if (isCompany(item)) keep(companies, { id: item.id, name: item.name, kennitala: item.kennitala })
        return
      case 'GET /vehicles':
      case 'GET /vehicles/:id':
        for (const item of items) if (isRecord(item) && typeof item.id === 'string' && typeof item.plate === 'string') keep(vehicles, { id: item.id, plate: item.plate, ...(typeof item.country === 'string' ? { country: item.country } : {}) })
        return
      case 'POST /vehicles':
        if (isRecord(answer) && typeof answer.id === 'string' && isRecord(sent) && typeof sent.plate === 'string') keep(vehicles, { id: answer.id, plate: sent.plate, ...(typeof sent.country === 'string' ? { country: sent.country } : {}) })
        return
      case 'GET /custodians/:id':
      case 'POST /custodians': {
        const record = entry.route === 'POST /custodians' && isRecord(answer) && isRecord(sent) ? { ...sent, id: answer.id } : answer
        if (isRecord(record) && typeof record.id === 'string' && typeof record.vehicleId === 'string' && typeof record.rentalCompanyId === 'string' && typeof record.acquiredOn === 'string') {
          keep(custodians, { id: record.id, vehicleId: record.vehicleId, rentalCompanyId: record.rentalCompanyId, acquiredOn: record.acquiredOn })
        }
        return
      }
      case 'GET /payments/:id':
      case 'POST /payments': {
        const record = entry.route === 'POST /payments' && isRecord(answer) && isRecord(sent) ? { ...sent, id: answer.id } : answer
        if (isRecord(record) && typeof record.id === 'string' && typeof record.vehicleId === 'string' && isRecord(record.amount) && typeof record.amount.amount === 'number' && typeof record.startedOn === 'string' && typeof record.endedOn === 'string') {
          keep(payments, {
            id: record.id,
            vehicleId: record.vehicleId,
            amount: record.amount.amount,
            startedOn: record.startedOn,
            endedOn: record.endedOn,
            ...(typeof record.status === 'string' ? { status: record.status } : {}),
          })
          if (typeof record.locationId === 'string') locations.add(record.locationId)
        }
        return
      }
      case 'POST /payment':
        if (isRecord(sent) && typeof sent.location === 'string') locations.add(sent.location)
        if (isRecord(answer) && typeof answer.id === 'string' && isRecord(sent) && isRecord(sent.vehicle) && typeof sent.vehicle.plate === 'string' && isRecord(sent.payment) && typeof sent.payment.amount === 'number' && isRecord(sent.visit) && typeof sent.visit.startedOn === 'string' && typeof sent.visit.endedOn === 'string') {
          if (simplePayments.has(answer.id) || simplePayments.size < KEPT) {
            simplePayments.set(answer.id, { id: answer.id, plate: sent.vehicle.plate, amount: sent.payment.amount, startedOn: sent.visit.startedOn, endedOn: sent.visit.endedOn, ...(typeof answer.status === 'string' ? { status: answer.status } : {}) })
          }
        }
        return
      default:
    }
  }

  /**
   * The scenario file of what was seen, and what was left out (records a scenario file cannot hold: a
   * kennitala or plate relay-mock would refuse, a payment whose vehicle was not seen).
   */
  function toScenarioFile(): { file: ScenarioFile; left: string[] } {
    const left: string[] = []
    const byKennitala = new Map<string, Company>()
    for (const company of companies.values()) {
      if (!uuid.safeParse(company.id).success || !kennitala.safeParse(company.kennitala).success || company.name === '') left.push(`the rental company ${company.id}`)
      else if (!byKennitala.has(company.kennitala)) byKennitala.set(company.kennitala, company)
    }
    const companyById = new Map([...byKennitala.values()].map((c) => [c.id, c]))
    const custodianOf = new Map<string, Custodian>()
    for (const custodian of custodians.values()) custodianOf.set(custodian.vehicleId, custodian)
    const fileVehicles: NonNullable<ScenarioFile['vehicles']> = []
    const plateOf = new Map<string, string>()
    for (const vehicle of vehicles.values()) {
      if (!uuid.safeParse(vehicle.id).success || !plate.safeParse(vehicle.plate).success) {
        left.push(`the vehicle ${vehicle.id}`)
        continue
      }
      const custodian = custodianOf.get(vehicle.id)
      const company = custodian && companyById.get(custodian.rentalCompanyId)
      const acquiredOn = custodian?.acquiredOn.slice(0, 10)
      const held = company && acquiredOn && date.safeParse(acquiredOn).success && uuid.safeParse(custodian.id).success
      fileVehicles.push({
        id: vehicle.id,
        plate: vehicle.plate,
        ...(vehicle.country && country.safeParse(vehicle.country).success ? { country: vehicle.country } : {}),
        ...(held ? { company: company.kennitala, acquiredOn, custodianId: custodian.id } : {}),
      })
      plateOf.set(vehicle.id, vehicle.plate)
    }
    const filePayments: NonNullable<ScenarioFile['payments']> = []
    for (const payment of payments.values()) {
      const paid = plateOf.get(payment.vehicleId)
      if (!paid || !uuid.safeParse(payment.id).success || !amountValue.safeParse(payment.amount).success || !timestamp.safeParse(payment.startedOn).success || !timestamp.safeParse(payment.endedOn).success) {
        left.push(`the payment ${payment.id}`)
        continue
      }
      filePayments.push({ id: payment.id, plate: paid, amount: payment.amount, startedOn: payment.startedOn, endedOn: payment.endedOn, ...(payment.status === 'new' ? { status: 'new' as const } : {}) })
    }
    // A simple payment's vehicle is the one seen with its plate; the service's answer names no vehicle.
    const seenPlates = new Set(plateOf.values())
    for (const payment of simplePayments.values()) {
      if (!seenPlates.has(payment.plate)) {
        left.push(`the simple payment ${payment.id} (no vehicle with the plate ${payment.plate} was seen: the answer names none)`)
        continue
      }
      if (payments.has(payment.id) || !uuid.safeParse(payment.id).success || !amountValue.safeParse(payment.amount).success || !timestamp.safeParse(payment.startedOn).success || !timestamp.safeParse(payment.endedOn).success) {
        if (!payments.has(payment.id)) left.push(`the simple payment ${payment.id}`)
        continue
      }
      filePayments.push({ id: payment.id, plate: payment.plate, amount: payment.amount, startedOn: payment.startedOn, endedOn: payment.endedOn, ...(payment.status === 'new' ? { status: 'new' as const } : {}) })
    }
    const owned = fileVehicles.find((v) => v.company !== undefined)
    const someOwner = [...byKennitala.keys()][0] ?? [...unknownOwners].find((k) => kennitala.safeParse(k).success) ?? FALLBACK_OWNER
    const location = [...locations].find((id) => uuid.safeParse(id).success)
    const host = safeName(upstream)
    const file: ScenarioFile = {
      name: `recorded-${host}`,
      description: `The records ${upstream} revealed through relay-mock proxy: ${byKennitala.size} rental companies, ${fileVehicles.length} vehicles, ${filePayments.length} payments, with their ids`,
      ...(location ? { location: { id: location, name: `The location seen at ${upstream}` } } : {}),
      companies: [...byKennitala.values()].map(({ id, name, kennitala: k }) => ({ id, name, kennitala: k })),
      vehicles: fileVehicles,
      ...(filePayments.length ? { payments: filePayments } : {}),
      visit: owned ? { plate: owned.plate, ownerKennitala: owned.company! } : { plate: fileVehicles[0]?.plate ?? 'AB123', ownerKennitala: someOwner, registrationDate: '2025-01-01' },
    }
    // What is written must load: a record the file's schema refuses is left out rather than written.
    const checked = parseScenarioFile(file)
    if ('errors' in checked) throw new Error(`the recorded world does not make a scenario file: ${checked.errors.map((e) => `${e.field} ${e.problem}`).join('; ')}`)
    return { file, left }
  }

  return { observe, toScenarioFile, counts: () => ({ companies: companies.size, vehicles: vehicles.size, custodians: custodians.size, payments: payments.size }) }
}

export type WorldRecording = ReturnType<typeof createWorldRecording>

/** The visit's owner in a world in which no company was seen: a valid company kennitala, so that the file loads. */
const FALLBACK_OWNER = '6803488209'

function safeName(url: string): string {
  const host = (() => {
    try {
      return new URL(url).host
    } catch {
      return 'upstream'
    }
  })()
  return host.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'upstream'
}

function isCompany(value: unknown): value is Company {
  return isRecord(value) && typeof value.id === 'string' && typeof value.name === 'string' && typeof value.kennitala === 'string'
}
