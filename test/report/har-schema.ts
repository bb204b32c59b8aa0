// A validator of HAR 1.2 from the har-schema package (draft-06 schemas with a few non-standard keywords).
import Ajv from 'ajv'
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' }
import harSchemas from 'har-schema'

export function harValidator() {
  // Formats are not checked (ajv needs a plugin for them); startedDateTime has a pattern of its own.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true })
  ajv.addMetaSchema(draft06)
  for (const [name, schema] of Object.entries(harSchemas as Record<string, object>)) if (name !== 'har') ajv.addSchema(schema)
  return ajv.compile(harSchemas.har)
}
