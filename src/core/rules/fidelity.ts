// The fidelity rules, one per assumption of the ledger that the variants suite varies (VARIED_ASSUMPTIONS,
// variants.ts): `fidelity.<id>`.
// Their id, title and clause come from the ledger entry (one source). Each applies only in a case whose
// world was served under an alternative of its assumption, and fails a client that does not complete
// the visit there as it would under relay-mock's choice: it crashed, made other calls than the flow
// expects from the answers it got, or reported an outcome the alternative does not allow.
import { ASSUMPTIONS, clauses, type Assumption } from '../ledger/assumptions.js'
import type { JournalEntry } from '../service/journal.js'
import {
  describeForm,
  lenientForms,
  plateForm,
  refusedForms,
  STRICT_VARIANTS,
  type LenientForm,
} from '../service/leniency.js'
import { routeById } from '../service/protocol.js'
import { isStrict, VARIED_ASSUMPTIONS } from '../service/variants.js'
import { errorLine } from './crash.js'
import { defineRule } from './define.js'
import { expectedCalls } from './expected.js'
import { plateSent } from '../exchange/request.js'
import { at, callSequence, fail, pass, skip, warn } from './facts.js'
import type { CaseContext, Rule, RuleOutcome } from './types.js'

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
    const said = errorLine(client.stderr, client.stdout)
    return `exited ${client.exitCode ?? 'without a status'}${said ? ` ("${said}")` : ''}`
  }
  return undefined
}

/** Where the client's calls leave the flow the answers it got call for, in words; undefined when they follow it. */
function otherCalls(context: CaseContext): string | undefined {
  const made = callSequence(context.requests)
  const expected = expectedCalls(context).map((call) => `${call.method} ${call.path}`)
  for (let i = 0; i < Math.max(made.length, expected.length); i++) {
    if (made[i] === expected[i]) continue
    const before = i === 0 ? 'first' : `after ${made[i - 1]}`
    if (made[i] === undefined)
      return `stopped ${i === 0 ? 'before any call' : `after ${made[i - 1]}`}, where the flow goes on with ${expected.slice(i).join(', ')}`
    if (expected[i] === undefined)
      return `went on with ${made.slice(i).join(', ')} after the flow's last call ${expected.at(-1)}`
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
      .join(
        ', ',
      )}), the client completes the visit as under relay-mock's choice: no crash, the calls the flow expects, an outcome the alternative allows`,
    cite: entry.interface,
    needsCase: true,
    needs: ['client'],
    applies: (context) => context.variants?.[entry.id] !== undefined,
    check(context) {
      const chosen = context.variants?.[entry.id]
      const alternative = entry.alternatives.find((a) => a.id === chosen)
      if (!alternative || !context.client) return skip(`Does not apply: the case's world does not vary ${entry.id}.`)
      const under = `under ${entry.id}=${alternative.id} (${gist(alternative.answer)})`
      return completedAsUnderChoice(
        context,
        under,
        `Expected the client to complete the visit ${under} as it would under relay-mock's choice (${gist(entry.choice)})`,
      )
    },
  })
}

/**
 * Whether the client completed the visit as under relay-mock's choice: no crash, the flow's calls, an allowed
 * outcome. A failure compares with that choice (`versusChoice`): the runner judges it against the flow case.
 */
function completedAsUnderChoice(context: CaseContext, under: string, expected: string): RuleOutcome {
  const client = context.client!
  const crash = crashed(context)
  if (crash)
    return fail(`${expected}; instead it ${crash}.`, {
      expected: 'exit 0',
      actual: client.exitCode,
      versusChoice: true,
    })
  const other = otherCalls(context)
  if (other) return fail(`${expected}; instead it ${other}.`, { versusChoice: true })
  const allowed = context.outcomes ?? (context.outcome ? [context.outcome] : [])
  const reported = client.report?.outcome
  if (reported !== undefined && allowed.length > 0 && !allowed.includes(reported)) {
    return fail(
      `${expected}; instead it reported "${reported}", where this alternative allows ${allowed.map((o) => `"${o}"`).join(' or ')}.`,
      { expected: allowed, actual: reported, versusChoice: true },
    )
  }
  return pass(
    `${capitalized(under)}, the client completed the visit as under relay-mock's choice${reported ? `, reporting "${reported}"` : ''}.`,
  )
}

/** Each request of the case that used a form beyond the interface's text, with the forms (see leniency.ts). */
export function lenientRequests(
  context: Pick<CaseContext, 'requests' | 'visit'>,
): { entry: JournalEntry; forms: LenientForm[] }[] {
  const found: { entry: JournalEntry; forms: LenientForm[] }[] = []
  for (const entry of context.requests) {
    const { method, headers, search, bodyText, body } = entry.request
    const forms = lenientForms({ method, headers, search, route: routeById(entry.route), bodyText, body })
    const sent = context.visit ? plateSent({ route: entry.route, query: entry.request.query, body }) : undefined
    const plate =
      sent && typeof sent.plate === 'string' ? plateForm(sent.plate, context.visit!.plate, sent.where) : undefined
    if (plate) forms.push(plate)
    if (forms.length > 0) found.push({ entry, forms })
  }
  return found
}

const STRICT_FORMS = Object.keys(STRICT_VARIANTS)
  .map((id) => `\`${id}\``)
  .join(', ')

/** The interface's clauses the forms' assumptions cite, each once: a finding cites those of the forms it names. */
function citeOf(assumptions: readonly string[]): string {
  const section = (clause: string) => Number(/^§(\d+)/.exec(clause)?.[1] ?? 0)
  return [...new Set(assumptions.flatMap(clauses))].sort((a, b) => section(a) - section(b)).join('; ')
}

/**
 * `fidelity.strict`: each request uses only the forms the interface shows. Where relay-mock accepted more,
 * a warning naming the form, the assumption and what to send; in the strict world (every alternative that
 * refuses such a form, at once), a failure where the service refused one, and the visit completed as
 * under relay-mock's choice otherwise.
 */
export const fidelityStrict: Rule = defineRule({
  id: 'fidelity.strict',
  flows: ['advanced', 'simple'],
  title: `each request uses only the forms the interface shows (${STRICT_FORMS}): where relay-mock accepts more, a warning naming the form; in the strict world, which refuses them all, a failure, and the visit completed as under relay-mock's choice`,
  cite: citeOf(Object.keys(STRICT_VARIANTS)),
  needsCase: false,
  needs: (context) => (isStrict(context.variants) ? ['client'] : []),
  check(context) {
    const found = lenientRequests(context)
    const said = (items: typeof found, pick: (forms: LenientForm[]) => LenientForm[]) =>
      items
        .map(({ entry, forms }) => ({ entry, forms: pick(forms) }))
        .filter(({ forms }) => forms.length > 0)
        .map(({ entry, forms }) => `${at(context.requests, entry)} sent ${forms.map(describeForm).join('; and ')}`)
    if (isStrict(context.variants)) {
      const refused = said(found, (forms) => refusedForms(forms, context.variants))
      if (refused.length > 0) {
        return fail(
          `Expected only the forms the interface shows, in the strict world that refuses every other; instead the client depended on one: ${refused.join('. ')}. A service as strict refuses it; send the form the interface shows.`,
          {
            seq: found[0].entry.seq,
            cite: citeOf(
              found.flatMap(({ forms }) => refusedForms(forms, context.variants).map((form) => form.assumption)),
            ),
          },
        )
      }
      if (!context.client) return skip('Does not apply: no client run to judge.')
      return completedAsUnderChoice(
        context,
        'in the strict world (every form the interface does not show refused)',
        "Expected the client to complete the visit in the strict world as it would under relay-mock's choice",
      )
    }
    const lenient = said(found, (forms) => forms)
    if (lenient.length === 0) return pass('Every request used only the forms the interface shows.')
    return warn(
      `Expected only the forms the interface shows; this passed only because relay-mock accepts more: ${lenient.join('. ')}. A stricter service refuses it (relay-mock assumptions names each choice; serve --variant strict refuses them all).`,
      {
        seq: found[0].entry.seq,
        cite: citeOf(found.flatMap(({ forms }) => forms.map((form) => form.assumption))),
      },
    )
  },
})

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** Every fidelity rule, in the ledger's order. */
export const fidelityRules: ReadonlyArray<Rule> = [
  ...ASSUMPTIONS.filter((entry) => VARIED_ASSUMPTIONS.includes(entry.id)).map(fidelityRule),
  fidelityStrict,
]
