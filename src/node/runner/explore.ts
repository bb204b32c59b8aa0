// `relay-mock conform --explore N`: N visits generated over the whole space the interface allows (each
// field drawn from the range its schema accepts, or left as the scenario's), seeded and reproducible,
// each a case in a fresh world of the new-vehicle scenario (the plate unknown, so both flows pay). The
// first visit that breaks the client is shrunk with fast-check to the smallest one that still breaks it,
// and handed back as a ready entry of a cases file (--cases).
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { CaseResult, Flow } from '../../core/rules/types.js'
import { FLOWS } from '../../core/rules/vocabulary.js'
import { importExternal } from '../../core/import-external.js'
import type { Visit } from '../../core/service/scenario.js'
import { amountValue, plate } from '../../core/service/schemas.js'
import type { RunOptions } from './options.js'
import { runConformance } from './runner.js'

type FastCheck = typeof import('fast-check')
type Arbitrary<T> = import('fast-check').Arbitrary<T>

/** What one generated visit changes of the scenario's: a flow and the fields it draws (the others left as they are). */
export interface ExploredVisit {
  flow: Flow
  visit: Partial<Pick<Visit, 'plate' | 'amount' | 'registrationDate' | 'visitStart' | 'visitEnd'>>
}

/** The world every generated visit runs in: the owner registered, the plate unknown (the visit's, whatever it is). */
export const EXPLORE_SCENARIO = 'new-vehicle'

const DAY_MS = 86_400_000
/** Registration dates: from 1900 to the end of 2024; visits: 2025 to 2027, lasting up to three days. */
const REGISTERED = { from: Date.UTC(1900, 0, 1), anchor: Date.UTC(2000, 0, 1), to: Date.UTC(2024, 11, 31) }
const VISITS = {
  from: Date.UTC(2025, 0, 1),
  anchor: Date.UTC(2026, 0, 1),
  to: Date.UTC(2027, 11, 31, 23, 59, 59),
  longestS: 3 * 86_400,
}

/**
 * The characters a plate may hold and the lengths it may have, read off the plate schema (the one that
 * refuses a request's plate), so the generator covers what the service accepts and no more. Plain
 * capitals first: a plate shrinks towards them.
 */
function plateSpace(): { chars: string[]; minLength: number; maxLength: number } {
  const ok = (value: string) => plate.safeParse(value).success
  const chars: string[] = []
  for (let code = 0x20; code < 0x250; code++) {
    const ch = String.fromCharCode(code)
    if (ok(`A${ch}`) || ok(`${ch}A`)) chars.push(ch)
  }
  const rank = (ch: string) =>
    /[A-Z]/.test(ch) ? 0 : /[0-9]/.test(ch) ? 1 : /[a-z]/.test(ch) ? 2 : /\p{L}/u.test(ch) ? 3 : 4
  chars.sort((a, b) => rank(a) - rank(b))
  let minLength = 1
  while (!ok('A'.repeat(minLength))) minLength++
  let maxLength = minLength
  while (maxLength < 64 && ok('A'.repeat(maxLength + 1))) maxLength++
  return { chars, minLength, maxLength }
}

/** The least and the largest amount the amount schema accepts. */
function amountRange(): { min: number; max: number } {
  let min = 1
  while (!amountValue.safeParse(min).success && min < 100) min++
  const max = amountValue.maxValue ?? 1_000_000_000
  return { min, max: Number.isFinite(max) ? max : Number.MAX_SAFE_INTEGER }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')
const dayOf = (ms: number) => {
  const d = new Date(ms)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}
const timeOf = (ms: number) => {
  const d = new Date(ms)
  return `${dayOf(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/**
 * The generator of visits: each field drawn, or left as the scenario's (a field shrinks to that first),
 * a drawn value shrinking towards a plain one (capital letters, 1 ISK, 2000-01-01, 2026-01-01 00:00:00 and no length).
 */
export function visitArbitrary(fc: FastCheck, flows: readonly Flow[] = FLOWS): Arbitrary<ExploredVisit> {
  const { chars, minLength, maxLength } = plateSpace()
  const { min, max } = amountRange()
  const plates = fc
    .string({ unit: fc.constantFrom(...chars), minLength, maxLength })
    .filter((value) => plate.safeParse(value).success)
  const registered = fc
    .integer({
      min: Math.round((REGISTERED.from - REGISTERED.anchor) / DAY_MS),
      max: Math.round((REGISTERED.to - REGISTERED.anchor) / DAY_MS),
    })
    .map((days) => dayOf(REGISTERED.anchor + days * DAY_MS))
  const timing = fc
    .record({
      start: fc.integer({ min: (VISITS.from - VISITS.anchor) / 1000, max: (VISITS.to - VISITS.anchor) / 1000 }),
      lengthS: fc.integer({ min: 0, max: VISITS.longestS }),
    })
    .map(({ start, lengthS }) => ({
      visitStart: timeOf(VISITS.anchor + start * 1000),
      visitEnd: timeOf(VISITS.anchor + (start + lengthS) * 1000),
    }))
  return fc
    .record({
      flow: fc.constantFrom(...flows),
      plate: fc.option(plates, { nil: undefined }),
      amount: fc.option(fc.integer({ min, max }), { nil: undefined }),
      registrationDate: fc.option(registered, { nil: undefined }),
      timing: fc.option(timing, { nil: undefined }),
    })
    .map(({ flow, timing: times, ...fields }) => {
      const visit: ExploredVisit['visit'] = {}
      for (const [key, value] of Object.entries({ ...fields, ...times }))
        if (value !== undefined) (visit as Record<string, unknown>)[key] = value
      return { flow, visit }
    })
}

/** The case of one generated visit: `explore/<seed>/<n>`. */
export function exploredCase(
  explored: ExploredVisit,
  seed: number,
  n: number,
  title = `Visit ${n} generated with seed ${seed}`,
): ConformanceCase {
  return {
    id: `explore/${seed}/${n}`,
    flow: explored.flow,
    scenario: EXPLORE_SCENARIO,
    title,
    visit: explored.visit,
    outcome: 'paid',
  }
}

/**
 * The N visits of a seed, in order: the same seed gives the same visits.
 * @example await exploredVisits(100, 42) // [{ flow: 'simple', visit: { plate: 'ÞÓR 12', ... } }, ...]
 */
export async function exploredVisits(runs: number, seed: number, flows?: readonly Flow[]): Promise<ExploredVisit[]> {
  const fc = await loadFastCheck()
  return fc.sample(visitArbitrary(fc, flows), { numRuns: runs, seed })
}

/** The entry of a cases file (--cases) that runs this visit again. */
export function toCasesEntry(explored: ExploredVisit, id: string, title: string): Record<string, unknown> {
  return { id, title, scenario: EXPLORE_SCENARIO, flow: explored.flow, visit: explored.visit, outcome: 'paid' }
}

export interface ExploreOptions extends Omit<
  RunOptions,
  'suite' | 'cases' | 'suites' | 'flows' | 'repeat' | 'bail' | 'reporters'
> {
  /** How many visits to generate. */
  runs: number
  /** The seed of the visits. */
  seed: number
  /** The seed of the worlds (default the runner's, whose worlds are kept seeded between runs). */
  worldSeed?: number
  flows?: Flow[]
  /** Told as the exploration goes: the first pass, then each smaller visit that still breaks the client. */
  onProgress?: (event: ExploreEvent) => void
}

export type ExploreEvent =
  { kind: 'explored'; results: CaseResult[] } | { kind: 'smaller'; explored: ExploredVisit; result: CaseResult }

export interface ExploreResult {
  seed: number
  visits: ExploredVisit[]
  /** Each generated visit's case, in order. */
  results: CaseResult[]
  /** The smallest visit that broke the client, when one did: its case result, and how many smaller ones were found on the way. */
  smallest?: { explored: ExploredVisit; result: CaseResult; shrinks: number; entry: Record<string, unknown> }
}

/** A visit broke the client when its case failed (a warning is safe). */
const broke = (result: CaseResult) => result.status === 'failed'

/**
 * Runs N generated visits (all at once, `jobs` at a time), then shrinks the first that broke the client,
 * one run at a time, to the smallest visit that still breaks it.
 * @example const { smallest } = await explore({ client: 'python3 client.py', runs: 100, seed: 42 })
 */
export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const { runs, seed, worldSeed, flows, onProgress, ...rest } = options
  const run = { ...rest, seed: worldSeed }
  const fc = await loadFastCheck()
  const arbitrary = visitArbitrary(fc, flows)
  const visits = fc.sample(arbitrary, { numRuns: runs, seed })
  const cases = visits.map((explored, i) => exploredCase(explored, seed, i + 1))
  const { cases: results } = await runConformance({ ...run, suite: cases })
  onProgress?.({ kind: 'explored', results })
  const first = results.findIndex(broke)
  if (first === -1 || run.signal?.aborted) return { seed, visits, results }

  // fast-check's own run of the same seed meets the same visits: replayed from the first that broke, it shrinks it.
  let smallest = { explored: visits[first], result: results[first], shrinks: 0 }
  let tries = 0
  await fc.check(
    fc.asyncProperty(arbitrary, async (explored) => {
      if (run.signal?.aborted) return true
      const kase = exploredCase(
        explored,
        seed,
        first + 1,
        `Visit ${first + 1} of seed ${seed}, shrunk (try ${++tries})`,
      )
      const [result] = (await runConformance({ ...run, jobs: 1, suite: [kase] })).cases
      if (!result || !broke(result)) return true
      // The shrinker moves only to visits that still break the client: the last of them is the smallest.
      if (tries > 1) {
        smallest = { explored, result, shrinks: smallest.shrinks + 1 }
        onProgress?.({ kind: 'smaller', explored, result })
      }
      return false
    }),
    { seed, path: String(first), numRuns: runs },
  )
  const rules = smallest.result.checks.filter((check) => check.status === 'failed').map((check) => check.rule)
  const entry = toCasesEntry(
    smallest.explored,
    `explore/${seed}/${first + 1}`,
    `The smallest visit of seed ${seed} that broke the client (${rules.join(', ')})`,
  )
  return { seed, visits, results, smallest: { ...smallest, entry } }
}

async function loadFastCheck(): Promise<FastCheck> {
  const module = await importExternal<FastCheck & { default?: FastCheck }>('fast-check')
  return module.default ?? module
}
