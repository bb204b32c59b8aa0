// The conformance rules: every rule (ids exactly as the README's table), and evaluate(), the one
// function the runner, the live page and every report use to judge a case's requests.
import advancedCompanyLookupFirst from './advanced.company-lookup-first.js'
import advancedCreateVehicleWhenMissing from './advanced.create-vehicle-when-missing.js'
import advancedCustodianAfterCreate from './advanced.custodian-after-create.js'
import advancedFirstVehicle from './advanced.first-vehicle.js'
import advancedNoCreateWhenFound from './advanced.no-create-when-found.js'
import advancedPaymentBody from './advanced.payment-body.js'
import advancedSinglePayment from './advanced.single-payment.js'
import advancedUnknownOwnerStops from './advanced.unknown-owner-stops.js'
import advancedVehicleLookup from './advanced.vehicle-lookup.js'
import authBearer from './auth.bearer.js'
import clientCompletes from './client.completes.js'
import clientOutcome from './client.outcome.js'
import clientStopsOnFailure from './client.stops-on-failure.js'
import httpJsonBody from './http.json-body.js'
import httpKnownEndpoint from './http.known-endpoint.js'
import simpleBody from './simple.body.js'
import simpleOneRequest from './simple.one-request.js'
import resilienceBoundedRetries from './resilience.bounded-retries.js'
import resilienceDeadline from './resilience.deadline.js'
import resilienceNoResend from './resilience.no-resend.js'
import resilienceNoRetryOnRefusal from './resilience.no-retry-on-refusal.js'
import resilienceRetryAfter from './resilience.retry-after.js'
import type { JournalEntry } from '../journal.js'
import { FAULT_STEPS } from '../faults.js'
import type { MatrixCell } from './suite.js'
import type { CaseContext, CaseStatus, Check, Rule } from './types.js'

/** Every rule, in the order of the README's table. */
export const rules: ReadonlyArray<Rule> = [
  authBearer,
  httpJsonBody,
  httpKnownEndpoint,
  advancedCompanyLookupFirst,
  advancedUnknownOwnerStops,
  advancedVehicleLookup,
  advancedCreateVehicleWhenMissing,
  advancedCustodianAfterCreate,
  advancedNoCreateWhenFound,
  advancedFirstVehicle,
  advancedPaymentBody,
  advancedSinglePayment,
  simpleOneRequest,
  simpleBody,
  clientCompletes,
  clientOutcome,
  clientStopsOnFailure,
  resilienceNoResend,
  resilienceRetryAfter,
  resilienceBoundedRetries,
  resilienceNoRetryOnRefusal,
  resilienceDeadline,
]

const byId = new Map(rules.map((rule) => [rule.id, rule]))

/**
 * The rule with this id, if there is one.
 * @example ruleById('advanced.first-vehicle')?.cite
 */
export function ruleById(id: string): Rule | undefined {
  return byId.get(id)
}

/** What a case-only rule is missing from this context, if anything. */
function missingInput(rule: Rule, context: CaseContext): string | undefined {
  if (!rule.needsCase) return undefined
  const needs = rule.needs ?? ['visit']
  const missing = needs.filter((input) => context[input] === undefined)
  if (missing.length === 0) return undefined
  const names = { visit: 'visit', token: 'token', client: 'client run' }
  return `Needs the case's inputs (its ${missing.map((m) => names[m]).join(' and ')}): checked by relay-mock conform, not live.`
}

/**
 * Judges a case: one check per rule of its flow, in the rules' order. A rule that does not apply,
 * or needs inputs the context lacks, is `skipped`, never `passed`.
 * @example
 * const checks = evaluate({ flow: 'advanced', requests: world.journal.entries() })
 * checks.filter((c) => c.status === 'failed').map((c) => `${c.rule}: ${c.message}`)
 */
export function evaluate(context: CaseContext): Check[] {
  return rules
    .filter((rule) => rule.flows.includes(context.flow))
    .map((rule): Check => {
      const missing = missingInput(rule, context)
      if (missing) return { rule: rule.id, status: 'skipped', message: missing }
      try {
        return { rule: rule.id, ...rule.check(context) }
      } catch (error) {
        return {
          rule: rule.id,
          status: 'failed',
          message: `relay-mock could not check this rule (${(error as Error).message}). This is a bug in relay-mock; please report it with the case's requests.`,
        }
      }
    })
}

/**
 * A case's status from its checks: failed when a rule failed; not-reached when the case breaks a step
 * the client never requested (never a pass); warning when a rule warned; else passed.
 * @example caseStatus(checks, requests, { step: 'payment-create', kind: 'reset', mode: 'once' })
 */
export function caseStatus(checks: ReadonlyArray<Check>, requests: ReadonlyArray<JournalEntry>, cell?: MatrixCell): CaseStatus {
  if (checks.some((check) => check.status === 'failed')) return 'failed'
  if (cell && !requests.some((entry) => entry.route === FAULT_STEPS[cell.step])) return 'not-reached'
  if (checks.some((check) => check.status === 'warning')) return 'warning'
  return 'passed'
}

/**
 * The README's rule table, generated from `rules`: id, what it checks, the interface clause.
 * @example console.log(toRuleTable())
 */
export function toRuleTable(list: ReadonlyArray<Rule> = rules): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  return [
    '| id | what it checks | interface clause |',
    '|---|---|---|',
    ...list.map((rule) => `| \`${rule.id}\` | ${cell(rule.title)} | ${cell(rule.cite)} |`),
  ].join('\n')
}

export { expectedCalls } from './expected.js'
export { defineRule } from './define.js'
export { defineSuite } from './suite.js'
export { toClientReport, clientReport } from './report.js'
export { whatHappened, DOCUMENTED_ROUTES } from './facts.js'

export type { ConformanceCase, MatrixCell, Suite } from './suite.js'
export type {
  CaseContext,
  CaseResult,
  CaseStart,
  CaseStatus,
  CaseVisit,
  Check,
  CheckStatus,
  ClientReport,
  ClientRun,
  ExpectedCall,
  Flow,
  Outcome,
  Reporter,
  Rule,
  RuleOutcome,
  RunResult,
  RunStart,
  RunSummary,
} from './types.js'
export { toMatrix, cellAt } from './matrix.js'
export type { Matrix, MatrixEntry } from './matrix.js'
