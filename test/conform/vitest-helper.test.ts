// The vitest helper turns each case into a test: here the reference client runs through it, so
// every case below is a real run of the kit inside vitest.
import { defineConformanceTests } from '../../src/vitest.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'

// Both flows and one row of the fault matrix (matrix.test.ts runs all of it).
defineConformanceTests({
  client: referenceClient,
  name: 'the reference client through defineConformanceTests',
  cases: ['advanced/*', 'simple/*', 'resilience/payment-create/*'],
  jobs: 12,
})
