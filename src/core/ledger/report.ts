// The assumption ledger's standing against one real service, built answer by answer: each assumption
// `confirmed`, `contradicted` or `unseen` with its evidence, and the findings (answers that depart from
// the interface, and the upstream's trouble). What GET /__relay/assumptions answers and what
// `relay-mock proxy` writes on exit. Bounded: a few pieces of evidence per verdict, findings counted.
// The standing's shapes are in standing.ts, the counts in tally.ts, an answer as evidence in evidence.ts.
import { ASSUMPTIONS } from './assumptions.js'
import { ASSUMPTION_CHECKS, createMemory, findingsOf, learn, type AssumptionCheck, type Memory } from './checks.js'
import { toObservation } from './evidence.js'
import { addFinding, countVerdict, createTally, standing, type Tally } from './tally.js'
import type { AssumptionReport } from './standing.js'
import { UPSTREAM_TROUBLES, type UpstreamObservation } from '../service/upstream.js'

export type {
  AssumptionReport,
  AssumptionStanding,
  AssumptionStatus,
  Evidence,
  FindingStanding,
  NextStep,
  ObservedAnswer,
  ProbeSummary,
} from './standing.js'
export { nextStep } from './next-step.js'

/** The assumption checks, as [id, check] pairs: those traffic can show. */
const CHECKS = Object.entries(ASSUMPTION_CHECKS).filter(
  (pair): pair is [string, AssumptionCheck] => typeof pair[1] === 'function',
)

/**
 * The standing of the ledger against one upstream: the whole traffic's, and each world's (a token sees
 * its own only, as with the journal).
 * @example
 * const ledger = createAssumptionLedger('https://staging.example')
 * service = await createRelayService({ upstream: { ...forwarder, observe: ledger.observe } })
 * ledger.report().assumptions.filter((a) => a.status === 'contradicted')
 */
export function createAssumptionLedger(upstream: string) {
  const whole = createTally()
  const worlds = new Map<string, { tally: Tally; memory: Memory }>()

  function worldOf(id: string) {
    let state = worlds.get(id)
    if (!state) {
      // Worlds come and go with tokens (the service's cap): the oldest world's standing goes first; the whole stays.
      if (worlds.size >= 1000) worlds.delete(worlds.keys().next().value as string)
      state = { tally: createTally(), memory: createMemory() }
      worlds.set(id, state)
    }
    return state
  }

  /** Checks one journaled request with the upstream's answer to it. */
  function observe({ entry, upstream: result }: UpstreamObservation): void {
    if (!result) return
    const state = entry.worldId === null ? undefined : worldOf(entry.worldId)
    const tallies = state ? [whole, state.tally] : [whole]
    if ('trouble' in result) {
      const finding = {
        kind: 'upstream-trouble',
        message: `${entry.request.method} ${entry.request.path}: ${UPSTREAM_TROUBLES[result.trouble.kind] ?? result.trouble.kind} (${result.trouble.detail}); the client got ${entry.response.status}.`,
      }
      for (const tally of tallies) addFinding(tally, finding, entry.seq)
      return
    }
    const { answer } = result
    if (answer.passedOn) {
      // Passed on as it came, never held whole: there is nothing whole to check.
      const finding = {
        kind: 'too-large-to-check',
        message: `${entry.request.method} ${entry.request.path} answered ${answer.status} with a body larger than the proxy's body limit: passed on whole as it came, checked no further (the journal keeps its first bytes).`,
      }
      for (const tally of tallies) {
        tally.answers++
        addFinding(tally, finding, entry.seq)
      }
      return
    }
    const observed = toObservation(entry, answer)
    const memory = state?.memory ?? createMemory()
    for (const tally of tallies) tally.answers++
    for (const [id, check] of CHECKS) {
      const verdict = check(observed, memory)
      if (verdict) countVerdict(tallies, id, verdict, entry, observed)
    }
    for (const finding of findingsOf(observed)) for (const tally of tallies) addFinding(tally, finding, entry.seq)
    learn(observed, memory)
  }

  /** The standing: the whole traffic's, or one world's. */
  function report(worldId?: string): AssumptionReport {
    const tally = worldId === undefined ? whole : (worlds.get(worldId)?.tally ?? createTally())
    return {
      upstream,
      date: new Date().toISOString(),
      answers: tally.answers,
      assumptions: ASSUMPTIONS.map((entry) => standing(entry, tally)),
      findings: [...tally.findings.values()],
    }
  }

  return { observe, report }
}

export type AssumptionLedger = ReturnType<typeof createAssumptionLedger>
