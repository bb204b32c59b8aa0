// Two JSON Schemas field by field: what a side is missing or adds, and each field's required, type, format
// and enum. Knows nothing of the ledger: verdicts.ts says which of these differences an assumption explains.
import { z } from 'zod'
import { date, timestamp, uuid } from '../service/schemas.js'
import type { Report } from './differences.js'
import type { SchemaObject } from './model.js'

/** A schema's own constraints, its composition (allOf, anyOf, oneOf) merged in. */
interface Flat {
  type?: string
  format?: string
  pattern?: string
  enum?: unknown[]
  properties?: Record<string, SchemaObject>
  required: Set<string>
  items?: SchemaObject
}

/** relay-mock's own format for its timestamps, which OpenAPI has no name for. */
export const TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:MM:SS'

/** Nested deeper than this, a schema is not compared: a recursive schema would never end. */
const MAX_DEPTH = 12

/** @example compareSchemas({ type: 'string' }, { type: 'integer' }, 'requestBody.application/json.id', 'request', report) */
export function compareSchemas(
  ours: SchemaObject | undefined,
  theirs: SchemaObject | undefined,
  where: string,
  side: 'request' | 'answer',
  at: Report,
  depth = 0,
): void {
  if (depth > MAX_DEPTH || !ours || !theirs) return
  const a = flatten(ours)
  const b = flatten(theirs)
  if (a.type && b.type && a.type !== b.type) {
    // A list that is an object on the other side is judged by its caller (lists.paging).
    if (!(depth === 0 && a.type === 'array'))
      at({ where, kind: `${side}-field-type`, relayMock: a.type, theirs: b.type })
    return
  }
  const ourFormat = formatOf(a)
  if (b.format && b.format !== ourFormat)
    at({ where, kind: `${side}-field-format`, relayMock: ourFormat ?? 'none', theirs: b.format })
  if ((a.enum || b.enum) && !sameSet(a.enum, b.enum)) {
    at({ where, kind: `${side}-field-enum`, relayMock: a.enum ?? 'any', theirs: b.enum ?? 'any' })
  }
  if (a.type === 'array' || b.type === 'array') {
    compareSchemas(a.items, b.items, `${where}[]`, side, at, depth + 1)
    return
  }
  compareProperties(a, b, where, side, at, depth)
}

function compareProperties(
  a: Flat,
  b: Flat,
  where: string,
  side: 'request' | 'answer',
  at: Report,
  depth: number,
): void {
  const ourProps = a.properties
  const theirProps = b.properties
  if (!ourProps || !theirProps) return
  for (const [field, schema] of Object.entries(ourProps)) {
    const path = `${where}.${field}`
    if (!(field in theirProps)) {
      at({ where: path, kind: `${side}-field-missing`, relayMock: describeSchema(schema) })
      continue
    }
    const required = [a.required.has(field), b.required.has(field)]
    if (required[0] !== required[1])
      at({ where: path, kind: `${side}-field-required`, relayMock: required[0], theirs: required[1] })
    compareSchemas(schema, theirProps[field], path, side, at, depth + 1)
  }
  for (const [field, schema] of Object.entries(theirProps)) {
    if (field in ourProps) continue
    at({
      where: `${where}.${field}`,
      kind: `${side}-field-added`,
      theirs: `${describeSchema(schema)}${b.required.has(field) ? ', required' : ''}`,
    })
  }
}

/**
 * A schema with allOf merged, and anyOf/oneOf branches joined (their fields, required only where all require them).
 * @example flatten({ allOf: [{ type: 'object', required: ['id'] }] }).required.has('id') // true
 */
export function flatten(schema: SchemaObject | undefined, depth = 0): Flat {
  const flat: Flat = { required: new Set() }
  if (!schema || typeof schema !== 'object' || depth > 8) return flat
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : schema.type
  flat.type = Array.isArray(type) ? (type.length === 1 ? type[0] : type.join('|')) : type
  if (schema.format) flat.format = schema.format
  if (schema.pattern) flat.pattern = schema.pattern
  if (Array.isArray(schema.enum)) flat.enum = schema.enum
  else if ('const' in schema) flat.enum = [schema.const]
  if (schema.properties) flat.properties = { ...schema.properties }
  for (const name of schema.required ?? []) flat.required.add(name)
  if (schema.items) flat.items = schema.items
  for (const part of schema.allOf ?? []) merge(flat, flatten(part, depth + 1), true)
  const branches: Flat[] = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]
    .map((branch) => flatten(branch, depth + 1))
    .filter((b) => b.type !== 'string' || b.properties)
  // A branch of another type (relay-mock's HTML page beside JSON) says nothing of the JSON's fields.
  const objects = branches.filter((b) => b.type === 'object' || b.properties)
  if (objects.length > 0) {
    const required = objects.map((b) => b.required).reduce((all, next) => new Set([...all].filter((n) => next.has(n))))
    for (const branch of objects) merge(flat, { ...branch, required: new Set() }, false)
    for (const name of required) flat.required.add(name)
  } else if (branches.length === 1) merge(flat, branches[0], true)
  return flat
}

function merge(into: Flat, from: Flat, withRequired: boolean): void {
  into.type ??= from.type
  into.format ??= from.format
  into.pattern ??= from.pattern
  into.enum ??= from.enum
  into.items ??= from.items
  if (from.properties) into.properties = { ...from.properties, ...into.properties }
  if (withRequired) for (const name of from.required) into.required.add(name)
}

let patternFormats: Map<string | undefined, string> | undefined

/** A field's format: its own, or what relay-mock's pattern for it means (relay-mock writes patterns, not formats). */
function formatOf(flat: Flat): string | undefined {
  if (flat.format) return flat.format
  if (!flat.pattern) return undefined
  patternFormats ??= new Map(
    (
      [
        [uuid, 'uuid'],
        [date, 'date'],
        [timestamp, TIMESTAMP_FORMAT],
      ] as const
    ).map(([schema, format]) => [
      (z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as SchemaObject).pattern,
      format,
    ]),
  )
  return patternFormats.get(flat.pattern)
}

/** @example describeSchema({ type: 'string', enum: ['is'] }) // 'string one of "is"' */
export function describeSchema(schema: SchemaObject | undefined): string {
  const flat = flatten(schema)
  const format = formatOf(flat)
  return [
    flat.type ?? 'any',
    format ? `(${format})` : '',
    flat.enum ? `one of ${flat.enum.map((v) => JSON.stringify(v)).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ')
}

function sameSet(a: unknown[] | undefined, b: unknown[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false
  const keys = new Set(a.map((v) => JSON.stringify(v)))
  return b.every((v) => keys.has(JSON.stringify(v)))
}
