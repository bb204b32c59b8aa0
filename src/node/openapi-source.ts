// Reads a published OpenAPI 3 document from a file or an http(s) URL, validates it against the
// OpenAPI schemas and resolves its $refs, with @seriousme/openapi-schema-validator (loaded only when a
// document is read). Anything that stops a document from being compared is a RelayMockError whose
// message is one line naming the document.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { RelayMockError } from '../core/errors.js'
import type { ServiceDocument } from '../core/compare.js'
import { importExternal } from '../core/import-external.js'

const REACH = 'Please check the URL and that this machine can reach it (--timeout gives it longer)'

/** How long a URL may take to answer before its document counts as unreadable. */
export const OPENAPI_FETCH_TIMEOUT_MS = 10_000

export interface ReadOpenApiOptions {
  /** Milliseconds a URL may take (default OPENAPI_FETCH_TIMEOUT_MS). */
  timeoutMs?: number
}

interface AjvError {
  instancePath?: string
  message?: string
  params?: Record<string, unknown>
}

/**
 * A document of the service, validated and with its $refs resolved.
 * @example const { document } = await readOpenApi('https://relay.example/openapi/advanced.json')
 */
export async function readOpenApi(source: string, options: ReadOpenApiOptions = {}): Promise<ServiceDocument> {
  const text = /^https?:\/\//i.test(source) ? await fetchText(source, options.timeoutMs ?? OPENAPI_FETCH_TIMEOUT_MS) : await readText(source)
  const { Validator } = await importExternal<typeof import('@seriousme/openapi-schema-validator')>('@seriousme/openapi-schema-validator')
  const validator = new Validator()
  const result = await validator.validate(parsed(text))
  const spec = validator.specification as Record<string, unknown> | undefined
  if (spec && typeof spec === 'object' && typeof spec.openapi !== 'string') {
    const what = typeof spec.swagger === 'string' ? `a Swagger ${spec.swagger} document` : 'not an OpenAPI document (it has no `openapi` field)'
    throw unreadable(source, `it is ${what}; relay-mock compare reads OpenAPI 3 documents`)
  }
  if (spec && typeof spec.openapi === 'string' && !spec.openapi.startsWith('3.')) {
    throw unreadable(source, `it is OpenAPI ${spec.openapi}; relay-mock compare reads OpenAPI 3 documents`)
  }
  if (!result.valid) {
    const external = typeof result.errors === 'string' ? /^Can't resolve (\S+?), only internal refs/.exec(result.errors) : null
    if (external) {
      throw unreadable(source, `a $ref points outside it (${external[1]})`, 'Please bundle its files into one first, e.g. npx -p @seriousme/openapi-schema-validator bundle-api <files> -o bundled.json')
    }
    throw unreadable(source, validationProblem(result.errors))
  }
  return { source, document: validator.resolveRefs() }
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

async function readText(source: string): Promise<string> {
  let path = source
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
    if (!source.startsWith('file:')) throw unreadable(source, 'it is neither a file nor an http(s) URL')
    path = fileURLToPath(source)
  }
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : (error as Error).message
    throw unreadable(source, reason)
  }
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } })
  } catch (error) {
    const name = (error as Error).name
    if (name === 'TimeoutError' || name === 'AbortError') throw unreadable(url, `no answer within ${timeoutMs / 1000} s`, REACH)
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw unreadable(url, `it could not be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})`, REACH)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw unreadable(url, `the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, 'Please check the URL (the interface publishes it in §9 Versioning)')
  }
  try {
    return await response.text()
  } catch (error) {
    throw unreadable(url, `its answer broke off (${(error as Error).message})`, REACH)
  }
}

/** The validator's complaint in a few words: the error deepest in the document (the others are its consequences). */
function validationProblem(errors: unknown): string {
  if (typeof errors === 'string') {
    return /YAML\/JSON/.test(errors) ? 'it is neither JSON nor YAML' : /^Can't resolve /.test(errors) ? `a $ref names nothing in it (${errors.replace(/^Can't resolve /, '')})` : errors
  }
  const list = (Array.isArray(errors) ? errors : []) as AjvError[]
  if (list.length === 0) return 'it is not a valid OpenAPI document'
  const deepest = list.reduce((best, error) => ((error.instancePath ?? '').length > (best.instancePath ?? '').length ? error : best))
  const extra = deepest.params?.additionalProperty ? ` (${String(deepest.params.additionalProperty)})` : ''
  return `it is not a valid OpenAPI document: at ${deepest.instancePath || '/'} it ${deepest.message ?? 'is invalid'}${extra}`
}

function unreadable(source: string, reason: string, advice = 'Please give an OpenAPI 3 document (JSON or YAML) as a file or an http(s) URL'): RelayMockError {
  return new RelayMockError('OPENAPI_UNREADABLE', `Failed to read the OpenAPI document ${source}: ${reason}. ${advice}.`)
}
