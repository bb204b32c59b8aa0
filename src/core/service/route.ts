// The route table's shape: each endpoint is defined once, with the schemas that validate its
// query and body, the answers it documents, and its handler. Both transports and the OpenAPI
// documents are generated from the same table.
import type { z } from 'zod'
import { toProblem, type Reply } from './problems.js'
import { created, problem } from './schemas.js'
import type { World } from './world.js'

export type Integration = 'advanced' | 'simple' | 'links' | 'admin'

export interface RouteContext<Query, Body> {
  world: World
  params: Record<string, string>
  query: Query
  body: Body
  /** The request's headers, names in lower case (set for admin routes: the live page reads Accept and Host). */
  headers?: Record<string, string | string[] | undefined>
  /** Set for an admin route called with the admin token (`serve --admin-token`): it may show every world. */
  admin?: boolean
}

export interface Answer {
  description: string
  schema?: z.ZodType
  /** The media type the answer is sent as (default: application/json, or application/problem+json for a problem). */
  mediaType?: string
  /** Headers the answer carries, by name, with what they say. */
  headers?: Record<string, string>
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Route<Query = unknown, Body = unknown, Id extends string = string> {
  method: Method
  /** A path with `:name` parameters, e.g. `/vehicles/:id`. */
  path: string
  /** `METHOD /path`: the endpoint's stable name in the journal, the rules and the docs. */
  id: Id
  integration: Integration
  summary: string
  query?: z.ZodType<Query>
  body?: z.ZodType<Body>
  /**
   * The answers the handler itself gives, by status, for the OpenAPI documents: the pipeline's own
   * (the token, the body, the schemas, the faults) are protocol.ts's `pipelineAnswers`, and a fault that
   * breaks the handler's answer (`garbage`) breaks each of these.
   */
  answers: Record<number, Answer>
  /** An admin route answered without a token (it shows no world): the OpenAPI documents, the admin index. */
  public?: boolean
  /** Answers a request whose query and body have passed their schemas. */
  handle(context: RouteContext<Query, Body>): Reply | Promise<Reply>
  /** Answers a request whose body failed its schema, or that the service refused before its handler (default: the problem). */
  refuse?(context: { world: World; reply: Reply }): Reply
  /** The schema of what `refuse` answers (the OpenAPI documents list it for every refusal). */
  refusal?: z.ZodType
}

/**
 * Defines one endpoint.
 * @example
 * defineRoute({ method: 'GET', path: '/vehicles', query: z.object({ plate }), handle: ({ world, query }) => ... })
 */
export function defineRoute<Query = undefined, Body = undefined, M extends Method = Method, P extends string = string>(
  route: Omit<Route<Query, Body>, 'id' | 'method' | 'path'> & { method: M; path: P },
): Route<Query, Body, `${M} ${P}`> {
  return { ...route, id: `${route.method} ${route.path}` }
}

/**
 * GET /<resource>/:id: every `link` the service hands out can be fetched.
 * @example linkRoute('vehicles', 'vehicle', vehicle, (world, id) => world.store.vehicles.byId(id), toVehicle)
 */
export function linkRoute<T>(
  resource: string,
  noun: string,
  schema: z.ZodType,
  find: (world: World, id: string) => T | undefined,
  toBody: (record: T) => unknown,
): Route<undefined, undefined, `GET /${string}/:id`> {
  return defineRoute({
    method: 'GET',
    path: `/${resource}/:id`,
    integration: 'links',
    summary: `Fetch one ${noun}`,
    answers: { 200: { description: `The ${noun}`, schema }, 404: { description: `No such ${noun}`, schema: problem } },
    handle({ world, params }) {
      const found = find(world, params.id)
      return found ? { status: 200, body: toBody(found) } : toProblem(404, `No ${noun} has the id ${params.id}.`)
    },
  })
}

/**
 * The documented 201 of a create, as createdReply sends it: `{ id, link }` and its Location.
 * @example createdAnswer('vehicles').headers // { Location: "The created record's link, /vehicles/<id> (the body's `link`)" }
 */
export function createdAnswer(resource: string, description = 'Created'): Answer {
  return {
    description,
    schema: created(resource),
    headers: { Location: `The created record's link, /${resource}/<id> (the body's \`link\`)` },
  }
}

/** A 201 answer for a created record: `{ id, link }` and its Location. */
export function createdReply(resource: string, id: string): Reply {
  const link = `/${resource}/${id}`
  return { status: 201, body: { id, link }, headers: { location: link } }
}
