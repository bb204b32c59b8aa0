#!/usr/bin/env node
import '../dist/relay-mock.mjs'
