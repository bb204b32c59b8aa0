// The published OpenAPI 3 documents, generated from the route table and its zod schemas: the
// same schemas that validate requests, so the documents cannot drift from the mock.
import { z } from 'zod'
import { serviceRoutes } from '../service/handlers/index.js'
import { PATH_ANSWERS, pipelineAnswers, PROBLEM_JSON, type PipelineAnswer } from '../service/protocol.js'
import type { Route } from '../service/route.js'
import { answerAssumptions } from '../ledger/docs.js'
import {
  ASSUMPTION_EXTENSION,
  FAULT_EXTENSION,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
  type SchemaObject,
} from './model.js'

export { FAULT_EXTENSION } from './model.js'

const cache = new Map<string, OpenApiDocument>()

/** What the answers of a path rather than an operation rest on: the interface's two slips among them. */
const PATH_ASSUMPTIONS: Record<keyof typeof PATH_ANSWERS, string[]> = {
  MethodNotAllowed: ['slip.method', 'request.refusals', 'error.body'],
  UnknownPath: ['slip.path', 'request.refusals', 'error.body'],
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): SchemaObject => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
    io,
    reused: 'inline',
  })
  return json as SchemaObject
}

/**
 * The OpenAPI 3.0 document of one integration (the advanced one includes the record links).
 * @example toOpenApi('simple').paths['/payment'].post
 */
export function toOpenApi(integration: 'advanced' | 'simple'): OpenApiDocument {
  const cached = cache.get(integration)
  if (cached) return cached
  const routes = serviceRoutes.filter(
    (r) => r.integration === integration || (integration === 'advanced' && r.integration === 'links'),
  )
  const paths: Record<string, Record<string, OperationObject>> = {}
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    ;(paths[path] ??= {})[route.method.toLowerCase()] = operation(route)
  }
  const document: OpenApiDocument = {
    openapi: '3.0.3',
    info: {
      title: `Vehicle Visit Payment Relay Service: ${integration} integration`,
      version: '1.0.0',
      description:
        integration === 'advanced'
          ? 'Look up the rental company by kennitala, the vehicle by plate, create the vehicle and its custodian when missing, then create the payment.'
          : 'Report a paid visit in one request; the answer carries `id` when the payment was recorded and a `message` when it was refused.',
    },
    servers: [{ url: '/', description: 'relay-mock' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API token>' } },
      // What a path answers rather than an operation: a method it lacks, or a path no operation has.
      responses: Object.fromEntries(
        Object.entries(PATH_ANSWERS).map(([name, answer]) => [
          name,
          { ...response([answer]), [ASSUMPTION_EXTENSION]: PATH_ASSUMPTIONS[name as keyof typeof PATH_ANSWERS] },
        ]),
      ),
    },
    paths,
  }
  cache.set(integration, document)
  return document
}

function operation(route: Route): OperationObject {
  const parameters: ParameterObject[] = []
  for (const match of route.path.matchAll(/:(\w+)/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string', format: 'uuid' } })
  }
  if (route.query instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = route.query.shape
    for (const [name, schema] of Object.entries(shape)) {
      const json = toSchema(schema, 'input')
      parameters.push({
        name,
        in: 'query',
        required: !schema.safeParse(undefined).success,
        description: json.description,
        schema: json,
      })
    }
  }
  // The handler's answers and every answer the pipeline adds (auth, body, schemas, faults), by status.
  const answers: PipelineAnswer[] = [
    ...Object.entries(route.answers).map(([status, answer]) => ({ ...answer, status: Number(status) })),
    ...pipelineAnswers(route),
  ]
  const statuses = [...new Set(answers.map((answer) => answer.status))].sort((a, b) => a - b)
  const responses = Object.fromEntries(
    statuses.map((status) => {
      // Where the interface is silent, the answer is relay-mock's choice: say which (see assumptions.ts).
      const assumptions = answerAssumptions({ route, status })
      return [
        String(status),
        {
          ...response(
            answers.filter((answer) => answer.status === status),
            route,
          ),
          ...(assumptions.length > 0 ? { [ASSUMPTION_EXTENSION]: assumptions } : {}),
        },
      ]
    }),
  )
  return {
    operationId: route.id.replace(/[^a-zA-Z]+(\w)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')),
    summary: route.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
      : {}),
    responses,
  }
}

/**
 * One status's response object from every answer of that status: each media type with its schema (two
 * schemas sent as one type are either), each header (required when every answer sends it), and the
 * descriptions, one a line when they differ.
 */
function response(answers: ReadonlyArray<PipelineAnswer>, route?: Route): ResponseObject {
  const descriptions = [...new Set(answers.map((answer) => answer.description))]
  const content: Record<string, z.ZodType[]> = {}
  /** The answers of each media type, for the faults they come from. */
  const byMedia: Record<string, PipelineAnswer[]> = {}
  const headers: Record<string, { descriptions: string[]; count: number }> = {}
  for (const answer of answers) {
    const mediaType = answer.mediaType ?? (answer.status >= 400 && !route?.refuse ? PROBLEM_JSON : 'application/json')
    ;(byMedia[mediaType] ??= []).push(answer)
    if (answer.schema && !(content[mediaType] ??= []).includes(answer.schema)) content[mediaType].push(answer.schema)
    for (const [name, description] of Object.entries(answer.headers ?? {})) {
      const header = (headers[name] ??= { descriptions: [], count: 0 })
      header.count++
      if (!header.descriptions.includes(description)) header.descriptions.push(description)
    }
  }
  const faulted = faultsOf(answers)
  return {
    description: descriptions.length === 1 ? descriptions[0] : descriptions.map((d) => `- ${d}`).join('\n'),
    ...(faulted ? { [FAULT_EXTENSION]: faulted } : {}),
    ...(Object.keys(headers).length
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, { descriptions, count }]) => [
              name,
              { description: descriptions.join('; '), required: count === answers.length, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    ...(Object.keys(content).length
      ? {
          content: Object.fromEntries(
            Object.entries(content).map(([mediaType, schemas]) => {
              // Marked here only when the response is not marked as a whole.
              const faults = faulted ? undefined : faultsOf(byMedia[mediaType])
              const schema =
                schemas.length === 1
                  ? toSchema(schemas[0], 'output')
                  : { anyOf: schemas.map((one) => toSchema(one, 'output')) }
              const entry: MediaTypeObject = { schema, ...(faults ? { [FAULT_EXTENSION]: faults } : {}) }
              return [mediaType, entry]
            }),
          ),
        }
      : {}),
  }
}

/** The faults the answers come from when every one comes from a fault; undefined when any is the service's own. */
function faultsOf(answers: ReadonlyArray<PipelineAnswer>): string[] | undefined {
  if (answers.length === 0 || answers.some((answer) => !answer.fault)) return undefined
  return [...new Set(answers.map((answer) => answer.fault!))]
}
