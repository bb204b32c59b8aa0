// When a case in flight is waiting on the service's deliberate delays: a request its fault holds (a
// hung or slow answer) is open, or a 503 or 429 told its client to come back later and it has not yet.
// Such a case costs a socket and a sleeping client, not a core: a fitted concurrency does not count it.
import type http from 'node:http'
import { waitAskedFor } from '../../core/exchange/entry.js'
import type { ArmedFault } from '../../core/service/faults.js'
import type { World } from '../../core/service/world.js'

/** How long past its Retry-After a told client counts as waiting, at most, if it never comes back. */
const GRACE_MS = 500

/**
 * Tells `onWait(+1)` as the case starts waiting and `onWait(-1)` as it stops; the returned function
 * ends the watch, settling any wait still open.
 * @example const stop = watchWaits(server, world, kase.faults, (delta) => (waiting += delta))
 */
export function watchWaits(
  server: http.Server,
  world: World,
  faults: ReadonlyArray<ArmedFault> | undefined,
  onWait: (delta: 1 | -1) => void,
): () => void {
  const held = (faults ?? [])
    .filter((fault) => fault.kind === 'hang' || fault.kind === 'slow')
    .map((fault) => fault.route.split(' ') as [string, string])
  let open = 0
  let told: NodeJS.Timeout | undefined
  const start = () => {
    open++
    onWait(1)
  }
  const end = () => {
    if (open === 0) return
    open--
    onWait(-1)
  }
  const endTold = () => {
    if (told === undefined) return
    clearTimeout(told)
    told = undefined
    end()
  }
  const onRequest = (request: http.IncomingMessage, response: http.ServerResponse) => {
    // The client is back: it no longer waits on a Retry-After.
    endTold()
    const path = (request.url ?? '').split('?')[0]
    if (!held.some(([method, route]) => request.method === method && path === route)) return
    start()
    response.once('close', end)
  }
  server.on('request', onRequest)
  const unsubscribe = world.journal.subscribe((entry) => {
    const after = waitAskedFor(entry)
    if (!after || told !== undefined) return
    start()
    told = setTimeout(endTold, after.ms + GRACE_MS)
    told.unref()
  })
  return () => {
    server.off('request', onRequest)
    unsubscribe()
    if (told !== undefined) clearTimeout(told)
    told = undefined
    while (open > 0) end()
  }
}
