// The shape of the OpenAPI 3.0 documents relay-mock publishes (documents.ts writes them): what each level
// holds, so that a reader of toOpenApi()'s answer knows what it may read. Schemas are JSON Schema, as zod
// writes them.
import type { z } from 'zod'

/** A JSON Schema, as zod's toJSONSchema writes it (OpenAPI 3.0's dialect). */
export type JsonSchema = z.core.JSONSchema.BaseSchema

/** The extensions relay-mock adds to a response or a media type: `x-relay-assumption`, `x-relay-fault`. */
export type Extensions = { [name: `x-${string}`]: string[] | undefined }

/** One media type of a response or a request body. */
export interface OpenApiMedia extends Extensions {
  schema: JsonSchema
}

/** One response: its description, the headers it sends and its media types. */
export interface OpenApiResponse extends Extensions {
  description: string
  headers?: Record<string, { description: string; required: boolean; schema: JsonSchema }>
  content?: Record<string, OpenApiMedia>
}

/** A path or query parameter. */
export interface OpenApiParameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  description?: string
  schema: JsonSchema
}

/** One operation: a method of a path. */
export interface OpenApiOperation {
  operationId: string
  summary: string
  parameters?: OpenApiParameter[]
  requestBody?: { required: boolean; content: Record<string, OpenApiMedia> }
  responses: Record<string, OpenApiResponse>
}

/**
 * An OpenAPI 3.0 document of one integration.
 * @example toOpenApi('simple').paths['/payment'].post.responses['201']
 */
export interface OpenApiDocument {
  openapi: '3.0.3'
  info: { title: string; version: string; description: string }
  servers: { url: string; description: string }[]
  security: Record<string, string[]>[]
  components: {
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>
    responses: Record<string, OpenApiResponse>
  }
  paths: Record<string, Record<string, OpenApiOperation>>
}
