// What a request says, read the same way by the rules (from the journal) and the ledger's checks (from
// the proxy's observations): the endpoint it named, the query parameters that endpoint documents, and the
// plate it carried. Its parsed body is the caller's (a journal entry's: entry.ts's bodyOf).
import { DOCUMENTED_QUERY } from '../service/handlers/index.js'
import { isRecord } from './answer.js'

/** A request as both the journal and the ledger hold it: the endpoint it named, its query, its parsed body. */
export interface RequestSent {
  /** The service's endpoint the request named (`POST /vehicles`), or null when it named none. */
  route: string | null
  /** The query parameters; a repeated name keeps its last value, as the service reads it. */
  query: Readonly<Record<string, string>>
  /** The body as parsed JSON, or undefined when it had none or it could not be read. */
  body: unknown
}

/** The plate a request carried, and where in it (for a message): the lookup's query, a vehicle's body, the simple body. */
export interface PlateSent {
  /** As sent: a string, or whatever JSON value the client put there. */
  plate: unknown
  where: "the query's plate" | "the body's plate" | 'vehicle.plate'
}

/**
 * The plate a request of the flows carried: `GET /vehicles`' query, `POST /vehicles`' body, `POST /payment`'s
 * `vehicle.plate`; undefined for another endpoint, or a body that is not an object.
 * @example plateSent({ route: 'GET /vehicles', query: { plate: 'AB123' }, body: undefined }) // { plate: 'AB123', where: "the query's plate" }
 */
export function plateSent({ route, query, body }: RequestSent): PlateSent | undefined {
  if (route === 'GET /vehicles') return { plate: query.plate, where: "the query's plate" }
  if (route === 'POST /vehicles' && isRecord(body)) return { plate: body.plate, where: "the body's plate" }
  if (route === 'POST /payment' && isRecord(body) && isRecord(body.vehicle))
    return { plate: body.vehicle.plate, where: 'vehicle.plate' }
  return undefined
}

/**
 * The names of the query parameters `route` documents, in the table's order; none for a route the table lacks.
 * @example documentedParameters('GET /vehicles') // ['plate']
 */
export function documentedParameters(route: string | null): readonly string[] {
  return (route === null ? undefined : DOCUMENTED_QUERY.get(route)) ?? []
}
