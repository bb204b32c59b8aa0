// The records a proxy saw (recording.ts reads them) as a scenario file `serve --scenario FILE` loads:
// each record the file's schemas accept, with its id, and a note of each one left out and why.
import { parseScenarioFile, type ScenarioFile } from '../service/scenario-file.js'
import { country, date, kennitala, plate, timestamp, uuid, amountValue } from '../service/schemas.js'

export interface Company {
  id: string
  name: string
  kennitala: string
}
interface Vehicle {
  id: string
  plate: string
  country?: string
}
interface Custodian {
  id: string
  vehicleId: string
  rentalCompanyId: string
  acquiredOn: string
}
interface Payment {
  id: string
  vehicleId: string
  amount: number
  startedOn: string
  endedOn: string
  status?: string
  locationId?: string
}

/** What a proxy has seen so far, each kind of record by id. */
export interface Seen {
  companies: Map<string, Company>
  vehicles: Map<string, Vehicle>
  custodians: Map<string, Custodian>
  payments: Map<string, Payment>
  locations: Set<string>
  /** Kennitalas the service answered an empty list for. */
  unknownOwners: Set<string>
  /** Simple payments the service accepted: their answer names the payment, not the vehicle, which is found by plate. */
  simplePayments: Map<string, Omit<Payment, 'vehicleId'> & { plate: string }>
}

type FileVehicle = NonNullable<ScenarioFile['vehicles']>[number]
type FilePayment = NonNullable<ScenarioFile['payments']>[number]

/** The visit's owner in a world in which no company was seen: a valid company kennitala, so that the file loads. */
const FALLBACK_OWNER = '6803488209'

/** @example toRecordedScenario(seen, 'https://staging.example').file.name // 'recorded-staging.example' */
export function toRecordedScenario(seen: Seen, upstream: string): { file: ScenarioFile; left: string[] } {
  const left: string[] = []
  const byKennitala = companiesByKennitala(seen, left)
  const vehicles = fileVehicles(seen, byKennitala, left)
  const payments = [...filePayments(seen, vehicles, left), ...fileSimplePayments(seen, vehicles, left)]
  const owned = vehicles.find((v) => v.company !== undefined)
  const someOwner =
    [...byKennitala.keys()][0] ?? [...seen.unknownOwners].find((k) => kennitala.safeParse(k).success) ?? FALLBACK_OWNER
  const location = [...seen.locations].find((id) => uuid.safeParse(id).success)
  const file: ScenarioFile = {
    name: `recorded-${safeName(upstream)}`,
    description: `The records ${upstream} revealed through relay-mock proxy: ${byKennitala.size} rental companies, ${vehicles.length} vehicles, ${payments.length} payments, with their ids`,
    ...(location ? { location: { id: location, name: `The location seen at ${upstream}` } } : {}),
    companies: [...byKennitala.values()].map(({ id, name, kennitala: k }) => ({ id, name, kennitala: k })),
    vehicles,
    ...(payments.length ? { payments } : {}),
    visit: owned?.company
      ? { plate: owned.plate, ownerKennitala: owned.company }
      : { plate: vehicles[0]?.plate ?? 'AB123', ownerKennitala: someOwner, registrationDate: '2025-01-01' },
  }
  // What is written must load: a record the file's schema refuses is left out rather than written.
  const checked = parseScenarioFile(file)
  if ('errors' in checked)
    throw new Error(
      `the recorded world does not make a scenario file: ${checked.errors.map((e) => `${e.field} ${e.problem}`).join('; ')}`,
    )
  return { file, left }
}

/** The companies a file can hold, the first seen with each kennitala. */
function companiesByKennitala(seen: Seen, left: string[]): Map<string, Company> {
  const byKennitala = new Map<string, Company>()
  for (const company of seen.companies.values()) {
    if (!uuid.safeParse(company.id).success || !kennitala.safeParse(company.kennitala).success || company.name === '')
      left.push(`the rental company ${company.id}`)
    else if (!byKennitala.has(company.kennitala)) byKennitala.set(company.kennitala, company)
  }
  return byKennitala
}

/** The vehicles a file can hold, each with its custodian's company when that was seen too. */
function fileVehicles(seen: Seen, byKennitala: Map<string, Company>, left: string[]): FileVehicle[] {
  const companyById = new Map([...byKennitala.values()].map((c) => [c.id, c]))
  const custodianOf = new Map<string, Custodian>()
  for (const custodian of seen.custodians.values()) custodianOf.set(custodian.vehicleId, custodian)
  const vehicles: FileVehicle[] = []
  for (const vehicle of seen.vehicles.values()) {
    if (!uuid.safeParse(vehicle.id).success || !plate.safeParse(vehicle.plate).success) {
      left.push(`the vehicle ${vehicle.id}`)
      continue
    }
    const custodian = custodianOf.get(vehicle.id)
    const company = custodian && companyById.get(custodian.rentalCompanyId)
    const acquiredOn = custodian?.acquiredOn.slice(0, 10)
    const held = company && acquiredOn && date.safeParse(acquiredOn).success && uuid.safeParse(custodian.id).success
    vehicles.push({
      id: vehicle.id,
      plate: vehicle.plate,
      ...(vehicle.country && country.safeParse(vehicle.country).success ? { country: vehicle.country } : {}),
      ...(held ? { company: company.kennitala, acquiredOn, custodianId: custodian.id } : {}),
    })
  }
  return vehicles
}

/** The payments a file can hold: each names its vehicle's plate, so its vehicle must be in the file. */
function filePayments(seen: Seen, vehicles: FileVehicle[], left: string[]): FilePayment[] {
  const plateOf = new Map(vehicles.map((v) => [v.id, v.plate]))
  const payments: FilePayment[] = []
  for (const payment of seen.payments.values()) {
    const paid = plateOf.get(payment.vehicleId)
    if (!paid || !uuid.safeParse(payment.id).success || !validPayment(payment)) {
      left.push(`the payment ${payment.id}`)
      continue
    }
    payments.push({
      id: payment.id,
      plate: paid,
      amount: payment.amount,
      startedOn: payment.startedOn,
      endedOn: payment.endedOn,
      ...(payment.status === 'new' ? { status: 'new' as const } : {}),
    })
  }
  return payments
}

/** The simple payments a file can hold: a simple payment's vehicle is the one seen with its plate; the service's answer names no vehicle. */
function fileSimplePayments(seen: Seen, vehicles: FileVehicle[], left: string[]): FilePayment[] {
  const seenPlates = new Set(vehicles.map((v) => v.plate))
  const payments: FilePayment[] = []
  for (const payment of seen.simplePayments.values()) {
    if (!seenPlates.has(payment.plate)) {
      left.push(
        `the simple payment ${payment.id} (no vehicle with the plate ${payment.plate} was seen: the answer names none)`,
      )
      continue
    }
    if (seen.payments.has(payment.id) || !uuid.safeParse(payment.id).success || !validPayment(payment)) {
      if (!seen.payments.has(payment.id)) left.push(`the simple payment ${payment.id}`)
      continue
    }
    payments.push({
      id: payment.id,
      plate: payment.plate,
      amount: payment.amount,
      startedOn: payment.startedOn,
      endedOn: payment.endedOn,
      ...(payment.status === 'new' ? { status: 'new' as const } : {}),
    })
  }
  return payments
}

function validPayment(payment: { amount: number; startedOn: string; endedOn: string }): boolean {
  return (
    amountValue.safeParse(payment.amount).success &&
    timestamp.safeParse(payment.startedOn).success &&
    timestamp.safeParse(payment.endedOn).success
  )
}

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
