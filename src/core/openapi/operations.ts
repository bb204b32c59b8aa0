// The operations of a document, each keyed so that the service's and relay-mock's meet: by method and path,
// its parameters unnamed, with a base path written into every path taken off.
import {
  HTTP_METHODS,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ResponseObject,
} from './model.js'

export type Integration = 'advanced' | 'simple'

export interface Operation {
  method: string
  path: string
  /** METHOD and path with its parameters unnamed, to match `/vehicles/{id}` with `/vehicles/{vehicleId}`. */
  key: string
  op: OperationObject
  integration?: Integration
}

export const JSON_MEDIA = 'application/json'

/** @example operationsOf(toOpenApi('simple'), 'simple')[0].key // 'POST /payment' */
export function operationsOf(document: OpenApiDocument, integration?: Integration): Operation[] {
  const ops: Operation[] = []
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method]
      if (op && typeof op === 'object')
        ops.push({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${keyOf(path)}`, op, integration })
    }
  }
  return ops
}

/** @example keyOf('/vehicles/{id}/') // '/vehicles/{}' */
const keyOf = (path: string): string => path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '') || '/'
export const sameKey = (a: string, b: string): boolean => keyOf(a) === keyOf(b)
/** A GET of one record by its id: a link a create answers. */
export const isLink = (op: Operation): boolean => op.method === 'GET' && op.path.includes('{')

/** @example basePathOf({ openapi: '3.0.3', servers: [{ url: 'https://x.is/api/' }] }) // '/api' */
export function basePathOf(document: OpenApiDocument): string | undefined {
  const url = document?.servers?.[0]?.url
  if (typeof url !== 'string') return undefined
  try {
    const path = new URL(url, 'http://relay-mock.invalid').pathname.replace(/\/+$/, '')
    return path || undefined
  } catch {
    return undefined
  }
}

/**
 * The service's operations with a leading path prefix removed when its paths carry one that relay-mock's
 * lack (`/api/v1/vehicles` for `/vehicles`): the prefix is a base path written into every path.
 */
export function stripPrefix(ops: Operation[], ours: Operation[], source: string, notes: string[]): Operation[] {
  const known = new Set(ours.map((op) => op.key))
  if (ops.length === 0 || ops.some((op) => known.has(op.key))) return ops
  const segments = ops[0].path.split('/').filter(Boolean)
  for (let n = 1; n < segments.length; n++) {
    const prefix = `/${segments.slice(0, n).join('/')}`
    if (!ops.every((op) => op.path.startsWith(`${prefix}/`))) break
    const stripped = ops.map((op) => {
      const path = op.path.slice(prefix.length)
      return { ...op, path, key: `${op.method} ${keyOf(path)}` }
    })
    if (stripped.some((op) => known.has(op.key))) {
      notes.push(`${source}: every path starts with ${prefix}, a base path: compared without it.`)
      return stripped
    }
  }
  return ops
}

/** A media type without its parameters, lower case. @example bare('application/json; charset=utf-8') // 'application/json' */
export const bare = (media: string): string => media.split(';')[0].trim().toLowerCase()

/** The entry of a content map for a media type, whatever parameters the document wrote on it. */
export function contentOf(content: Record<string, MediaTypeObject>, media: string): MediaTypeObject | undefined {
  const found = Object.keys(content).find((m) => bare(m) === media)
  return found ? content[found] : undefined
}

/** A response's header, by name in any case. */
export function headerOf(response: ResponseObject | undefined, name: string): unknown {
  const headers = response?.headers ?? {}
  const found = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase())
  return found ? headers[found] : undefined
}

/** The first line of a description, without a list's dash. */
export const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0].replace(/^- /, '')
