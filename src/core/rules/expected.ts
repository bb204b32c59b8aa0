// The calls the flow expects in a case, derived from the answers the mock gave (for the side-by-side
// diagram): an empty company list ends the flow, an empty vehicle list adds the two creations.
import { companyFacts, vehicleFacts } from './facts.js'
import type { CaseContext, ExpectedCall } from './types.js'

/**
 * The calls a correct client makes in this case, given what the mock answered.
 * @example expectedCalls({ flow: 'simple', requests: [] }) // [{ method: 'POST', path: '/payment', ... }]
 */
export function expectedCalls(context: CaseContext): ExpectedCall[] {
  return stopAtFailure(flowCalls(context), context)
}

/**
 * Where a call's last attempt failed (5xx), the flow ends there: retry that call (3 attempts in all
 * are enough) or stop; going on as if it had succeeded is what client.stops-on-failure forbids.
 */
function stopAtFailure(calls: ExpectedCall[], { requests }: CaseContext): ExpectedCall[] {
  for (let i = 0; i < calls.length; i++) {
    const id = `${calls[i].method} ${calls[i].path}`
    const attempts = requests.filter((entry) => entry.route === id)
    const last = attempts.at(-1)
    if (last && last.response.status >= 500) {
      calls[i] = {
        ...calls[i],
        note: `${calls[i].note ?? ''}; it answered ${last.response.status}: retry it (3 attempts in all are enough) or stop, and the customer's payment still completes`.replace(
          /^; /,
          '',
        ),
      }
      return calls.slice(0, i + 1)
    }
  }
  return calls
}

function flowCalls(context: CaseContext): ExpectedCall[] {
  const { flow, requests, visit } = context
  if (flow === 'simple')
    return [
      { method: 'POST', path: '/payment', note: 'the whole visit in one request; the answer has `id` when accepted' },
    ]

  const calls: ExpectedCall[] = [
    {
      method: 'GET',
      path: '/rental-companies',
      note: `look up the owner${visit ? ` ${visit.ownerKennitala}` : ''} by kennitala`,
    },
  ]
  const company = companyFacts(requests)
  if (company.kind === 'empty' || (company.kind === 'none' && context.outcome === 'skipped')) {
    calls[0].note = 'the owner is not part of the service (empty list): stop, no payment'
    return calls
  }
  if (company.kind === 'none' && context.outcome === undefined && requests.length === 0) {
    calls[0].note = 'look up the owner; what follows depends on the answer'
    return calls
  }
  calls.push({
    method: 'GET',
    path: '/vehicles',
    note: `the owner is a rental company: look up the vehicle${visit ? ` ${visit.plate}` : ''} by plate`,
  })
  const vehicles = vehicleFacts(requests)
  if (vehicles.kind === 'empty') {
    calls.push(
      { method: 'POST', path: '/vehicles', note: 'the plate is not known (empty list): create the vehicle' },
      { method: 'POST', path: '/custodians', note: 'link the new vehicle to the company from its registration date' },
    )
    calls.push({ method: 'POST', path: '/payments', note: 'pay for the new vehicle' })
  } else if (vehicles.kind === 'found') {
    calls.push({
      method: 'POST',
      path: '/payments',
      note: `pay for the first listed vehicle ${String(vehicles.vehicles[0].id)}`,
    })
  } else {
    calls.push({
      method: 'POST',
      path: '/payments',
      note: 'pay for the vehicle (after POST /vehicles and POST /custodians when GET /vehicles answers [])',
    })
  }
  return calls
}
