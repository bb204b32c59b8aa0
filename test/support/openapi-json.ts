// relay-mock's OpenAPI documents as plain JSON, for the tests that edit them into what the typed model
// (src/core/openapi/model.ts) does not describe, a $ref in place of a schema or of a path, or that read
// deep into them by paths they know are there.
import { toOpenApi } from '../../src/core/openapi/documents.js'

/**
 * A copy of one published document, to edit or read freely.
 * @example openApiJson('simple').paths['/payment'].post.requestBody.content['application/json'].schema
 */
export function openApiJson(integration: 'advanced' | 'simple'): any {
  return structuredClone(toOpenApi(integration))
}
