// The fast path compiled from each route's zod schemas never decides other than zod: what it vouches
// for, zod accepts, as the same value with its keys in the same order; and the valid requests of the
// flows take it (else the speed it is for would be lost without a test noticing).
import fc from 'fast-check'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { SERVICE_TABLE } from '../../src/core/service/protocol.js'
import { custodianRecord, locationRecord, rentalCompany, vehicleRecord } from '../../src/core/service/schemas.js'
import { fastPath, UNSURE, validate } from '../../src/core/service/validate.js'
import { custodianBody, paymentBody, simpleBody, vehicleBody } from '../support/bodies.js'

/** The schemas a seed's records are checked by when a world loads (a start loads its cached world's), by kind. */
const RECORD_SCHEMAS = {
  locations: locationRecord,
  rentalCompanies: rentalCompany,
  vehicles: vehicleRecord,
  custodians: custodianRecord,
} as const

const schemas = [
  ...SERVICE_TABLE.flatMap(({ route }) => [
    ...(route.query ? [{ name: `${route.id} query`, schema: route.query }] : []),
    ...(route.body ? [{ name: `${route.id} body`, schema: route.body }] : []),
  ]),
  ...Object.entries(RECORD_SCHEMAS).map(([kind, schema]) => ({
    name: `the seed's ${kind} records`,
    schema: schema as z.ZodType,
  })),
]

/** Strings near the edges of the service's fields: each is tried in every string field. */
const EDGES = [
  '',
  ' ',
  'is',
  'IS',
  'isl',
  'ISK',
  'isk',
  'new',
  'NEW',
  'AB123',
  'ab-123',
  'A',
  'AB',
  'ABCDEFGH',
  'ABCDEFGHI',
  '--',
  '  ',
  'ÞÆÖ12',
  'AB_12',
  'AB 12',
  '5901694399',
  '5901694398',
  '590169439',
  '59016943999',
  '590169-4399',
  '2026-11-21 14:05:00',
  '2024-02-29 00:00:00',
  '2025-02-29 00:00:00',
  '2026-11-21 24:00:00',
  '2026-11-21 23:59:60',
  '0000-01-01 00:00:00',
  '2026-11-21T14:05:00',
  '2024-03-01',
  '2024-02-30',
  '2024-13-01',
  '2024-03-01 00:00:00',
  '2024-3-1',
  '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  '3F2B8C1E-5D4A-4E6B-9C7D-1A2B3C4D5E6F',
  '3f2b8c1e5d4a4e6b9c7d1a2b3c4d5e6f',
  '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6g',
]
const NUMBERS = [0, -1, 1, 1.5, 2500, 1e9, 1e9 + 1, 2 ** 53, -0, Number.MAX_VALUE]

const junk = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, ...NUMBERS, ...EDGES.map((s) => [s])),
  fc.string(),
  fc.anything(),
)

/** One time in five a value, else undefined. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary, weight: 1 })

/** Values for a schema: mostly ones near its edges (its example, the edge strings and numbers), some anything. */
function values(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = (
    schema as unknown as {
      _zod: { def: { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; values?: unknown[] } }
    }
  )._zod.def
  if (def.type === 'optional') return fc.oneof(fc.constant(undefined), values(def.innerType!))
  if (def.type === 'object') {
    const keys = Object.keys(def.shape!)
    const fields = Object.fromEntries(keys.map((key) => [key, values(def.shape![key])]))
    return fc
      .tuple(
        fc.record(fields),
        sometimes(fc.constantFrom(...keys)),
        sometimes(
          fc.dictionary(fc.constantFrom('extra', 'Plate', '__proto__', keys[0]), junk, { minKeys: 1, maxKeys: 2 }),
        ),
        fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length }),
      )
      .map(([record, dropped, extra, order]) => {
        // The keys in any order, now and then one left out, or one of no field's added.
        const out: Record<string, unknown> = {}
        for (const key of order)
          if (key !== dropped && (record as Record<string, unknown>)[key] !== undefined)
            out[key] = (record as Record<string, unknown>)[key]
        if (extra)
          for (const [key, value] of Object.entries(extra))
            Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true })
        return out
      })
  }
  const example = z.globalRegistry.get(schema)?.example
  const near = fc.constantFrom<unknown>(...EDGES, ...NUMBERS)
  const examples = [...(example === undefined ? [] : [example]), ...(def.values ?? [])]
  // A field with no example (a record's name, a boolean) is tried with the edge values and anything.
  if (examples.length === 0)
    return fc.oneof(
      { arbitrary: near, weight: 6 },
      { arbitrary: fc.boolean(), weight: 2 },
      { arbitrary: junk, weight: 1 },
    )
  return fc.oneof(
    { arbitrary: fc.constantFrom<unknown>(...examples), weight: 30 },
    { arbitrary: near, weight: 6 },
    { arbitrary: junk, weight: 1 },
  )
}

describe('the fast path of the route schemas', () => {
  it.each(schemas)('$name: is compiled', ({ schema }) => {
    expect(fastPath(schema)).toBeTypeOf('function')
  })

  it.each(schemas)('$name: vouches only for what zod accepts, as the value zod answers', ({ schema }) => {
    const fast = fastPath(schema)!
    let vouched = 0
    fc.assert(
      fc.property(values(schema), (value) => {
        const mine = fast(value)
        const zods = schema.safeParse(value)
        if (mine === UNSURE) return
        vouched++
        expect(zods.success).toBe(true)
        expect(JSON.stringify(mine)).toBe(JSON.stringify(zods.data))
        expect(mine).toStrictEqual(zods.data)
        expect(validate(schema, value)).toStrictEqual(zods)
      }),
      { numRuns: 3000 },
    )
    // The generated values reach the fast path, or this test would check nothing.
    expect(vouched).toBeGreaterThan(30)
  })

  it('answers zod’s own result, issues and all, for what it does not vouch for', () => {
    const body = { plate: 'AB123', country: 'IS', extra: 1 }
    const schema = SERVICE_TABLE.find(({ route }) => route.id === 'POST /vehicles')!.route.body as z.ZodType
    expect(fastPath(schema)!(body)).toBe(UNSURE)
    expect(validate(schema, body)).toStrictEqual(schema.safeParse(body))
  })

  it('is taken by the valid bodies of both flows', async () => {
    const service = await createRelayService()
    const world = service.world
    const vehicleId = world.store.vehicles.activeByPlate(world.visit.plate)[0].id
    const bodies: Record<string, unknown> = {
      'POST /vehicles': vehicleBody(),
      'POST /custodians': custodianBody(world, vehicleId),
      'POST /payments': paymentBody(world, vehicleId),
      'POST /payment': simpleBody(world),
    }
    for (const [id, body] of Object.entries(bodies)) {
      const schema = SERVICE_TABLE.find(({ route }) => route.id === id)!.route.body as z.ZodType
      expect(fastPath(schema)!(body), id).toStrictEqual(schema.parse(body))
    }
  })

  it('is taken by every record of the built-in seed, which a start loads from its cache', async () => {
    const data = (await createRelayService()).world.store.snapshot()
    for (const [kind, schema] of Object.entries(RECORD_SCHEMAS)) {
      const records = data[kind as keyof typeof RECORD_SCHEMAS]
      expect(records.length, kind).toBeGreaterThan(0)
      for (const record of records)
        expect(fastPath(schema as z.ZodType)!(record), kind).toStrictEqual(schema.parse(record))
    }
  })
})

describe('the fast path of other schemas', () => {
  it('is not made for what it does not read: zod’s own formats, coercion, transforms, defaults', () => {
    for (const schema of [
      z.uuid(),
      z.email(),
      z.int(),
      z.int32(),
      z.iso.date(),
      z.coerce.number(),
      z.string().trim(),
      z.string().default('x'),
      z.string().transform((s) => s.length),
      z.object({ a: z.uuid() }),
      z.object({ a: z.string() }).loose(),
    ]) {
      expect(fastPath(schema as z.ZodType)).toBeUndefined()
      expect(validate(schema as z.ZodType, 'x')).toStrictEqual((schema as z.ZodType).safeParse('x'))
    }
  })

  it('leaves to zod an object that is not a plain one (a class instance, a Date), and answers as zod for one without a prototype', () => {
    const schema = SERVICE_TABLE.find(({ route }) => route.id === 'POST /vehicles')!.route.body as z.ZodType
    class Body {
      plate = 'AB123'
      country = 'is'
    }
    const bare = Object.assign(Object.create(null) as object, { plate: 'AB123', country: 'is' })
    for (const value of [new Body(), new Date()]) expect(fastPath(schema)!(value)).toBe(UNSURE)
    // Without a prototype it is a plain object still (as zod takes it too): the same answer either way.
    for (const value of [new Body(), bare, new Date()])
      expect(validate(schema, value)).toStrictEqual(schema.safeParse(value))
  })
})
