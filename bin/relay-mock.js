#!/usr/bin/env node
// Starts the command line from V8's code cache of the last run where it can (see src/node/code-cache.ts),
// else from the ES module bundle.
import { fileURLToPath } from 'node:url'
import { startCachedCli } from '../dist/src/node/code-cache.js'

if (startCachedCli({ bundle: fileURLToPath(new URL('../dist/bundle/relay-mock.cjs', import.meta.url)) }) === 'unavailable') {
  await import('../dist/bundle/relay-mock.mjs')
}
