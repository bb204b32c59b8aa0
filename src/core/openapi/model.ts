// The part of an OpenAPI 3 document that relay-mock writes (documents.ts) and compares (compare.ts):
// paths, operations, parameters, bodies, answers and the JSON Schema of their fields. A service's document
// comes in validated against the OpenAPI schemas and with its $refs resolved (src/node/files/openapi-source.ts),
// so it has this shape; what OpenAPI lets a document leave out is optional here too.

/** The extension naming the ids of the assumption ledger an answer rests on (`relay-mock assumptions` lists them). */
export const ASSUMPTION_EXTENSION = 'x-relay-assumption'
/**
 * The extension naming the faults an answer (a response, or one media type of it) comes from when it comes
 * only from faults relay-mock injects: its test tools, which `relay-mock compare` does not hold against a
 * service's document that leaves them out.
 */
export const FAULT_EXTENSION = 'x-relay-fault'

/** A field's JSON Schema, as far as relay-mock reads it (OpenAPI 3.1 allows a list of types). */
export interface SchemaObject {
  type?: string | string[]
  format?: string
  pattern?: string
  description?: string
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, SchemaObject>
  required?: string[]
  items?: SchemaObject
  allOf?: SchemaObject[]
  anyOf?: SchemaObject[]
  oneOf?: SchemaObject[]
}

export interface MediaTypeObject {
  schema?: SchemaObject
  [FAULT_EXTENSION]?: string[]
}

export interface HeaderObject {
  description?: string
  required?: boolean
  schema?: SchemaObject
}

export interface ResponseObject {
  description?: string
  headers?: Record<string, HeaderObject>
  content?: Record<string, MediaTypeObject>
  [FAULT_EXTENSION]?: string[]
  [ASSUMPTION_EXTENSION]?: string[]
}

export interface ParameterObject {
  name: string
  in: 'query' | 'header' | 'path' | 'cookie'
  required?: boolean
  description?: string
  schema?: SchemaObject
}

export interface RequestBodyObject {
  required?: boolean
  content: Record<string, MediaTypeObject>
}

export interface OperationObject {
  operationId?: string
  summary?: string
  parameters?: ParameterObject[]
  requestBody?: RequestBodyObject
  /** By status (`'201'`), or `default`. */
  responses?: Record<string, ResponseObject>
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>

export interface OpenApiDocument {
  openapi: string
  info?: { title: string; version: string; description?: string }
  servers?: Array<{ url: string; description?: string }>
  security?: Array<Record<string, string[]>>
  components?: {
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>
    responses?: Record<string, ResponseObject>
  }
  paths?: Record<string, PathItemObject>
}

/** The names the package exports for the parts of a document (`relay-mock`'s types). */
export type OpenApiOperation = OperationObject
export type OpenApiResponse = ResponseObject
export type OpenApiMedia = MediaTypeObject
export type OpenApiParameter = ParameterObject
export type JsonSchema = SchemaObject
