// What `relay-mock serve` checks of its options beyond their form, before it builds a world: the
// scenario is one the mock knows and each fault is one it can inject. (Its port: listening.ts, where
// serve makes its server.) Loaded only when serve runs, as the scenarios are.
import { existsSync } from 'node:fs'
import { scenarios } from '../../../scenarios/index.js'
import { parseFault } from '../../core/service/faults.js'
import { nearest } from '../../core/text.js'
import { servedVariants, toVariants, variantRefusal } from '../../core/service/variants.js'
import { refused, UsageError } from '../checks.js'
import type { ServeOptions } from './serve.js'

type VariantErrorLike = Error & { why?: string }

/**
 * Throws a UsageError naming the option if serve could not start with `args`.
 * @example checkServe({ ...args, scenario: 'no-such-world' }) // throws: --scenario "no-such-world" is not a scenario: ...
 */
export function checkServe(args: Pick<ServeOptions, 'scenario' | 'fault' | 'variant'>): void {
  // Not a built-in name: a file of the user's own, read and checked field by field when serve loads it.
  if (!scenarios.has(args.scenario) && !existsSync(args.scenario)) {
    const names = [...scenarios.keys()]
    throw refused(
      '--scenario',
      args.scenario,
      'is neither a scenario nor a file',
      `a scenario such as ${nearest(args.scenario, names).join(', ')} (relay-mock scenarios lists all ${names.length}), or a scenario file of your own (.json, .js, .ts)`,
    )
  }
  checkFaults(args.fault)
  for (const variant of args.variant ?? []) {
    const why = variantRefusal(variant)
    if (why !== undefined) {
      const served = servedVariants()
      throw refused(
        '--variant',
        variant,
        `is refused (${why})`,
        `<assumption>=<alternative> such as ${nearest(variant, served).join(', ')} (relay-mock assumptions lists all ${served.length})`,
      )
    }
  }
  try {
    toVariants(args.variant ?? [])
  } catch (error) {
    throw new UsageError(`--variant: ${(error as VariantErrorLike).why ?? (error as Error).message}.`)
  }
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
