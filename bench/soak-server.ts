// The server under soak, in a process of its own so that its resident memory is its own: it serves
// the mock as `relay-mock serve` does, tells its parent where, and answers each 'rss' message with it and
// each 'memory' message with its RSS and its heap after a collection (it runs with --expose-gc).
import { createRelayService, type RelayServiceOptions } from '../src/core/mock.js'
import { devtools } from '../src/devtools/admin.js'
import { createServer, listen } from '../src/node/server.js'

const options = JSON.parse(process.argv[2] ?? '{}') as RelayServiceOptions
const service = await createRelayService({ ...options, extensions: [devtools()] })
const baseUrl = await listen(createServer(service), { port: 0, host: '127.0.0.1' })
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
