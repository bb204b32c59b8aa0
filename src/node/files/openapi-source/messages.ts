// The wording of a document that cannot be compared: one line naming the document, why, and what to do;
// the validator's complaint put in a few words, and the $refs it names told apart.
import { RelayMockError } from '../../../core/errors.js'
import type { Json } from './read.js'

interface AjvError {
  instancePath?: string
  message?: string
  /** Ajv names the property a schema does not allow. */
  params?: { additionalProperty?: string }
}

/** A file a $ref names, read, under the URI the validator knows it by. */
export interface Part {
  /** The file's URL, decoded as the validator decodes a $ref. */
  id: string
  document: Json
  /** Its path, or its URL, for the messages. */
  name: string
}

/** The files a document's $refs name, and what the messages need to tell its $refs apart. */
export interface Referenced {
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

/** The validator's complaint in a few words: the error deepest in the document (the others are its consequences). */
export function validationProblem(errors: unknown, referenced?: Referenced): string {
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

export function unreadable(
  source: string,
  reason: string,
  advice = 'Please give an OpenAPI 3 document (JSON or YAML) as a file or an http(s) URL',
): RelayMockError {
  return new RelayMockError(
    'OPENAPI_UNREADABLE',
    `Failed to read the OpenAPI document ${source}: ${reason}. ${advice}.`,
  )
}
