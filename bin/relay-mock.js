#!/usr/bin/env node
// Starts the bundled command line (dist/bundle/relay-mock.cjs) from V8's code cache of its last run where
// it can (see src/node/caches/code-cache.ts). CommonJS (bin/package.json), and so is the loader it requires, so
// that a start never sets up Node's ES module loader.
'use strict'
const { join } = require('node:path')
const { startCachedCli } = require('../dist/bundle/start.cjs')

const bundle = join(__dirname, '../dist/bundle/relay-mock.cjs')
if (startCachedCli({ bundle }) === 'unavailable') {
  console.error(
    `Failed to start relay-mock: ${bundle} is missing or is not a relay-mock build. Please install relay-mock again (in a checkout of its repository: npm run build).`,
  )
  process.exitCode = 2
}
