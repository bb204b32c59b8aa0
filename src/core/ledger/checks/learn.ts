// What an answer teaches the ledger's checks about later answers in its world (memory.ts holds it).
import { normalizePlate } from '../../service/schemas.js'
import { isRecord as isObject, isSuccess } from '../../exchange/answer.js'
import { plateSent } from '../../exchange/request.js'
import { CREATES, json, location, type Observed } from './observed.js'
import type { Memory } from './memory.js'

/** The lookups whose items are records with a link of their own, `<path>/<id>`. */
const LISTS = new Set(['GET /rental-companies', 'GET /vehicles'])

/**
 * What an answer teaches about later ones in its world: an owner the service does not know (an empty
 * GET /rental-companies), each link a create handed out (its `link` and `Location`), and the link of
 * each record a lookup listed (`/vehicles/<id>`, `/rental-companies/<id>`): a record the service has
 * just shown exists, so a 404 to its link says the link cannot be fetched.
 */
export function learn(o: Observed, memory: Memory): void {
  const body = json(o)
  if (o.route === 'GET /rental-companies' && o.status === 200 && Array.isArray(body) && o.query.kennitala) {
    if (body.length === 0) memory.unknownOwners.add(o.query.kennitala)
    else memory.unknownOwners.delete(o.query.kennitala)
  }
  if (o.route && LISTS.has(o.route) && o.status === 200 && Array.isArray(body)) {
    for (const item of body)
      if (isObject(item) && typeof item.id === 'string' && /^[\w-]{1,100}$/.test(item.id))
        memory.links.add(`${o.path}/${item.id}`)
  }
  const plates =
    o.route === 'GET /vehicles' && o.status === 200 && Array.isArray(body)
      ? body.map((item) => (isObject(item) ? item.plate : undefined))
      : o.route === 'POST /vehicles' && isSuccess(o.status)
        ? [plateSent(o)?.plate]
        : []
  for (const plate of plates) {
    if (typeof plate !== 'string') continue
    memory.plates.add(plate)
    memory.platesMatched.add(normalizePlate(plate))
  }
  if (o.route && CREATES.has(o.route) && isSuccess(o.status)) {
    if (isObject(body) && typeof body.link === 'string') memory.links.add(body.link)
    const link = location(o)
    if (link?.startsWith('/')) memory.links.add(link)
  }
}
