// Faults a scenario injects: the service failing a request on purpose, so that what a client does
// after a failed call can be checked. The count already answered lives in the world, so a reset
// re-arms the faults and two worlds never share them.
import { toProblem, type Reply } from './problems.js'
import { statusText } from './status.js'
import type { World } from './world.js'

/**
 * The scenario's fault for a request to `route` while one is still due (and counts it), else undefined.
 * @example injectedFault(world, 'POST /payments') // a 503 problem the first time in payment-unavailable, then undefined
 */
export function injectedFault(world: World, route: string): Reply | undefined {
  const fault = world.scenario.faults?.find((f) => f.route === route && (world.faultsAnswered.get(f) ?? 0) < f.times)
  if (!fault) return undefined
  world.faultsAnswered.set(fault, (world.faultsAnswered.get(fault) ?? 0) + 1)
  const what = fault.status === 503 ? 'The service is unavailable just now' : `The service failed (${fault.status} ${statusText(fault.status) || 'Error'})`
  const which = fault.times === 1 ? `the first ${route}` : `the first ${fault.times} ${route} requests`
  const message = `${what} (scenario ${world.scenario.name} injects this on ${which}). Please try again later; the customer's payment still completes.`
  // A client that retries is told when; one second keeps a conformance run quick.
  return toProblem(fault.status, message, undefined, fault.status === 503 || fault.status === 429 ? { 'retry-after': '1' } : undefined)
}
