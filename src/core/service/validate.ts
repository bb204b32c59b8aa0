// Validation by the route table's zod schemas, with a fast path compiled from those same schemas.
// zod walks a schema's definition for every value (its objects, its checks, its issue machinery);
// a request that is valid, which is most of them, needs none of that to say so. So each schema is
// read once into a plain function that answers the parsed value when it is certainly valid, and
// nothing when it is not or may not be: then zod parses it, and its issues (or its value) are the
// answer. The schemas stay the one source of truth; the fast path only decides sooner, never
// differently (a property test holds it to zod's answer on every route's schemas).
import type { z } from 'zod'

/** What the fast path answers when it cannot vouch for a value: zod decides. */
const UNSURE: unique symbol = Symbol('unsure')

/** Answers the value as zod's parse would, or UNSURE. */
type Fast = (value: unknown) => unknown

const compiled = new WeakMap<z.ZodType, Fast | null>()

/**
 * zod's `safeParse`, sooner for a valid value: what the compiled fast path vouches for is answered as
 * zod would answer it (the same value, its keys in the same order); anything else is zod's own answer.
 * @example validate(createVehicleBody, { plate: 'AB123', country: 'is' }) // { success: true, data: { plate: 'AB123', country: 'is' } }
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  const fast = fastPath(schema)
  if (fast) {
    const data = fast(value)
    if (data !== UNSURE) return { success: true, data: data as T }
  }
  return schema.safeParse(value)
}

/**
 * The fast path of a schema: a function answering the parsed value or UNSURE, or undefined when the
 * schema uses anything it does not read (a transform, a default, a format other than a regex…), which
 * then always goes to zod.
 * @example fastPath(createVehicleBody)?.({ plate: 'AB123', country: 'is' }) // { plate: 'AB123', country: 'is' }
 */
export function fastPath(schema: z.ZodType): Fast | undefined {
  let fast = compiled.get(schema)
  if (fast === undefined) {
    fast = compile(schema) ?? null
    compiled.set(schema, fast)
  }
  return fast ?? undefined
}

export { UNSURE }

/** The parts of zod's definitions the compiler reads (zod 4's `_zod.def`). */
interface Def {
  type: string
  checks?: ReadonlyArray<{ _zod: { def: CheckDef } }>
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  values?: ReadonlyArray<unknown>
}

interface CheckDef {
  check: string
  format?: string
  pattern?: RegExp
  minimum?: number
  maximum?: number
  length?: number
  value?: number | bigint
  inclusive?: boolean
  fn?: (value: unknown) => unknown
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/**
 * The definition keys the compiler understands. Any other (a top-level format such as `z.uuid()` or
 * `z.int()`, whose check lives on the schema itself; `coerce`; what a later zod adds) leaves the
 * schema to zod, so that nothing it does not read is taken for valid.
 */
const UNDERSTOOD = new Set(['type', 'checks', 'error', 'shape', 'catchall', 'innerType', 'values'])

function compile(schema: z.ZodType): Fast | undefined {
  const def = defOf(schema)
  for (const key of Object.keys(def)) if (!UNDERSTOOD.has(key)) return undefined
  switch (def.type) {
    case 'string': {
      const checks = compileChecks(def, stringCheck)
      return checks && ((v) => (typeof v === 'string' && checks(v) ? v : UNSURE))
    }
    case 'number': {
      const checks = compileChecks(def, numberCheck)
      // zod's number takes finite numbers only.
      return checks && ((v) => (typeof v === 'number' && Number.isFinite(v) && checks(v) ? v : UNSURE))
    }
    case 'boolean':
      return def.checks?.length ? undefined : (v) => (typeof v === 'boolean' ? v : UNSURE)
    case 'literal': {
      const values = def.values ?? []
      return def.checks?.length ? undefined : (v) => (values.includes(v) ? v : UNSURE)
    }
    case 'optional': {
      const inner = def.innerType && !def.checks?.length ? fastPath(def.innerType) : undefined
      return inner && ((v) => (v === undefined ? v : inner(v)))
    }
    case 'object':
      return compileObject(def)
    default:
      return undefined
  }
}

/** Every check a string or number schema has, as one predicate; undefined when one is not understood. */
function compileChecks<T>(
  def: Def,
  read: (check: CheckDef) => ((v: T) => boolean) | undefined,
): ((v: T) => boolean) | undefined {
  const tests: Array<(v: T) => boolean> = []
  for (const { _zod } of def.checks ?? []) {
    const test = read(_zod.def)
    if (!test) return undefined
    tests.push(test)
  }
  return (v) => {
    for (const test of tests) if (!test(v)) return false
    return true
  }
}

function stringCheck(check: CheckDef): ((v: string) => boolean) | undefined {
  switch (check.check) {
    case 'min_length': {
      const min = check.minimum!
      return (v) => v.length >= min
    }
    case 'max_length': {
      const max = check.maximum!
      return (v) => v.length <= max
    }
    case 'length_equals': {
      const length = check.length!
      return (v) => v.length === length
    }
    case 'string_format': {
      // Only a regex: zod's named formats (email, url…) check more than their pattern.
      if (check.format !== 'regex' || !(check.pattern instanceof RegExp)) return undefined
      const pattern = check.pattern
      return (v) => {
        pattern.lastIndex = 0
        return pattern.test(v)
      }
    }
    case 'custom':
      return customCheck(check)
    default:
      return undefined
  }
}

function numberCheck(check: CheckDef): ((v: number) => boolean) | undefined {
  switch (check.check) {
    case 'number_format':
      return check.format === 'safeint' ? (v) => Number.isSafeInteger(v) : undefined
    case 'greater_than': {
      if (typeof check.value !== 'number') return undefined
      const bound = check.value
      return check.inclusive ? (v) => v >= bound : (v) => v > bound
    }
    case 'less_than': {
      if (typeof check.value !== 'number') return undefined
      const bound = check.value
      return check.inclusive ? (v) => v <= bound : (v) => v < bound
    }
    case 'custom':
      return customCheck(check)
    default:
      return undefined
  }
}

/** A refine: passes when its function says so (a promise is zod's to wait for). */
function customCheck<T>(check: CheckDef): ((v: T) => boolean) | undefined {
  const fn = check.fn
  if (typeof fn !== 'function') return undefined
  return (v) => {
    const result = fn(v)
    return Boolean(result) && !(result instanceof Promise)
  }
}

/**
 * An object: a plain object whose known keys all pass, and no other key when the object is strict
 * (a stripped object drops them, as zod does). The value is a new object with the known keys in the
 * schema's order, as zod builds it. An optional key sent as undefined is left to zod.
 */
function compileObject(def: Def): Fast | undefined {
  if (def.checks?.length || !def.shape) return undefined
  const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never'
  if (def.catchall !== undefined && !strict) return undefined
  const keys = Object.keys(def.shape)
  const fields: Fast[] = []
  const optional: boolean[] = []
  for (const key of keys) {
    const field = def.shape[key]
    const fast = fastPath(field)
    if (!fast) return undefined
    fields.push(fast)
    optional.push(defOf(field).type === 'optional')
  }
  const known = new Set(keys)
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return UNSURE
    // A plain object, as JSON.parse makes them: anything else is zod's to judge.
    const proto: unknown = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) return UNSURE
    const input = v as Record<string, unknown>
    if (strict) {
      for (const key in input) if (!known.has(key) || !Object.hasOwn(input, key)) return UNSURE
    }
    const out: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]
      const value = Object.hasOwn(input, key) ? input[key] : undefined
      if (value === undefined) {
        if (optional[i] && !(key in input)) continue
        return UNSURE
      }
      const parsed = fields[i](value)
      if (parsed === UNSURE) return UNSURE
      out[key] = parsed
    }
    return out
  }
}
