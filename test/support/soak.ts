// The soak's processes for a describe block: relay-mock's soak server and a relay-mock proxy in front of
// it, each in a process of its own (bench/soak.ts), started before its tests and stopped after them.
import { afterAll, beforeAll } from 'vitest'
import { startProxy, startServer, type Served } from '../../bench/soak.js'

/**
 * Starts the upstream and the proxy before the block's tests and stops both after them.
 * @example const processes = proxiedSoak(); it('…', () => runFuzz({ server: processes.proxy(), upstream: processes.upstream() }))
 */
export function proxiedSoak(): { upstream: () => Served; proxy: () => Served } {
  let upstream: Served
  let proxy: Served
  beforeAll(async () => {
    upstream = await startServer()
    proxy = await startProxy(upstream)
  })
  afterAll(async () => {
    await proxy.stop()
    await upstream.stop()
  })
  return { upstream: () => upstream, proxy: () => proxy }
}
