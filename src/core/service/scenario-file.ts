// A scenario written as data (a JSON file): rental companies, vehicles and the visit, declared rather
// than seeded by code. Its schema reuses the service's field schemas, so a plate or a kennitala is
// judged by the same rule in a request and in a file. Reading the file is the Node side's.
import { z } from 'zod'
import { isValidKennitala } from '../kennitala.js'
import { toValidationProblem } from './problems.js'
import { FAULT_KINDS, FAULT_STEPS, toArmedFault, type FaultKind } from './faults.js'
import { defineScenario, SIMPLE_PAYMENT_BEHAVIOURS, type Scenario, type Visit } from './scenario.js'
import {
  amountValue,
  country,
  date,
  kennitala,
  paymentStatus,
  plate,
  timestamp,
  uuid,
  type FieldError,
} from './schemas.js'
import { normalizePlate } from './schemas.js'

const faultRoutes: string[] = [...Object.values(FAULT_STEPS), ...Object.keys(FAULT_STEPS)]
const faultKinds = Object.keys(FAULT_KINDS) as [FaultKind, ...FaultKind[]]

/** A fault as `serve --fault` and the admin API take it, checked field by field (toScenario types it with toArmedFault). */
const faultEntry = z
  .object({
    route: z
      .string()
      .refine((route) => faultRoutes.includes(route), { error: 'is not a request a fault can break' })
      .meta({ description: `one of ${faultRoutes.join(', ')}` }),
    kind: z
      .enum(faultKinds, { error: 'is not a kind of fault' })
      .meta({ description: `one of ${faultKinds.join(', ')}` }),
    mode: z
      .enum(['once', 'always'], { error: 'is not a fault mode' })
      .optional()
      .meta({ description: 'once (the first matching request) or always (default)' }),
  })
  .strict()

const companyEntry = z
  .object({
    name: z
      .string()
      .min(1, { error: 'is empty' })
      .meta({ description: "the company's name, e.g. Glansi Bílaleiga ehf." }),
    kennitala,
    id: uuid.optional().meta({
      description:
        "the company's id (default: one made from the world's seed); relay-mock proxy --record keeps the real service's",
    }),
  })
  .strict()

const vehicleEntry = z
  .object({
    plate,
    country: country.optional(),
    company: kennitala.optional().meta({
      description:
        "the kennitala of one of the file's companies: the vehicle's custodian (leave it out for a vehicle no company holds)",
    }),
    acquiredOn: date
      .optional()
      .meta({ description: 'the date the company took the vehicle, YYYY-MM-DD (needed with company)' }),
    active: z
      .boolean()
      .optional()
      .meta({ description: 'true or false (default true): GET /vehicles lists only active vehicles' }),
    id: uuid.optional().meta({ description: "the vehicle's id (default: one made from the world's seed)" }),
    custodianId: uuid.optional().meta({
      description: "the id of the custodian record linking it to its company (default: one made from the world's seed)",
    }),
  })
  .strict()

/** A payment already recorded in the world, for one of the file's vehicles (what relay-mock proxy --record saw). */
const paymentEntry = z
  .object({
    id: uuid.optional().meta({ description: "the payment's id (default: one made from the world's seed)" }),
    plate: plate.meta({ description: "the plate of one of the file's vehicles: the payment's vehicle" }),
    amount: amountValue,
    startedOn: timestamp,
    endedOn: timestamp,
    status: paymentStatus.optional(),
  })
  .strict()

const visitEntry = z
  .object({
    plate,
    ownerKennitala: kennitala,
    registrationDate: date.optional().meta({
      description:
        "the date the owner acquired the vehicle, YYYY-MM-DD (it may be left out when the plate is one of the owner's vehicles in the file)",
    }),
    visitStart: timestamp.optional(),
    visitEnd: timestamp.optional(),
    amount: amountValue.optional(),
  })
  .strict()

/**
 * The JSON form of a scenario. Its companies and vehicles join the generated base world (a plate or a
 * kennitala of the file replaces a generated one that has it); the visit is what a client gets.
 */
export const scenarioFile = z
  .object({
    $schema: z.string().optional(),
    name: z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*$/, { error: 'is not a name of letters, digits, ".", "_" and "-"' })
      .meta({ description: 'a name of letters, digits, ".", "_" and "-", e.g. glansi-fleet' }),
    description: z.string().min(1, { error: 'is empty' }).meta({ description: 'one line: the state of the world' }),
    simplePayment: z
      .enum(SIMPLE_PAYMENT_BEHAVIOURS, { error: 'is not a behaviour of the simple endpoint' })
      .optional()
      .meta({ description: `how POST /payment answers: ${SIMPLE_PAYMENT_BEHAVIOURS.join(', ')} (default accept)` }),
    faults: z.array(faultEntry).optional().meta({ description: 'a list of { route, kind, mode? }' }),
    location: z
      .object({ id: uuid, name: z.string().min(1, { error: 'is empty' }) })
      .strict()
      .optional()
      .meta({
        description:
          "the location of the world's token: { id, name } (default: a generated one); its id is the locationId payments send",
      }),
    companies: z.array(companyEntry).optional().meta({ description: 'a list of { name, kennitala, id? }' }),
    vehicles: z
      .array(vehicleEntry)
      .optional()
      .meta({ description: 'a list of { plate, country?, company?, acquiredOn?, active? }' }),
    payments: z.array(paymentEntry).optional().meta({
      description: 'a list of { plate, amount, startedOn, endedOn, status?, id? }: payments already in the world',
    }),
    visit: visitEntry.meta({
      description: 'the visit: { plate, ownerKennitala, registrationDate?, visitStart?, visitEnd?, amount? }',
    }),
  })
  .strict()
  .superRefine((file, ctx) => {
    const companies = file.companies ?? []
    const vehicles = file.vehicles ?? []
    companies.forEach((company, i) => {
      const first = companies.findIndex((c) => c.kennitala === company.kennitala)
      if (first !== i)
        ctx.addIssue({
          code: 'custom',
          path: ['companies', i, 'kennitala'],
          input: company.kennitala,
          message: `is also the kennitala of companies[${first}]`,
        })
    })
    vehicles.forEach((vehicle, i) => {
      if (vehicle.company === undefined) return
      if (isValidKennitala(vehicle.company) && !companies.some((c) => c.kennitala === vehicle.company)) {
        ctx.addIssue({
          code: 'custom',
          path: ['vehicles', i, 'company'],
          input: vehicle.company,
          message: 'is not the kennitala of any of the companies',
        })
      }
      if (vehicle.acquiredOn === undefined)
        ctx.addIssue({ code: 'custom', path: ['vehicles', i, 'acquiredOn'], input: undefined, message: 'is missing' })
    })
    file.payments?.forEach((payment, i) => {
      if (!vehicles.some((v) => normalizePlate(v.plate) === normalizePlate(payment.plate))) {
        ctx.addIssue({
          code: 'custom',
          path: ['payments', i, 'plate'],
          input: payment.plate,
          message: 'is not the plate of any of the vehicles',
        })
      }
    })
    if (file.visit.registrationDate === undefined && ownersVehicle(file) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['visit', 'registrationDate'], input: undefined, message: 'is missing' })
    }
  })

export type ScenarioFile = z.infer<typeof scenarioFile>

/** The first of the file's vehicles with the visit's plate held by the visit's owner. */
function ownersVehicle(file: ScenarioFile) {
  const wanted = normalizePlate(file.visit.plate)
  return file.vehicles?.find(
    (v) => normalizePlate(v.plate) === wanted && v.company === file.visit.ownerKennitala && v.acquiredOn !== undefined,
  )
}

/**
 * A scenario file's content as a Scenario, or the field errors that keep it from being one.
 * @example parseScenarioFile(JSON.parse(text)) // { scenario } or { errors: [{ field: 'visit.plate', problem: 'is missing', ... }] }
 */
export function parseScenarioFile(input: unknown): { scenario: Scenario } | { errors: FieldError[] } {
  const parsed = scenarioFile.safeParse(input)
  if (!parsed.success) return { errors: toFieldErrors(scenarioFile, parsed.error.issues, input) }
  return { scenario: toScenario(parsed.data) }
}

/**
 * A scenario declared as data, as a Scenario: its seed adds the file's companies, vehicles and their
 * custodians to the base world (ids from the world's seeded random source) and returns its visit.
 * @example toScenario({ name: 'mine', description: '...', visit: { plate: 'AB123', ownerKennitala: '5901694399', registrationDate: '2024-03-01' } })
 */
export function toScenario(file: ScenarioFile): Scenario {
  const companies = file.companies ?? []
  const vehicles = file.vehicles ?? []
  return defineScenario({
    name: file.name,
    description: file.description,
    ...(file.simplePayment ? { simplePayment: file.simplePayment } : {}),
    ...(file.faults?.length ? { faults: file.faults.map((fault) => toArmedFault(fault)) } : {}),
    seed({ data, random, visitDefaults }): Visit {
      // The file's plates and kennitölur are its own: a generated record that happens to share one goes.
      const plates = new Set(vehicles.map((v) => normalizePlate(v.plate)))
      const kennitolur = new Set(companies.map((c) => c.kennitala))
      const goneVehicles = new Set(data.vehicles.filter((v) => plates.has(normalizePlate(v.plate))).map((v) => v.id))
      const goneCompanies = new Set(data.rentalCompanies.filter((c) => kennitolur.has(c.kennitala)).map((c) => c.id))
      data.vehicles = data.vehicles.filter((v) => !goneVehicles.has(v.id))
      data.rentalCompanies = data.rentalCompanies.filter((c) => !goneCompanies.has(c.id))
      data.custodians = data.custodians.filter(
        (c) => !goneVehicles.has(c.vehicleId) && !goneCompanies.has(c.rentalCompanyId),
      )

      // The file's companies come first: they are the ones a person looks for in `serve`'s list.
      const companyIds = new Map<string, string>()
      if (file.location) data.locations.unshift({ ...file.location })
      const own = companies.map((company) => {
        const id = company.id ?? random.uuid()
        companyIds.set(company.kennitala, id)
        return { id, name: company.name, kennitala: company.kennitala }
      })
      data.rentalCompanies.unshift(...own)
      for (const entry of vehicles) {
        const vehicle = {
          id: entry.id ?? random.uuid(),
          plate: entry.plate,
          country: entry.country ?? 'is',
          active: entry.active ?? true,
        }
        data.vehicles.push(vehicle)
        if (entry.company !== undefined) {
          data.custodians.push({
            id: entry.custodianId ?? random.uuid(),
            vehicleId: vehicle.id,
            rentalCompanyId: companyIds.get(entry.company)!,
            acquiredOn: `${entry.acquiredOn} 00:00:00`,
          })
        }
      }
      for (const payment of file.payments ?? []) {
        const vehicle = data.vehicles.find((v) => normalizePlate(v.plate) === normalizePlate(payment.plate))!
        data.payments.push({
          id: payment.id ?? random.uuid(),
          locationId: data.locations[0].id,
          vehicleId: vehicle.id,
          amount: { amount: payment.amount, currency: 'ISK' },
          startedOn: payment.startedOn,
          endedOn: payment.endedOn,
          status: payment.status ?? 'new',
          via: 'advanced',
        })
      }
      const { visit } = file
      return {
        plate: visit.plate,
        ownerKennitala: visit.ownerKennitala,
        registrationDate: visit.registrationDate ?? ownersVehicle(file)!.acquiredOn!,
        visitStart: visit.visitStart ?? visitDefaults.visitStart,
        visitEnd: visit.visitEnd ?? visitDefaults.visitEnd,
        amount: visit.amount ?? visitDefaults.amount,
        currency: 'ISK',
      }
    },
  })
}

/**
 * The field errors of a file that failed its schema, with paths as a person writes them (`vehicles[1].plate`).
 * @example toFieldErrors(scenarioFile, result.error.issues, input)[0].field // 'vehicles[1].plate'
 */
export function toFieldErrors(schema: z.ZodType, issues: readonly z.core.$ZodIssue[], input: unknown): FieldError[] {
  const { errors = [] } = toValidationProblem(schema, issues, input).body as { errors?: FieldError[] }
  return errors.map((error) => ({
    ...error,
    field: error.field.replace(/\.(\d+)(?=\.|$)/g, '[$1]'),
    // The wording is the service's, made for requests.
    problem: error.problem.replace('is not a field of this request', 'is not a known field'),
  }))
}

/**
 * Field errors as one sentence: each field, what is wrong, what was expected and what was found.
 * @example describeFieldErrors(errors) // 'visit.plate is missing (expected a licence plate of 2 to 8 letters and digits, e.g. AB123 or ABC12)'
 */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  return errors
    .map(
      (e) =>
        `${e.field} ${e.problem} (expected ${e.expected}${'received' in e && e.received !== undefined ? `; found ${JSON.stringify(e.received)}` : ''})`,
    )
    .join('; ')
}
