// The vitest helper turns each case into a test: here the reference client runs through it, so
// every case below is a real run of the kit inside vitest.
import { defineConformanceTests } from '../../src/vitest.js'
import { referenceClient } from '../../src/node/reference-client.js'

defineConformanceTests({ client: referenceClient, name: 'the reference client through defineConformanceTests', jobs: 4 })
