// The ledger's check of `plate.format` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { isRecord as isObject } from '../../exchange/answer.js'
import { normalizePlate } from '../../service/schemas.js'
import { plateSent } from '../../exchange/request.js'
import { confirmed, contradicted, json, type CheckVerdict, type Observed } from './observed.js'
import type { Memory } from './memory.js'

/** The verdict an answer gives `plate.format`, or undefined when it says nothing of it. */
export function plateFormat(o: Observed, memory: Memory): CheckVerdict | undefined {
  const asked = plateSent(o)?.plate
  const body = json(o)
  if (o.route !== 'GET /vehicles' || o.status !== 200 || typeof asked !== 'string' || !asked || !Array.isArray(body))
    return undefined
  // A plate the service holds, asked for written otherwise, and not found: it matches plates as sent.
  if (body.length === 0 && !memory.plates.has(asked) && memory.platesMatched.has(normalizePlate(asked))) {
    return contradicted(
      'plates matched without regard to case, spaces or hyphens',
      `${JSON.stringify(asked)} found nothing, where the service holds the plate written otherwise`,
      'exact-match',
    )
  }
  // Seen only when the service matched a plate written otherwise (case, spaces, hyphens).
  const listed: unknown[] = body
  const otherwise = listed.find(
    (item) =>
      isObject(item) &&
      typeof item.plate === 'string' &&
      item.plate !== asked &&
      normalizePlate(item.plate) === normalizePlate(asked),
  )
  if (!otherwise) return undefined
  return confirmed(
    'plates matched without regard to case, spaces or hyphens',
    `${JSON.stringify(asked)} found ${JSON.stringify((otherwise as { plate: string }).plate)}`,
  )
}
