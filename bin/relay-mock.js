#!/usr/bin/env node
import '../dist/bundle/relay-mock.mjs'
