// The variants: the flow cases run again in a world that answers as a real service may where the
// interface is silent (an alternative of the assumption ledger, src/core/ledger/assumptions.ts). Each served
// alternative a client could come to depend on runs against the one or two flow cases that meet it; the
// rule fidelity.<assumption> fails a client that completes the flow under relay-mock's choice but not here.
// Two served alternatives have no case: no flow case of a correct client meets an invalid-field answer
// (invalid.status), and a client that fetches a link is failed by http.known-endpoint already (links.fetchable).
import { assumption } from '../src/core/ledger/assumptions.js'
import { STRICT, STRICT_VARIANTS } from '../src/core/service/variants.js'
import advanced from './advanced.js'
import resilience from './resilience.js'
import simple from './simple.js'
import type { ConformanceCase } from '../src/core/rules/suite.js'
import { defineSuite } from '../src/core/rules/suite.js'
import type { Flow, Outcome } from '../src/core/rules/types.js'

/** A flow case as the variants meet it: its world, its flow, and what a correct client reaches there. */
interface Base {
  /** The flow case it repeats, e.g. `advanced/new-vehicle`: the variant case is judged against its result. */
  of: string
  /** The name the variant case's id gives it, where not the id of the case it repeats (default `of`). */
  name?: string
  flow: Flow
  scenario: string
  outcome: Outcome
  outcomes?: Outcome[]
  faults?: ConformanceCase['faults']
  what: string
}

const NEW_VEHICLE: Base = {
  of: 'advanced/new-vehicle',
  flow: 'advanced',
  scenario: 'new-vehicle',
  outcome: 'paid',
  what: 'create the vehicle, link it, pay',
}
const EXISTING_VEHICLE: Base = {
  of: 'advanced/existing-vehicle',
  flow: 'advanced',
  scenario: 'existing-vehicle',
  outcome: 'paid',
  what: 'pay for the listed vehicle',
}
// The fault matrix's cells, by their own ids; named in the variant cases' ids as flow cases (ids kept stable).
const PAYMENT_UNAVAILABLE: Base = {
  ...cellOf('resilience/payment-create/unavailable/once'),
  name: 'advanced/payment-unavailable',
  what: 'the first POST /payments answers 503: retry after Retry-After, or stop and report rejected',
}
const SIMPLE_ACCEPTED: Base = {
  of: 'simple/accepted',
  flow: 'simple',
  scenario: 'existing-vehicle',
  outcome: 'paid',
  what: 'the payment is accepted',
}
const SIMPLE_REJECTED: Base = {
  of: 'simple/rejected',
  flow: 'simple',
  scenario: 'simple-failure',
  outcome: 'rejected',
  what: 'the payment is refused: report rejected, exit 0',
}
const SIMPLE_REVOKED: Base = {
  ...cellOf('resilience/simple-payment/token-revoked/once'),
  name: 'simple/token-revoked',
  what: 'the token is refused: report rejected, exit 0',
}

function variant(id: string, base: Base, outcome: Outcome = base.outcome): ConformanceCase {
  const at = id.indexOf('=')
  const entry = assumption(id.slice(0, at))
  const alternative = entry?.alternatives.find((a) => a.id === id.slice(at + 1))
  if (!entry || !alternative || alternative.notServed !== undefined)
    throw new Error(`Failed to define the variants suite: ${id} is no served alternative of the ledger.`)
  const changed = outcome !== base.outcome
  // The alternative's own words may already say what a correct client reports there.
  const says =
    changed && !alternative.answer.includes('a correct client reports') ? `: a correct client reports ${outcome}` : ''
  return {
    id: `variants/${id}/${(base.name ?? base.of).split('/').join('-')}`,
    flow: base.flow,
    scenario: base.scenario,
    title: `${base.of} (${base.what}) where ${alternative.answer.charAt(0).toLowerCase()}${alternative.answer.slice(1).replace(/\.$/, '')}${says}`,
    outcome,
    ...(base.outcomes && !changed ? { outcomes: base.outcomes } : {}),
    ...(base.faults ? { faults: base.faults } : {}),
    variants: { [entry.id]: alternative.id },
    of: base.of,
  }
}

/** A cell of the fault matrix as a flow case the variants meet: its fault, and the outcomes a correct client may reach there. */
function cellOf(id: string): Base {
  const kase = resilience.cases.find((c) => c.id === id)
  if (!kase) throw new Error(`Failed to define the variants suite: the fault matrix has no cell ${id}.`)
  return {
    of: kase.id,
    flow: kase.flow,
    scenario: kase.scenario,
    outcome: kase.outcome,
    ...(kase.outcomes ? { outcomes: [...kase.outcomes] } : {}),
    ...(kase.faults ? { faults: kase.faults } : {}),
    what: kase.title,
  }
}

/**
 * A flow case again in the strict world: a service that refuses every form relay-mock accepts beyond the
 * interface's text (a lower-case `bearer`, an extra query parameter, another JSON type, a bare date for
 * `acquiredOn`, a body on a lookup, a plate written otherwise), all at once. `fidelity.strict` names the form.
 */
function strict(base: ConformanceCase): ConformanceCase {
  const title = base.title.charAt(0).toLowerCase() + base.title.slice(1)
  return {
    ...base,
    id: `variants/${STRICT}/${base.id.replace('/', '-')}`,
    title: `${base.id} (${title}) where the service refuses every form the interface does not show`,
    variants: STRICT_VARIANTS,
    of: base.id,
  }
}

export default defineSuite({
  name: 'variants',
  description:
    'The flow cases again where the mock answers as a real service may instead of as relay-mock chose (relay-mock assumptions lists the choices)',
  cases: [
    variant('create.status=200-no-location', NEW_VEHICLE),
    variant('create.status=200-no-location', SIMPLE_ACCEPTED),
    variant('create.status=201-no-location', NEW_VEHICLE),
    variant('error.body=json-message', PAYMENT_UNAVAILABLE),
    variant('error.body=json-message', SIMPLE_REJECTED),
    variant('auth.refusal=403', SIMPLE_REVOKED),
    variant('auth.refusal=401-no-challenge', SIMPLE_REVOKED),
    variant('simple.answer=id-only', SIMPLE_ACCEPTED),
    variant('simple.answer=status-accepted', SIMPLE_ACCEPTED),
    variant('simple.refusal-status=400', SIMPLE_REJECTED),
    variant('simple.refusal-status=200', SIMPLE_REJECTED),
    variant(
      'simple.unknown-owner=accepted',
      {
        of: 'simple/unknown-owner',
        flow: 'simple',
        scenario: 'unknown-owner',
        outcome: 'rejected',
        what: 'the owner is not a registered rental company',
      },
      'paid',
    ),
    variant('records.extra-fields=extra', EXISTING_VEHICLE),
    variant('records.extra-fields=extra', NEW_VEHICLE),
    // The alternatives that reshape error answers meet, in each flow, each kind of error answer they
    // reshape: a refusal (the advanced flow's is a 429: a correct client sends nothing the service
    // refuses for its fields), a server error and a lost token, from the fault matrix's cells.
    variant('error.body=json-message', cellOf('resilience/payment-create/rate-limited/once')),
    variant('error.body=json-message', cellOf('resilience/payment-create/server-error/once')),
    variant('error.body=json-message', cellOf('resilience/payment-create/token-revoked/once')),
    variant('error.body=json-message', cellOf('resilience/simple-payment/server-error/once')),
    variant('error.body=json-message', cellOf('resilience/simple-payment/token-revoked/once')),
    variant('auth.refusal=403', cellOf('resilience/payment-create/token-revoked/once')),
    variant('auth.refusal=401-no-challenge', cellOf('resilience/payment-create/token-revoked/once')),
    // The flow cases whose visit is their scenario's own; those with a visit of their own (the edge visits,
    // the same start and end) meet no
    // leniency the others do not, and each edge plate is unknown to its world in every form.
    ...[...advanced.cases, ...simple.cases].filter((kase) => kase.visit === undefined).map(strict),
  ],
})
