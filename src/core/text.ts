// Words every message, report and page builds the same way: counts with their noun ("1 request",
// "2 requests", "the request" rather than "all 1 requests") and values cut short at a boundary a
// reader can trust (a whole JSON value, never half of one); and the names nearest a mistyped one.

/**
 * A count with its noun, singular for one.
 * @example plural(1, 'request') // '1 request'; plural(2, 'company', 'companies') // '2 companies'
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/**
 * "all 3 requests", or "the request" when there is one: what a sentence about every item says.
 * @example `${capitalize(allOf(1, 'request'))} carried the token.` // 'The request carried the token.'
 */
export function allOf(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? `the ${one}` : `all ${count} ${many}`
}

/**
 * The first `length` characters of `text` as a string of their own, holding no reference to `text`. A plain
 * `slice` would not do for anything kept: V8 keeps a slice of 13 characters or more as a view of the whole
 * text, so a journal keeping a 4 KiB prefix of each 1 MB body would keep every megabyte. structuredClone
 * copies it (a Web standard, so the core needs no Node), about 2 µs for 4 KiB; a TextEncoder round trip
 * takes ten times that and turns half a surrogate pair into U+FFFD.
 * @example ownPrefix(body, 4096) // the body's first 4096 characters; the body itself may be collected
 */
export function ownPrefix(text: string, length: number): string {
  return text.length <= length ? text : structuredClone(text.slice(0, length))
}

/**
 * A long text cut to `length` characters and `…`, a copy of its own (see ownPrefix); a short text as it is.
 * @example clipText('x'.repeat(1000), 80) // 'xxxx…' (80 x's and the ellipsis)
 */
export function clipText(text: string, length: number): string {
  return text.length <= length ? text : `${ownPrefix(text, length)}…`
}

/** The text with its first letter in upper case. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * A value as JSON, at most about `limit` characters, cut only between whole values: an object keeps its
 * first members and ends `…}`, an array its first items and ends `…]`, a long string keeps its start and
 * its closing quote. A short value is shown whole.
 * @example clipJson({ plate: 'AB123', country: 'is' }, 20) // '{"plate":"AB123",…}'
 */
export function clipJson(value: unknown, limit = 160): string {
  const whole = JSON.stringify(value)
  if (whole === undefined) return String(value)
  if (whole.length <= limit) return whole
  if (typeof value === 'string') return `${JSON.stringify(value.slice(0, Math.max(8, limit - 3)))}`.replace(/"$/, '…"')
  if (Array.isArray(value) || (typeof value === 'object' && value !== null)) {
    const isArray = Array.isArray(value)
    const parts = isArray
      ? (value as unknown[]).map((item) => clipJson(item, limit))
      : Object.entries(value as Record<string, unknown>).map(
          ([key, item]) => `${JSON.stringify(key)}:${clipJson(item, limit)}`,
        )
    const [open, close] = isArray ? ['[', ']'] : ['{', '}']
    const kept: string[] = []
    let length = 2
    for (const part of parts) {
      if (kept.length > 0 && length + part.length + 3 > limit) break
      kept.push(part)
      length += part.length + 1
    }
    return `${open}${kept.join(',')}${kept.length < parts.length ? ',…' : ''}${close}`
  }
  return whole
}

/**
 * The candidates closest to a mistyped name, or to a glob that matches none (edit distance; a `*` of
 * the glob takes any run of characters and a `?` any one at no cost), best first.
 * @example nearest('simple/acepted', ids) // ['simple/accepted', 'simple/rejected', 'simple/same-start-end']
 */
export function nearest(wanted: string, candidates: readonly string[], count = 3): string[] {
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate, { glob: true }) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, count)
    .map((hit) => hit.candidate)
}

/**
 * The edits that turn `a` into `b`: insertions, deletions and substitutions, each costing one. With `swaps`,
 * two neighbours swapped cost one edit too (optimal string alignment); with `glob`, a `*` of `a` takes any
 * run of `b` and a `?` any one character, at no cost.
 * @example editDistance('prot', 'port') // 2; editDistance('prot', 'port', { swaps: true }) // 1
 */
export function editDistance(
  a: string,
  b: string,
  { swaps = false, glob = false }: { swaps?: boolean; glob?: boolean } = {},
): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const char = a[i - 1]
    const star = glob && char === '*'
    const current = [star ? previous[0] : i]
    for (let j = 1; j <= b.length; j++) {
      if (star) {
        current[j] = Math.min(previous[j], current[j - 1])
        continue
      }
      const same = char === b[j - 1] || (glob && char === '?')
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1))
      if (swaps && i > 1 && j > 1 && char === b[j - 2] && a[i - 2] === b[j - 1])
        current[j] = Math.min(current[j], before[j - 2] + 1)
    }
    before = previous
    previous = current
  }
  return previous[b.length]
}
