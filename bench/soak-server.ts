// The server under soak, in a process of its own so that its resident memory is its own: it serves
// the mock as `relay-mock serve` does and reports to its parent (soak-process.ts).
import { createRelayService, type RelayServiceOptions } from '../src/core/service/mock.js'
import { devtools } from '../src/devtools/admin.js'
import { createServer } from '../src/node/server/server.js'
import { serveUnderSoak } from './soak-process.js'

const options = JSON.parse(process.argv[2] ?? '{}') as RelayServiceOptions
const service = await createRelayService({ ...options, extensions: [devtools()] })
await serveUnderSoak(createServer(service))
