// What JSON.parse forgets of a body: how each number was written and whether an object named a key
// twice. `3990`, `3990.0` and `3.99e3` parse to the same number, and `{"a":1,"a":2}` to `{a: 2}`, yet a
// stricter service refuses the second forms (leniency.ts). One pass over the text, no recursion, for
// bodies that JSON.parse has already read: on text that is not JSON it stops where it loses its way.

/** An integer written in a form an integer field of a stricter service may refuse. */
export interface NumberLiteral {
  /** Where in the body, as a field path: `amount.amount`, `items[0].n`, or `(body)` for a bare number. */
  readonly path: string
  /** The literal as written, e.g. `3990.0`, `3.99e3`, `-0`. */
  readonly literal: string
}

/** A key an object of the body names more than once. */
export interface DuplicateKey {
  /** The key's field path, e.g. `payment.currency`. */
  readonly path: string
  /** How many times the object names it. */
  readonly times: number
}

/** What a body's text says beyond its parsed value. */
export interface JsonLiterals {
  /** Whole numbers written with a fraction or an exponent, and negative zero, in the order written. */
  readonly numbers: NumberLiteral[]
  /** Keys named more than once in one object, in the order of their second naming. */
  readonly duplicates: DuplicateKey[]
}

interface Frame {
  readonly path: string
  readonly kind: 'object' | 'array'
  /** The object's keys so far, with how many times each was named (and its entry, once named twice). */
  readonly keys: Map<string, { times: number; duplicate?: { path: string; times: number } }>
  /** The key whose value comes next (object), or the next index (array). */
  key: string
  index: number
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
// eslint-disable-next-line no-control-regex -- JSON forbids the control characters U+0000 to U+001F unescaped in a string
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const SPACE = /[ \t\n\r]*/y

/**
 * The number forms and repeated keys of a JSON text.
 * @example jsonLiterals('{"amount":{"amount":3990.0},"a":1,"a":2}') // { numbers: [{ path: 'amount.amount', literal: '3990.0' }], duplicates: [{ path: 'a', times: 2 }] }
 */
export function jsonLiterals(text: string): JsonLiterals {
  const numbers: NumberLiteral[] = []
  const duplicates: DuplicateKey[] = []
  const stack: Frame[] = []
  let at = 0
  const skipSpace = () => {
    SPACE.lastIndex = at
    SPACE.test(text)
    at = SPACE.lastIndex
  }
  const valuePath = () => {
    const frame = stack.at(-1)
    if (!frame) return '(body)'
    if (frame.kind === 'array') return `${frame.path}[${frame.index}]`
    return frame.path === '' ? frame.key : `${frame.path}.${frame.key}`
  }
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at
    const found = pattern.exec(text)
    if (!found) return undefined
    at = pattern.lastIndex
    return found[0]
  }
  while (at < text.length) {
    skipSpace()
    const char = text[at]
    if (char === undefined) break
    const frame = stack.at(-1)
    if (char === '{' || char === '[') {
      stack.push({
        path: stack.length === 0 ? '' : valuePath(),
        kind: char === '{' ? 'object' : 'array',
        keys: new Map(),
        key: '',
        index: 0,
      })
      at++
    } else if (char === '}' || char === ']') {
      stack.pop()
      at++
    } else if (char === ',') {
      if (frame?.kind === 'array') frame.index++
      at++
    } else if (char === '"') {
      const literal = match(STRING)
      if (literal === undefined) break
      skipSpace()
      // A string followed by `:` is an object's key; any other string is a value.
      if (frame?.kind === 'object' && text[at] === ':') {
        at++
        frame.key = JSON.parse(literal) as string
        const seen = frame.keys.get(frame.key) ?? { times: 0 }
        frame.keys.set(frame.key, seen)
        seen.times++
        if (seen.duplicate) seen.duplicate.times = seen.times
        else if (seen.times === 2) duplicates.push((seen.duplicate = { path: valuePath(), times: 2 }))
      }
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const literal = match(NUMBER)
      if (literal === undefined) break
      const value = Number(literal)
      if (Object.is(value, -0) || (/[.eE]/.test(literal) && Number.isInteger(value)))
        numbers.push({ path: valuePath(), literal })
    } else if (text.startsWith('true', at) || text.startsWith('null', at)) {
      at += 4
    } else if (text.startsWith('false', at)) {
      at += 5
    } else break
  }
  return { numbers, duplicates }
}
