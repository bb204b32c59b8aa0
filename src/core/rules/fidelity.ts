// The fidelity rules, one per assumption of the ledger that the variants suite varies (VARIED_ASSUMPTIONS,
// variants.ts): `fidelity.<id>`.
// Their id, title and clause come from the ledger entry (one source). Each applies only in a case whose
// world was served under an alternative of its assumption, and fails a client that does not complete
// the visit there as it would under relay-mock's choice: it crashed, made other calls than the flow
// expects from the answers it got, or reported an outcome the alternative does not allow.
import { ASSUMPTIONS, type Assumption } from '../ledger/assumptions.js'
import { VARIED_ASSUMPTIONS } from '../service/variants.js'
import { defineRule } from './define.js'
import { expectedCalls } from './expected.js'
import { fail, pass, skip } from './facts.js'
import type { CaseContext, Rule } from './types.js'

/** The first sentence (or clause) of a text, for a message: up to the first `.` or `;` that ends one (not `e.g.`). */
function gist(text: string): string {
  for (const match of text.matchAll(/[.;](?=\s|$)/g)) {
    if (!text.slice(0, match.index + 1).endsWith('e.g.')) return text.slice(0, match.index)
  }
  return text
}

/** How the client's run ended, when it did not complete: undefined when it exited 0. */
function crashed(context: CaseContext): string | undefined {
  const client = context.client!
  if (client.timedOut) return 'was still running at the deadline and was killed'
  if (client.signal) return `was killed by ${client.signal}`
  if (client.exitCode !== 0) {
    // The last line that is not a stack frame: the error's own words.
    const last = client.stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at ')).at(-1)
    return `exited ${client.exitCode ?? 'without a status'}${last ? ` ("${last.length > 160 ? `${last.slice(0, 160)}…` : last}")` : ''}`
  }
  return undefined
}

/** The calls the client made, a call sent again in a row counted once (a retry is the resilience rules' to judge). */
function madeCalls(context: CaseContext): string[] {
  const calls: string[] = []
  for (const entry of context.requests) {
    const call = entry.route ?? `${entry.request.method} ${entry.request.path}`
    if (calls.at(-1) !== call) calls.push(call)
  }
  return calls
}

/** Where the client's calls leave the flow the answers it got call for, in words; undefined when they follow it. */
function otherCalls(context: CaseContext): string | undefined {
  const made = madeCalls(context)
  const expected = expectedCalls(context).map((call) => `${call.method} ${call.path}`)
  for (let i = 0; i < Math.max(made.length, expected.length); i++) {
    if (made[i] === expected[i]) continue
    const before = i === 0 ? 'first' : `after ${made[i - 1]}`
    if (made[i] === undefined) return `stopped ${i === 0 ? 'before any call' : `after ${made[i - 1]}`}, where the flow goes on with ${expected.slice(i).join(', ')}`
    if (expected[i] === undefined) return `went on with ${made.slice(i).join(', ')} after the flow's last call ${expected.at(-1)}`
    return `sent ${made[i]} ${before}, where the flow calls for ${expected[i]}`
  }
  return undefined
}

/**
 * The rule `fidelity.<assumption>` for one ledger entry.
 * @example fidelityRule(assumption('create.status')!).id // 'fidelity.create.status'
 */
export function fidelityRule(entry: Assumption): Rule {
  return defineRule({
    id: `fidelity.${entry.id}`,
    flows: ['advanced', 'simple'],
    title: `where the world answers as a real service may (\`${entry.id}\`: ${entry.alternatives
      .filter((alternative) => alternative.notServed === undefined)
      .map((alternative) => `\`${alternative.id}\``)
      .join(', ')}), the client completes the visit as under relay-mock's choice: no crash, the calls the flow expects, an outcome the alternative allows`,
    cite: entry.interface,
    needsCase: true,
    needs: ['client'],
    applies: (context) => context.variants?.[entry.id] !== undefined,
    check(context) {
      const chosen = context.variants?.[entry.id]
      const alternative = entry.alternatives.find((a) => a.id === chosen)
      if (!alternative || !context.client) return skip(`Does not apply: the case's world does not vary ${entry.id}.`)
      const under = `under ${entry.id}=${alternative.id} (${gist(alternative.answer)})`
      const expected = `Expected the client to complete the visit ${under} as it would under relay-mock's choice (${gist(entry.choice)})`
      const crash = crashed(context)
      if (crash) return fail(`${expected}; instead it ${crash}.`, { expected: 'exit 0', actual: context.client.exitCode })
      const other = otherCalls(context)
      if (other) return fail(`${expected}; instead it ${other}.`)
      const allowed = context.outcomes ?? (context.outcome ? [context.outcome] : [])
      const reported = context.client.report?.outcome
      if (reported !== undefined && allowed.length > 0 && !allowed.includes(reported)) {
        return fail(`${expected}; instead it reported "${reported}", where this alternative allows ${allowed.map((o) => `"${o}"`).join(' or ')}.`, { expected: allowed, actual: reported })
      }
      return pass(`${capitalized(under)}, the client completed the visit as under relay-mock's choice${reported ? `, reporting "${reported}"` : ''}.`)
    },
  })
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** Every fidelity rule, in the ledger's order. */
export const fidelityRules: ReadonlyArray<Rule> = ASSUMPTIONS.filter((entry) => VARIED_ASSUMPTIONS.includes(entry.id)).map(fidelityRule)
