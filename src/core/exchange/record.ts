// The shape of the records an answer carries, read from the schemas that document the service's answers
// (one schema per fact): the fields a route's 200 answer lists, and the JSON type of each.
import type { z } from 'zod'
import { routeById } from '../service/protocol.js'

/** The simple endpoint answers a payment's id and status, not a record of the table. */
const SIMPLE = 'POST /payment'

/**
 * The fields a route's 200 answer lists (its records' or its list items'), from the schema that documents it;
 * undefined for a route with no such answer (a create, the simple endpoint, an unknown route).
 * @example listedFields('GET /vehicles') // ['id', 'plate', 'country', …]
 */
export function listedFields(routeId: string | null): string[] | undefined {
  if (routeId === null) return undefined
  if (LISTED.has(routeId)) return LISTED.get(routeId)
  const schema = routeById(routeId)?.answers[200]?.schema
  const shape =
    !schema || routeId === SIMPLE
      ? undefined
      : objectShape(isArraySchema(schema) ? (schema as unknown as { element: z.ZodType }).element : schema)
  const listed = shape ? Object.keys(shape) : undefined
  LISTED.set(routeId, listed)
  return listed
}
/** listedFields by route: read from the schemas once, not on every answer. */
const LISTED = new Map<string, string[] | undefined>()

/** True when the schema documents a list (a JSON array) rather than one record. */
export function isArraySchema(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'array'
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  return (schema as unknown as { shape?: Record<string, z.ZodType> }).shape
}

/**
 * The JSON type of each field a route's 200 answer documents, as [name, type] pairs (read once per schema).
 * @example fieldTypes(routeById('GET /vehicles')!.answers[200]!.schema) // [['id', 'string'], ['plate', 'string'], …]
 */
export function fieldTypes(schema: z.ZodType): ReadonlyArray<readonly [string, string]> {
  const known = FIELD_TYPES.get(schema)
  if (known) return known
  const shape =
    objectShape(isArraySchema(schema) ? (schema as unknown as { element: z.ZodType }).element : schema) ?? {}
  const types = Object.entries(shape).map(([name, field]) => {
    const type = (field as unknown as { _zod: { def: { type: string } } })._zod.def.type
    return [name, type === 'int' ? 'number' : type === 'enum' ? 'string' : type] as const
  })
  FIELD_TYPES.set(schema, types)
  return types
}
const FIELD_TYPES = new WeakMap<z.ZodType, ReadonlyArray<readonly [string, string]>>()
