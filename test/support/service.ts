// The service as `relay-mock serve` runs it: the core with the dev tools (admin API, live page) mounted.
import { createRelayService, type RelayService, type RelayServiceOptions } from '../../src/core/service/mock.js'
import { devtools } from '../../src/devtools/admin.js'

/** A service with the dev tools mounted, as `serve` and `createRelayMock` mount them. */
export function createServedService(options: RelayServiceOptions = {}): Promise<RelayService> {
  return createRelayService({ ...options, extensions: [devtools(), ...(options.extensions ?? [])] })
}
