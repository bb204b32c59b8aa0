// Reads a published OpenAPI 3 document from a file or an http(s) URL, with the files its $refs name, and
// validates it against the OpenAPI schemas and resolves its $refs with @seriousme/openapi-schema-validator
// (loaded only when a document is read). Anything that stops a document from being compared is a
// RelayMockError whose message is one line naming the document.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { RelayMockError } from '../../core/errors.js'
import type { ServiceDocument } from '../../core/openapi/compare.js'
import type { OpenApiDocument } from '../../core/openapi/model.js'
import { importExternal } from '../../core/import-external.js'

const REACH = 'Please check the URL and that this machine can reach it (--timeout gives it longer)'
/** What to do about a file a $ref names that was read but holds no JSON or YAML object. */
const PART_CONTENT = 'Please write each file a $ref names as JSON or YAML, a mapping at its top'
const BUNDLE =
  'Please bundle its files into one first, e.g. npx -p @seriousme/openapi-schema-validator bundle-api <files> -o bundled.json'

/** How long a URL may take to answer before its document counts as unreadable. */
export const OPENAPI_FETCH_TIMEOUT_MS = 10_000

/** How many files a document's $refs may name, itself not counted, before it counts as unreadable. */
export const OPENAPI_MAX_FILES = 100

export interface ReadOpenApiOptions {
  /** Milliseconds each URL may take, the document's and those its $refs name (default OPENAPI_FETCH_TIMEOUT_MS). */
  timeoutMs?: number
}

interface AjvError {
  instancePath?: string
  message?: string
  /** Ajv names the property a schema does not allow. */
  params?: { additionalProperty?: string }
}

type Json = Record<string, unknown>
type ValidatorClass = typeof import('@seriousme/openapi-schema-validator').Validator

/** Why a file or URL could not be read, and what to do when it is the document itself. */
class Unread extends Error {
  constructor(
    readonly reason: string,
    readonly advice?: string,
  ) {
    super(reason)
  }
}

/** A file a $ref names, read, under the URI the validator knows it by. */
interface Part {
  /** The file's URL, decoded as the validator decodes a $ref. */
  id: string
  document: Json
  /** Its path, or its URL, for the messages. */
  name: string
}

/** The files a document's $refs name, and what the messages need to tell its $refs apart. */
interface Referenced {
  parts: Part[]
  /** Each $ref rewritten to its file's URL (decoded, as the validator names it), with the $ref as written and the file it is in. */
  refs: Map<string, { ref: string; in: string }>
  /** The name of each file (the document's own included) by its id. */
  names: Map<string, string>
  /**
   * Every object holding a $ref, in the document and in each file, with the $ref as written and the file it
   * is in: the validator puts each $ref's target in its place, so none of these is left in the document
   * it resolves unless a $ref named another $ref.
   */
  holders: Map<object, { ref: string; in: string }>
}

/**
 * A document of the service, validated and with its $refs resolved: a $ref to another file is read
 * relative to the document's own path or URL.
 * @example const { document } = await readOpenApi('https://relay.example/openapi/advanced.json')
 */
export async function readOpenApi(source: string, options: ReadOpenApiOptions = {}): Promise<ServiceDocument> {
  const timeoutMs = options.timeoutMs ?? OPENAPI_FETCH_TIMEOUT_MS
  let main: { text: string; url: URL }
  try {
    main = await load(locate(source), timeoutMs)
  } catch (error) {
    throw error instanceof Unread ? unreadable(source, error.reason, error.advice) : error
  }
  const { Validator } = await importExternal<typeof import('@seriousme/openapi-schema-validator')>(
    '@seriousme/openapi-schema-validator',
  )
  const validator = new Validator()
  // An empty file, or one holding a bare value (null, 42), is no document at all: the validator fails on it.
  const notADocument = () => unreadable(source, 'it is not an OpenAPI document (it holds no JSON or YAML object)')
  let result = await validator.validate(parsed(main.text)).catch(() => {
    throw notADocument()
  })
  const spec = validator.specification as Json | undefined
  if (spec !== undefined && (spec === null || typeof spec !== 'object' || Array.isArray(spec))) throw notADocument()
  if (spec && typeof spec === 'object' && typeof spec.openapi !== 'string') {
    const what =
      typeof spec.swagger === 'string'
        ? `a Swagger ${spec.swagger} document`
        : 'not an OpenAPI document (it has no `openapi` field)'
    throw unreadable(source, `it is ${what}; relay-mock compare reads OpenAPI 3 documents`)
  }
  if (spec && typeof spec.openapi === 'string' && !spec.openapi.startsWith('3.')) {
    throw unreadable(source, `it is OpenAPI ${spec.openapi}; relay-mock compare reads OpenAPI 3 documents`)
  }
  if (!result.valid && (typeof result.errors !== 'string' || !spec || typeof spec !== 'object'))
    throw unreadable(source, validationProblem(result.errors))
  // The validator refuses a $ref to a file it has not been given: read those files, then validate again.
  const referenced = await readReferenced(spec!, main.url, source, timeoutMs, Validator)
  for (const part of referenced.parts.toReversed()) await validator.addSpecRef(part.document, part.id)
  result = await validator.validate(inResolvingOrder(spec!))
  if (!result.valid) throw unreadable(source, validationProblem(result.errors, referenced))
  const document = validator.resolveRefs()
  // Where the validator keeps the files it was given: their parts are in place now.
  delete document['x-inlined-refs']
  const unfollowed = firstOf(document, referenced.holders)
  if (unfollowed) {
    throw unreadable(
      source,
      `the $ref ${unfollowed.ref} in ${unfollowed.in} is itself named by a $ref, and relay-mock compare follows $refs one deep`,
      `Please point the $refs that name it at what it names (${unfollowed.ref})`,
    )
  }
  // Valid against the OpenAPI schemas and with its $refs resolved, the document has the model's shape.
  return { source, document: document as unknown as OpenApiDocument }
}

/**
 * The document with the files it was given first, then its components, then the rest. The validator
 * resolves $refs in the order it meets them and one deep: a $ref to a $ref gets the second $ref's place
 * unresolved, unless that $ref was met first. In this order the usual chains work (a path's $ref to a
 * component that is a $ref to a file; a file's $ref to a deeper file's $ref); any other is refused.
 */
function inResolvingOrder(spec: Json): Json {
  return { 'x-inlined-refs': {}, ...(spec.components ? { components: spec.components } : {}), ...spec }
}

/** The first object of `document` that `holders` names, or undefined when none is in it. */
function firstOf<T>(document: unknown, holders: Map<object, T>): T | undefined {
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
async function readReferenced(
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

/** The URL of a document named on the command line: an http(s) or file: URL, or a path. */
function locate(source: string): URL {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
    if (!/^(https?|file):/i.test(source)) throw new Unread('it is neither a file nor an http(s) URL')
    try {
      return new URL(source)
    } catch {
      throw new Unread('it is not a valid URL', REACH)
    }
  }
  return pathToFileURL(resolve(source))
}

/** A file's or URL's text, and the URL its relative $refs are read from (a redirect's target for a URL). */
async function load(url: URL, timeoutMs: number): Promise<{ text: string; url: URL }> {
  if (url.protocol === 'file:') return { text: await readText(url), url }
  return fetchText(url, timeoutMs)
}

const withoutFragment = (url: URL) => url.href.replace(/#.*$/, '')
const nameOf = (url: URL) => (url.protocol === 'file:' ? fileURLToPath(url) : url.href)

/** A URI as the validator reads a $ref (decodeURIComponent); undefined when it cannot be decoded. */
function decoded(uri: string): string | undefined {
  try {
    return decodeURIComponent(uri)
  } catch {
    return undefined
  }
}

/** JSON as an object; anything else as text for the validator's YAML reader. */
function parsed(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // YAML, or neither: the validator says which.
  }
  // The validator reads a string without a line break as a file name: text on one line gets one.
  return text.includes('\n') ? text : `${text}\n`
}

async function readText(url: URL): Promise<string> {
  try {
    return await readFile(fileURLToPath(url), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Unread(
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'it may not be read'
            : (error as Error).message,
    )
  }
}

async function fetchText(url: URL, timeoutMs: number): Promise<{ text: string; url: URL }> {
  let response: Response
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
    })
  } catch (error) {
    const name = (error as Error).name
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new Unread(`no answer within ${timeoutMs / 1000} s`, REACH)
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new Unread(`it could not be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})`, REACH)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new Unread(
      `the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      'Please check the URL (the interface publishes it in §9 Versioning)',
    )
  }
  try {
    return { text: await response.text(), url: response.url ? new URL(response.url) : url }
  } catch (error) {
    throw new Unread(`its answer broke off (${(error as Error).message})`, REACH)
  }
}

/** The validator's complaint in a few words: the error deepest in the document (the others are its consequences). */
function validationProblem(errors: unknown, referenced?: Referenced): string {
  if (typeof errors === 'string') {
    if (/YAML\/JSON/.test(errors)) return 'it is neither JSON nor YAML'
    const unresolved = /^Can't resolve (.+?)(, only internal refs are supported\.)?$/.exec(errors)
    return unresolved ? refProblem(unresolved[1], referenced) : errors
  }
  const list = (Array.isArray(errors) ? errors : []) as AjvError[]
  if (list.length === 0) return 'it is not a valid OpenAPI document'
  const deepest = list.reduce((best, error) =>
    (error.instancePath ?? '').length > (best.instancePath ?? '').length ? error : best,
  )
  const extra = deepest.params?.additionalProperty ? ` (${deepest.params.additionalProperty})` : ''
  return `it is not a valid OpenAPI document: at ${deepest.instancePath || '/'} it ${deepest.message ?? 'is invalid'}${extra}`
}

/** What a $ref the validator could not resolve (as it names it: the file's id, a # and a JSON pointer) names nothing in. */
function refProblem(uri: string, referenced?: Referenced): string {
  const hash = uri.indexOf('#')
  const file = hash < 0 ? uri : uri.slice(0, hash)
  if (file === '') return `a $ref names nothing in it (${uri})`
  const written = referenced?.refs.get(uri)
  const name = referenced?.names.get(file)
  if (written && name) return `the $ref ${written.ref} in ${written.in} names nothing in ${name}`
  if (name) return `a $ref in ${name} names nothing in it (${hash < 0 ? uri : uri.slice(hash)})`
  return `a $ref names a file that was not read (${uri})`
}

function unreadable(
  source: string,
  reason: string,
  advice = 'Please give an OpenAPI 3 document (JSON or YAML) as a file or an http(s) URL',
): RelayMockError {
  return new RelayMockError(
    'OPENAPI_UNREADABLE',
    `Failed to read the OpenAPI document ${source}: ${reason}. ${advice}.`,
  )
}
