// A correct client that retries: the reference flow, except that a call the service fails (5xx) is
// sent once more after the Retry-After the service gave. It reaches `paid` where the service fails
// only the first attempt, and passes every case (test/conform/resilience.test.ts).
import { createReferenceClient } from '../../../src/node/reference-client/reference-client.js'

export const retryingClient = createReferenceClient({ retries: 1 })
