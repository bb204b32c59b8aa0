// The ledger's check of `simple.unknown-owner` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject } from '../../exchange/answer.js'
import { SIMPLE, confirmed, contradicted, json, silent, type CheckVerdict, type Observed } from './observed.js'
import type { Memory } from './memory.js'

/** The verdict an answer gives `simple.unknown-owner`, or undefined when it says nothing of it. */
export function simpleUnknownOwner(o: Observed, memory: Memory): CheckVerdict | undefined {
  const owner = isObject(o.body) && isObject(o.body.vehicle) ? o.body.vehicle.owner : undefined
  if (o.route !== SIMPLE || typeof owner !== 'string' || !memory.unknownOwners.has(owner)) return undefined
  if (silent(o.status)) return undefined
  const body = json(o)
  const expected = `refused (no id): ${owner} is no rental company (GET /rental-companies answered [])`
  if (isObject(body) && body.id !== undefined)
    return contradicted(
      expected,
      `${o.status} with id ${typeof body.id === 'string' ? body.id : JSON.stringify(body.id)}`,
      'accepted',
    )
  return confirmed(expected, `${o.status} without id`)
}
