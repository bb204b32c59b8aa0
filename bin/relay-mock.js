#!/usr/bin/env node
// Starts the command line from V8's code cache of the last run where it can (see src/node/code-cache.ts),
// else from the ES module bundle. CommonJS (bin/package.json), and so is the loader it requires, so that
// a start from the cache never sets up Node's ES module loader.
'use strict'
const { join } = require('node:path')
const { startCachedCli } = require('../dist/bundle/start.cjs')

if (startCachedCli({ bundle: join(__dirname, '../dist/bundle/relay-mock.cjs') }) === 'unavailable') {
  import('../dist/bundle/relay-mock.mjs')
}
