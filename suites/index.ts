// Every suite relay-mock conform runs, and their cases in order. One file per suite beside this one.
import type { ConformanceCase, Suite } from '../src/core/rules/suite.js'
import advanced from './advanced.js'
import resilience from './resilience.js'
import simple from './simple.js'
import variants from './variants.js'

export const suites: ReadonlyArray<Suite> = [advanced, simple, resilience, variants]

/** Every case of every suite: advanced, simple, resilience, then the variants. */
export const cases: ReadonlyArray<ConformanceCase> = suites.flatMap((suite) => suite.cases)
