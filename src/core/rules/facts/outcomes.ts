// A rule's verdicts: passed, failed, not checked, or a warning, each with its sentence.
import type { RuleOutcome } from '../types.js'

export function pass(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'passed', message, ...extra }
}

export function fail(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'failed', message, ...extra }
}

export function skip(message: string): RuleOutcome {
  return { status: 'skipped', message }
}

/** Safe, but not the best the interface allows: a pass unless the run is `--strict`. */
export function warn(message: string, extra: Partial<RuleOutcome> = {}): RuleOutcome {
  return { status: 'warning', message, ...extra }
}
