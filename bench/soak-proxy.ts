// The proxy under `npm run soak -- --proxy`, in a process of its own so that its resident memory is its
// own: it forwards to the soak's server as `relay-mock proxy --upstream URL` does (the forwarder, the
// assumption ledger on every answer, the dev tools), with the soak's caps, and reports to its parent
// (soak-process.ts).
import { createAssumptionLedger } from '../src/core/ledger/report.js'
import { createRelayService, type RelayServiceOptions } from '../src/core/service/mock.js'
import { assumptionsTool } from '../src/devtools/assumptions.js'
import { devtools } from '../src/devtools/admin.js'
import { createServer } from '../src/node/server/server.js'
import { createForwarder } from '../src/node/upstream/upstream.js'
import { serveUnderSoak } from './soak-process.js'

const { upstream, journalBytes, maxWorlds, adminToken } = JSON.parse(process.argv[2] ?? '{}') as Pick<
  RelayServiceOptions,
  'journalBytes' | 'maxWorlds' | 'adminToken'
> & { upstream: string }
const forwarder = createForwarder({ baseUrl: upstream })
const ledger = createAssumptionLedger(forwarder.baseUrl)
const service = await createRelayService({
  // As the command: no world of its own at start, each token the client sends gets one on first sight.
  tokens: [],
  journalBytes,
  maxWorlds,
  adminToken,
  upstream: { baseUrl: forwarder.baseUrl, forward: forwarder.forward, observe: ledger.observe },
  extensions: [devtools(), assumptionsTool(ledger)],
})
await serveUnderSoak(createServer(service))
