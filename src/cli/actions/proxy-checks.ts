// What `relay-mock proxy` checks of its options beyond their form, before it starts: each fault is one
// it can inject and the CA file holds a certificate. (Its port: listening.ts, where proxy makes its server.)
import { readFileSync } from 'node:fs'
import { refused } from '../checks.js'
import type { ProxyOptions } from './proxy.js'
import { checkFaults } from './serve-checks.js'

/**
 * Throws a UsageError naming the option if proxy could not start with `args`.
 * @example checkProxy({ ...args, upstreamCa: 'notes.txt' }) // throws: --upstream-ca "notes.txt" holds no PEM certificate: ...
 */
export function checkProxy(args: Pick<ProxyOptions, 'fault' | 'upstreamCa'>): void {
  checkFaults(args.fault)
  if (args.upstreamCa !== undefined && !readFileSync(args.upstreamCa, 'utf8').includes('-----BEGIN CERTIFICATE-----')) {
    throw refused(
      '--upstream-ca',
      args.upstreamCa,
      'holds no PEM certificate',
      "a PEM file with -----BEGIN CERTIFICATE----- (the CA that signed the upstream's certificate)",
    )
  }
}
