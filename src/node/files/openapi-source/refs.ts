// The files a document's $refs name: read, each once, and each $ref rewritten to its file's URL, then put
// in the order the validator resolves them; what is left unresolved is found by the objects that held a $ref.
import { decoded, load, nameOf, parsed, Unread, withoutFragment, type Json } from './read.js'
import { unreadable, type Referenced } from './messages.js'

/** What to do about a file a $ref names that was read but holds no JSON or YAML object. */
const PART_CONTENT = 'Please write each file a $ref names as JSON or YAML, a mapping at its top'
const BUNDLE =
  'Please bundle its files into one first, e.g. npx -p @seriousme/openapi-schema-validator bundle-api <files> -o bundled.json'

/** How many files a document's $refs may name, itself not counted, before it counts as unreadable. */
export const OPENAPI_MAX_FILES = 100

export type ValidatorClass = typeof import('@seriousme/openapi-schema-validator').Validator

/**
 * The document with the files it was given first, then its components, then the rest. The validator
 * resolves $refs in the order it meets them and one deep: a $ref to a $ref gets the second $ref's place
 * unresolved, unless that $ref was met first. In this order the usual chains work (a path's $ref to a
 * component that is a $ref to a file; a file's $ref to a deeper file's $ref); any other is refused.
 */
export function inResolvingOrder(spec: Json): Json {
  return { 'x-inlined-refs': {}, ...(spec.components ? { components: spec.components } : {}), ...spec }
}

/** The first object of `document` that `holders` names, or undefined when none is in it. */
export function firstOf<T>(document: unknown, holders: Map<object, T>): T | undefined {
  for (const node of objectsIn(document)) {
    const found = holders.get(node)
    if (found) return found
  }
  return undefined
}

/** Every object (and array) in `value`, each once, in the document's order. */
function* objectsIn(value: unknown): Generator<object> {
  const seen = new Set<object>()
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!node || typeof node !== 'object' || seen.has(node)) continue
    seen.add(node)
    yield node
    const children = Object.values(node)
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
}

/** Every object in `document` that holds a `$ref`, in the document's order. */
function refHolders(document: unknown): Json[] {
  return [...objectsIn(document)].filter((node): node is Json => typeof (node as Json).$ref === 'string')
}

/**
 * Reads every file the document's $refs name, and the files their $refs name in turn, each once, and
 * rewrites each such $ref to its file's URL: the validator finds a file by the URI it was given it under,
 * and a relative $ref means a file relative to the one it is in.
 */
export async function readReferenced(
  main: Json,
  mainUrl: URL,
  source: string,
  timeoutMs: number,
  Validator: ValidatorClass,
): Promise<Referenced> {
  const mainFile = withoutFragment(mainUrl)
  const referenced: Referenced = {
    parts: [],
    refs: new Map(),
    names: new Map([[decoded(mainFile) ?? mainFile, source]]),
    holders: new Map(),
  }
  const named = new Set([mainFile])
  let mainNamed = false
  let wave: Array<{ document: Json; url: URL; name: string }> = [{ document: main, url: mainUrl, name: source }]
  while (wave.length > 0) {
    const wanted: Array<{ url: URL; ref: string; in: string }> = []
    for (const from of wave) {
      for (const holder of refHolders(from.document)) {
        const ref = holder.$ref as string
        referenced.holders.set(holder, { ref, in: from.name })
        if (ref === '' || ref.startsWith('#')) continue
        const target = targetOf(ref, from, source)
        const file = withoutFragment(target)
        holder.$ref = `${file}${target.hash}`
        referenced.refs.set(decoded(holder.$ref as string)!, { ref, in: from.name })
        if (file === mainFile) mainNamed = true
        if (named.has(file)) continue
        named.add(file)
        if (named.size - 1 > OPENAPI_MAX_FILES) {
          throw unreadable(
            source,
            `its $refs name more than ${OPENAPI_MAX_FILES} files, and relay-mock compare reads at most ${OPENAPI_MAX_FILES} (the one over: the $ref ${ref} in ${from.name})`,
            BUNDLE,
          )
        }
        wanted.push({ url: new URL(file), ref, in: from.name })
      }
    }
    const read = await Promise.allSettled(wanted.map(({ url }) => readPart(url, timeoutMs, Validator)))
    wave = []
    for (const [i, outcome] of read.entries()) {
      const { url, ref, in: where } = wanted[i]
      const name = nameOf(url)
      if (outcome.status === 'rejected') {
        const error = outcome.reason as unknown
        if (!(error instanceof Unread)) throw error
        const advice =
          error.advice === PART_CONTENT
            ? PART_CONTENT
            : url.protocol === 'file:'
              ? 'Please check the $ref: a relative $ref names a file relative to the file it is in'
              : 'Please check the $ref and that this machine can reach its URL (--timeout gives it longer)'
        throw unreadable(
          source,
          `the $ref ${ref} in ${where} names ${name}, which cannot be read: ${error.reason}`,
          advice,
        )
      }
      const id = decoded(url.href)!
      referenced.parts.push({ id, document: outcome.value, name })
      referenced.names.set(id, name)
      wave.push({ document: outcome.value, url, name })
    }
  }
  // A $ref back into the document itself names it by its file: the validator gets a copy under that name.
  if (mainNamed) {
    const copy = structuredClone(main)
    const written = refHolders(main)
    for (const [i, holder] of refHolders(copy).entries())
      referenced.holders.set(holder, referenced.holders.get(written[i])!)
    referenced.parts.push({ id: decoded(mainFile) ?? mainFile, document: copy, name: source })
  }
  return referenced
}

/** The URL a $ref names, relative to the file it is in. */
function targetOf(ref: string, from: { url: URL; name: string }, source: string): URL {
  let target: URL
  try {
    target = new URL(ref, from.url)
  } catch {
    throw unreadable(
      source,
      `the $ref ${ref} in ${from.name} is not a URI reference`,
      'Please give each $ref as a path or URL, with a # and a JSON pointer after it where it names a part of the file',
    )
  }
  if (decoded(target.href) === undefined) {
    throw unreadable(
      source,
      `the $ref ${ref} in ${from.name} is not a URI reference (a % must be followed by two hex digits)`,
      'Please write a % in a $ref as %25',
    )
  }
  if (target.protocol === 'file:' && from.url.protocol !== 'file:') {
    throw unreadable(
      source,
      `the $ref ${ref} in ${from.name} names a file on this machine (${target.href}), which a document read from a URL may not`,
      'Please give the document as a file to compare it with files of this machine',
    )
  }
  if (!['file:', 'http:', 'https:'].includes(target.protocol)) {
    throw unreadable(
      source,
      `the $ref ${ref} in ${from.name} names ${target.href}, neither a file nor an http(s) URL`,
      'Please give each $ref as a path or an http(s) URL',
    )
  }
  return target
}

/** A file a $ref names, as an object. */
async function readPart(url: URL, timeoutMs: number, Validator: ValidatorClass): Promise<Json> {
  const { text } = await load(url, timeoutMs)
  const value = parsed(text)
  if (typeof value === 'object') return value
  // YAML, read as the document is: by the validator, which keeps what it read even when it is no OpenAPI
  // document (one validator a file: a validator's `specification` is its last document's).
  const reader = new Validator()
  const result = await reader.validate(value)
  if (typeof result.errors === 'string' && /YAML\/JSON/.test(result.errors))
    throw new Unread('it is neither JSON nor YAML', PART_CONTENT)
  const document = reader.specification as unknown
  if (document && typeof document === 'object' && !Array.isArray(document)) return document as Json
  throw new Unread('it holds no JSON or YAML mapping', PART_CONTENT)
}
