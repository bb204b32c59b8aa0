// The ledger's check of `vehicles.several` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { plateSent } from '../../exchange/request.js'
import { confirmed, json, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `vehicles.several`, or undefined when it says nothing of it. */
export function vehiclesSeveral(o: Observed): CheckVerdict | undefined {
  const body = json(o)
  if (o.route !== 'GET /vehicles' || o.status !== 200 || !Array.isArray(body) || body.length < 2) return undefined
  return confirmed(
    'several active vehicles may share a plate',
    `${body.length} vehicles for ${JSON.stringify(plateSent(o)?.plate ?? '')}`,
  )
}
