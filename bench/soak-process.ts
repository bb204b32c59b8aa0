// What each process under soak does once it serves (the mock in soak-server.ts, the proxy in
// soak-proxy.ts): it tells its parent where it listens, answers each 'rss' message with its resident
// memory and each 'memory' message with its RSS and its heap after a collection (it runs with
// --expose-gc), and ends when its parent lets go.
import type { Server } from 'node:http'
import { listen } from '../src/node/server/server.js'

/** Listens on a free loopback port and reports to the parent process. */
export async function serveUnderSoak(server: Server): Promise<void> {
  const baseUrl = await listen(server, { port: 0, host: '127.0.0.1' })
  process.send!({ baseUrl })
  process.on('message', (message) => {
    if (message === 'rss') process.send!({ rss: process.memoryUsage().rss })
    if (message === 'memory') {
      // Twice: the first collection may only queue what the second frees (weak references, finalizers).
      globalThis.gc?.()
      globalThis.gc?.()
      const { rss, heapUsed } = process.memoryUsage()
      process.send!({ memory: { rss, heapUsed } })
    }
  })
  process.on('disconnect', () => process.exit(0))
}
