// The one source of truth for every field of the relay service: these schemas validate
// requests, type the code, back the @msw/data store and generate the OpenAPI documents.
import { z } from 'zod'
import { isValidKennitala } from '../kennitala.js'

/** What a field expects, in words a person reads in an error message and in the OpenAPI docs. */
function expecting<T extends z.ZodType>(schema: T, expected: string, example?: unknown): T {
  return schema.meta({ description: expected, ...(example === undefined ? {} : { example }) })
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isCalendarDate(year: number, month: number, day: number): boolean {
  // There is no year 0. The proleptic Gregorian calendar, as Date counts it.
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])
}

/**
 * True when `value` is `YYYY-MM-DD HH:MM:SS` naming a real moment (no 2025-02-30, no 24:00:00). Read
 * digit by digit, as TIMESTAMP reads it (the OpenAPI pattern), without a match and its six strings:
 * every payment has two.
 */
export function isTimestamp(value: string): boolean {
  if (
    value.length !== 19 ||
    value.charCodeAt(4) !== DASH ||
    value.charCodeAt(7) !== DASH ||
    value.charCodeAt(10) !== SPACE
  )
    return false
  if (value.charCodeAt(13) !== COLON || value.charCodeAt(16) !== COLON) return false
  const year = digitsAt(value, 0, 4)
  const month = digitsAt(value, 5, 2)
  const day = digitsAt(value, 8, 2)
  const hour = digitsAt(value, 11, 2)
  const minute = digitsAt(value, 14, 2)
  const second = digitsAt(value, 17, 2)
  return (
    hour >= 0 &&
    hour < 24 &&
    minute >= 0 &&
    minute < 60 &&
    second >= 0 &&
    second < 60 &&
    isCalendarDate(year, month, day)
  )
}

const DASH = 45
const SPACE = 32
const COLON = 58

/** The number `count` ASCII digits from `from` spell, or -1 when one of them is not a digit. */
function digitsAt(value: string, from: number, count: number): number {
  let n = 0
  for (let i = from; i < from + count; i++) {
    const digit = value.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    n = n * 10 + digit
  }
  return n
}

/** True when `value` is `YYYY-MM-DD` naming a real day. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value)
  if (!m) return false
  return isCalendarDate(+m[1], +m[2], +m[3])
}

/** A UUID's form. Both cases spelled out rather than an `i` flag: the flag does not reach the OpenAPI pattern. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export const uuid = expecting(
  z.string().regex(UUID_PATTERN, {
    error: 'is not a UUID',
  }),
  'a UUID string, e.g. 3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
)

export const kennitala = expecting(
  z
    .string()
    .regex(/^\d{10}$/, { error: 'is not 10 digits', abort: true })
    .refine(isValidKennitala, { error: 'has a wrong check digit (9th digit)' }),
  'a kennitala: 10 digits, no hyphen, with a valid check digit, e.g. 5901694399',
  '5901694399',
)

export const plate = expecting(
  z
    .string()
    .min(2, { error: 'is too short' })
    .max(8, { error: 'is too long' })
    .regex(/^[A-Za-zÁÐÉÍÓÚÝÞÆÖáðéíóúýþæö0-9 -]+$/, { error: 'has characters a plate cannot have' })
    .refine((value) => /[A-Za-zÁÐÉÍÓÚÝÞÆÖáðéíóúýþæö0-9]/.test(value), { error: 'is blank: only spaces or hyphens' }),
  'a licence plate of 2 to 8 letters and digits, e.g. AB123 or ABC12',
  'AB123',
)

export const country = expecting(
  z.string().regex(/^[a-z]{2}$/, { error: 'is not a lower-case two-letter country code' }),
  'a lower-case two-letter country code; the service uses "is"',
  'is',
)

// Each date and time schema checks its form with a regex first (so that the OpenAPI documents carry
// the pattern; a refine does not reach them) and then that the calendar value is real.
const NOT_TIMESTAMP = 'is not a real timestamp in the form YYYY-MM-DD HH:MM:SS'
export const timestamp = expecting(
  z.string().regex(TIMESTAMP, { error: NOT_TIMESTAMP, abort: true }).refine(isTimestamp, { error: NOT_TIMESTAMP }),
  'a timestamp YYYY-MM-DD HH:MM:SS (a real calendar value), e.g. 2026-11-21 14:05:00',
  '2026-11-21 14:05:00',
)

const NOT_DATE = 'is not a real date in the form YYYY-MM-DD'
export const date = expecting(
  z.string().regex(DATE, { error: NOT_DATE, abort: true }).refine(isDate, { error: NOT_DATE }),
  'a date YYYY-MM-DD (a real calendar day), e.g. 2024-03-01',
  '2024-03-01',
)

/** The custodian's `acquiredOn`: the interface's advanced example sends a timestamp; a bare date is accepted too. */
const NOT_ACQUIRED_ON = 'is neither YYYY-MM-DD HH:MM:SS nor YYYY-MM-DD'
export const acquiredOnAdvanced = expecting(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2})?$/, { error: NOT_ACQUIRED_ON, abort: true })
    .refine((v) => isTimestamp(v) || isDate(v), { error: NOT_ACQUIRED_ON }),
  'the registration date as YYYY-MM-DD HH:MM:SS (as the interface example sends it) or YYYY-MM-DD',
  '2024-03-01 00:00:00',
)

export const amountValue = expecting(
  z
    .number({ error: 'is not a number' })
    .int({ error: 'is not an integer' })
    .positive({ error: 'is not positive' })
    .max(1_000_000_000, { error: 'is implausibly large' }),
  'a positive integer amount (a JSON number, not a string), e.g. 2500',
  2500,
)

export const currency = expecting(
  z.literal('ISK', { error: 'is not a supported currency' }),
  'the currency "ISK", the only one the service supports',
  'ISK',
)

export const money = z
  .object({ amount: amountValue, currency })
  .strict()
  .meta({ description: 'a money object { amount, currency }' })

export const paymentStatus = expecting(
  z.literal('new', { error: 'is not a status a client may send' }),
  'the status "new" (optional)',
  'new',
)

export const link = (resource: string) =>
  expecting(z.string(), `the record's path, /${resource}/<id>`, `/${resource}/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f`)

// --- Records (what the service answers) ---

export const rentalCompany = z
  .object({ id: uuid, name: z.string(), kennitala })
  .meta({ title: 'RentalCompany', description: 'A rental company registered with the service' })
export type RentalCompany = z.infer<typeof rentalCompany>

export const vehicle = z
  .object({ id: uuid, plate: z.string(), country })
  .meta({ title: 'Vehicle', description: 'An active vehicle' })
export type Vehicle = z.infer<typeof vehicle>

export const created = (resource: string) =>
  z.object({ id: uuid, link: link(resource) }).meta({ description: `The created record's id and link` })

// --- Request bodies ---

export const createVehicleBody = z
  .object({ plate, country })
  .strict()
  .meta({ title: 'CreateVehicle', description: 'POST /vehicles body' })
export type CreateVehicleBody = z.infer<typeof createVehicleBody>

export const createCustodianBody = z
  .object({ vehicleId: uuid, rentalCompanyId: uuid, acquiredOn: acquiredOnAdvanced })
  .strict()
  .meta({ title: 'CreateCustodian', description: 'POST /custodians body' })
export type CreateCustodianBody = z.infer<typeof createCustodianBody>

export const createPaymentBody = z
  .object({
    locationId: uuid,
    vehicleId: uuid,
    amount: money,
    startedOn: timestamp,
    endedOn: timestamp,
    status: paymentStatus.optional(),
  })
  .strict()
  .meta({ title: 'CreatePayment', description: 'POST /payments body' })
export type CreatePaymentBody = z.infer<typeof createPaymentBody>

export const simplePaymentBody = z
  .object({
    location: uuid,
    vehicle: z.object({ owner: kennitala, plate, acquiredOn: date }).strict(),
    visit: z.object({ startedOn: timestamp, endedOn: timestamp }).strict(),
    payment: z.object({ amount: amountValue, currency }).strict(),
  })
  .strict()
  .meta({ title: 'SimplePayment', description: 'POST /payment body: the whole visit in one request' })
export type SimplePaymentBody = z.infer<typeof simplePaymentBody>

export const fieldError = z.object({
  field: z.string().meta({ description: 'where: a body path such as amount.amount, or query.plate' }),
  problem: z.string().meta({ description: 'what was wrong' }),
  expected: z.string().meta({ description: 'what the service expects there' }),
  received: z.unknown().optional(),
})
export const problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    message: z.string(),
    errors: z.array(fieldError).optional(),
  })
  .meta({ title: 'Problem', description: 'An error answer (RFC 9457 problem details with a message)' })
export type FieldError = z.infer<typeof fieldError>
export type Problem = z.infer<typeof problem>

/** What the `garbage` fault sends in place of an answer (text/html): see faults.ts. */
export const proxyPage = z
  .string()
  .meta({ description: "A proxy's HTML error page (nginx's 502 Bad Gateway), not JSON" })

export const simplePaymentAnswer = z
  .object({
    id: uuid.optional().meta({ description: 'present only when the payment was recorded' }),
    status: z.string().optional().meta({ description: '"new" when recorded, "refused" otherwise' }),
    message: z.string().meta({ description: 'what the service did, or why it refused' }),
    errors: z
      .array(fieldError)
      .optional()
      .meta({ description: 'when the data was invalid: each field at fault, with what was expected' }),
  })
  .meta({ title: 'SimplePaymentAnswer', description: 'Key on `id`: present means accepted, absent means refused' })
export type SimplePaymentAnswer = z.infer<typeof simplePaymentAnswer>

// --- Store records (the service's own state; fields beyond the API's are internal) ---

export const vehicleRecord = vehicle.extend({ active: z.boolean() })
export type VehicleRecord = z.infer<typeof vehicleRecord>
export const custodianRecord = z.object({ id: uuid, vehicleId: uuid, rentalCompanyId: uuid, acquiredOn: z.string() })
export type CustodianRecord = z.infer<typeof custodianRecord>
export const paymentRecord = z.object({
  id: uuid,
  locationId: uuid,
  vehicleId: uuid,
  amount: z.object({ amount: z.number(), currency: z.string() }),
  startedOn: z.string(),
  endedOn: z.string(),
  status: z.string(),
  via: z.enum(['advanced', 'simple']),
})
export type PaymentRecord = z.infer<typeof paymentRecord>
export const locationRecord = z.object({ id: uuid, name: z.string() })
export type LocationRecord = z.infer<typeof locationRecord>

/** Walks a schema along a path (as zod reports it) and returns what that field expects. */
export function expectedAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string | undefined {
  let current: z.ZodType | undefined = schema
  let found = describe(current)
  for (const key of path) {
    current = unwrap(current)
    // A list's item (a file's `vehicles[1]`) is described by the list's element.
    if (current instanceof z.ZodArray && typeof key === 'number') {
      current = current.element as z.ZodType
      found = describe(current) ?? found
      continue
    }
    if (!current || !(current instanceof z.ZodObject)) return found
    current = (current.shape as Record<string, z.ZodType>)[String(key)]
    if (!current) return undefined
    found = describe(current) ?? found
  }
  return describe(current) ?? found
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType
  return s
}

function describe(schema: z.ZodType | undefined): string | undefined {
  const s = unwrap(schema)
  return (schema && z.globalRegistry.get(schema)?.description) ?? (s && z.globalRegistry.get(s)?.description)
}

/** Plates are matched without regard to case, spaces or hyphens: `ab-123` finds `AB123`. */
export function normalizePlate(plate: string): string {
  return plate.toUpperCase().replace(/[\s-]/g, '')
}

/**
 * The vehicles a lookup by `asked` found (relay-mock's matching: case, spaces and hyphens ignored), kept
 * only where the plate is the same character for character under `plate.format=exact-match`.
 */
export function exactPlates<V extends { plate: string }>(
  found: V[],
  asked: string,
  variants: Readonly<Record<string, string>> | undefined,
): V[] {
  return variants?.['plate.format'] === 'exact-match' ? found.filter((vehicle) => vehicle.plate === asked) : found
}
