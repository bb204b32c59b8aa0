// The published OpenAPI 3 documents, generated from the route table and its zod schemas: the
// same schemas that validate requests, so the documents cannot drift from the mock.
import { z } from 'zod'
import { serviceRoutes } from './handlers/index.js'
import { pipelineAnswers, PROBLEM_JSON } from './protocol.js'
import type { Answer, Route } from './route.js'

const cache = new Map<string, object>()

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): any => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io, reused: 'inline' })
  return json
}

/**
 * The OpenAPI 3.0 document of one integration (the advanced one includes the record links).
 * @example toOpenApi('simple').paths['/payment'].post
 */
export function toOpenApi(integration: 'advanced' | 'simple'): any {
  const cached = cache.get(integration)
  if (cached) return cached
  const routes = serviceRoutes.filter((r) => r.integration === integration || (integration === 'advanced' && r.integration === 'links'))
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    ;(paths[path] ??= {})[route.method.toLowerCase()] = operation(route)
  }
  const document = {
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
    },
    paths,
  }
  cache.set(integration, document)
  return document
}

function operation(route: Route<any, any>) {
  const parameters: object[] = []
  for (const match of route.path.matchAll(/:(\w+)/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string', format: 'uuid' } })
  }
  if (route.query instanceof z.ZodObject) {
    for (const [name, schema] of Object.entries(route.query.shape as Record<string, z.ZodType>)) {
      const json = toSchema(schema, 'input')
      parameters.push({ name, in: 'query', required: !schema.safeParse(undefined).success, description: json.description, schema: json })
    }
  }
  // The handler's answers, then every answer the pipeline adds (auth, body, schemas, faults).
  const answers: Record<string, Answer> = { ...pipelineAnswers(route), ...route.answers }
  const responses: Record<string, object> = {}
  for (const status of Object.keys(answers).sort()) {
    const answer = answers[status]
    const mediaType = answer.mediaType ?? (Number(status) >= 400 && !route.refuse ? PROBLEM_JSON : 'application/json')
    responses[status] = {
      description: answer.description,
      ...(answer.headers ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) } : {}),
      ...(answer.schema ? { content: { [mediaType]: { schema: toSchema(answer.schema, 'output') } } } : {}),
    }
  }
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
