// A validator of HAR 1.2 from the har-schema package (draft-06 schemas with a few non-standard keywords).
import { Ajv } from 'ajv'
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' }
// har-schema ships no types: it is a map of JSON schemas by name.
// @ts-expect-error no declaration file
import harSchemasUntyped from 'har-schema'

const harSchemas = harSchemasUntyped as Record<string, object> & { har: object }

export function harValidator() {
  // Formats are not checked (ajv needs a plugin for them); startedDateTime has a pattern of its own.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true })
  ajv.addMetaSchema(draft06)
  for (const [name, schema] of Object.entries(harSchemas as Record<string, object>))
    if (name !== 'har') ajv.addSchema(schema)
  return ajv.compile(harSchemas.har)
}
