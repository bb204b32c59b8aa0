// The ledger's check of `request.refusals` (see ../assumptions/): what in an answer confirms or contradicts
// relay-mock's choice, and which alternative the service made instead.
import { KNOWN_SLIPS, resolveRoute, SERVICE_TABLE } from '../../service/protocol.js'
import { isSuccess } from '../../exchange/answer.js'
import { confirmed, contradicted, silent, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `request.refusals`, or undefined when it says nothing of it. */
export function requestRefusals(o: Observed): CheckVerdict | undefined {
  // A path or method the service lacks (the slips have assumptions of their own), or a body it cannot read.
  if (silent(o.status)) return undefined
  const slip = KNOWN_SLIPS.some(
    (known) => known.path === o.path && (known.method === undefined || known.method === o.method),
  )
  let expected: number | undefined
  if (!o.route && !slip) {
    const found = resolveRoute(SERVICE_TABLE, o.method, o.path)
    if ('reply' in found && (found.reply.status === 404 || found.reply.status === 405)) expected = found.reply.status
  } else if (o.route && o.bodyError !== undefined) {
    expected = o.bodyError.status
  }
  if (expected === undefined) return undefined
  const what = `${expected}`
  if (o.status === expected) return confirmed(what, String(o.status))
  if (o.status === 400) return contradicted(what, '400', '400-all')
  if (isSuccess(o.status) && o.bodyError !== undefined)
    return contradicted(
      what,
      `${o.status} (the body was read anyway)`,
      o.bodyError.status === 415 ? 'json-without-content-type' : undefined,
    )
  return contradicted(what, String(o.status))
}
