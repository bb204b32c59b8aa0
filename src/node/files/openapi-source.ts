// Reads a published OpenAPI 3 document from a file or an http(s) URL, with the files its $refs name, and
// validates it against the OpenAPI schemas and resolves its $refs with @seriousme/openapi-schema-validator
// (loaded only when a document is read). Anything that stops a document from being compared is a
// RelayMockError whose message is one line naming the document.
import type { ServiceDocument } from '../../core/openapi/compare.js'
import type { OpenApiDocument } from '../../core/openapi/model.js'
import { importExternal } from '../../core/import-external.js'
import { locate, load, parsed, Unread, type Json } from './openapi-source/read.js'
import { unreadable, validationProblem } from './openapi-source/messages.js'
import { firstOf, inResolvingOrder, readReferenced } from './openapi-source/refs.js'

export { OPENAPI_MAX_FILES } from './openapi-source/refs.js'

/** How long a URL may take to answer before its document counts as unreadable. */
export const OPENAPI_FETCH_TIMEOUT_MS = 10_000

export interface ReadOpenApiOptions {
  /** Milliseconds each URL may take, the document's and those its $refs name (default OPENAPI_FETCH_TIMEOUT_MS). */
  timeoutMs?: number
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
