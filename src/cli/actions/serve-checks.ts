// What `relay-mock serve` checks of its options beyond their form, before it builds a world: the
// scenario is one the mock knows, each fault is one it can inject, and the server can listen at
// --host and --port. Loaded only when
// serve runs, as the scenarios are.
import { existsSync } from 'node:fs'
import { scenarios } from '../../../scenarios/index.js'
import { parseFault } from '../../core/service/faults.js'
import { nearest } from '../../core/text.js'
import { servedVariants, toVariants, variantRefusal } from '../../core/service/variants.js'
import { reservePort } from '../../node/server.js'
import { refused, UsageError } from '../checks.js'
import type { ServeOptions } from './serve.js'

type VariantErrorLike = Error & { why?: string }

/**
 * Throws a UsageError naming the option if serve could not start with `args`.
 * @example await checkServe({ ...args, scenario: 'no-such-world' }) // throws: --scenario "no-such-world" is not a scenario: ...
 */
export async function checkServe(args: Pick<ServeOptions, 'scenario' | 'host' | 'port' | 'fault' | 'variant'>): Promise<void> {
  // Not a built-in name: a file of the user's own, read and checked field by field when serve loads it.
  if (!scenarios.has(args.scenario) && !existsSync(args.scenario)) {
    const names = [...scenarios.keys()]
    throw refused('--scenario', args.scenario, 'is neither a scenario nor a file', `a scenario such as ${nearest(args.scenario, names).join(', ')} (relay-mock scenarios lists all ${names.length}), or a scenario file of your own (.json, .js, .ts)`)
  }
  checkFaults(args.fault)
  for (const variant of args.variant ?? []) {
    const why = variantRefusal(variant)
    if (why !== undefined) {
      const served = servedVariants()
      throw refused('--variant', variant, `is refused (${why})`, `<assumption>=<alternative> such as ${nearest(variant, served).join(', ')} (relay-mock assumptions lists all ${served.length})`)
    }
  }
  try {
    toVariants(args.variant ?? [])
  } catch (error) {
    throw new UsageError(`--variant: ${(error as VariantErrorLike).why ?? (error as Error).message}.`)
  }
  await tryListening(args.host, args.port)
}

/** Throws a UsageError for the first --fault that is no fault the mock can inject (serve's and proxy's). */
export function checkFaults(faults: readonly string[] | undefined): void {
  for (const fault of faults ?? []) {
    try {
      parseFault(fault)
    } catch (error) {
      // The faults' own sentence names the part refused and what is allowed: `"x" is not a fault: expected ...`.
      throw new UsageError(`--fault ${(error as Error).message}.`)
    }
  }
}

/**
 * Listens at host and port, and keeps the socket for serve (see reservePort): whether the name
 * resolves, is an address of this machine and has the port free is known only by trying, and trying
 * now costs nothing while the world (seconds for a large fleet) is not built yet.
 */
export async function tryListening(host: string, port: number): Promise<void> {
  try {
    await reservePort(host, port)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw refused('--port', String(port), `is in use on ${host}`, 'a free port (stop what uses it, or pass --port 0 to pick one)')
    if (code === 'EACCES') throw refused('--port', String(port), 'is not allowed for this user', 'a port above 1023, or 0 to pick a free one')
    if (code === 'EADDRNOTAVAIL') throw refused('--host', host, 'is not an address of this machine', 'one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every address)')
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') throw refused('--host', host, 'does not resolve to an address', 'an IP address or a host name that resolves, such as 127.0.0.1 or localhost')
    throw error
  }
}
