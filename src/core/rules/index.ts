// The conformance rules: every rule (ids exactly as docs/rules.md's table), and evaluate(), the one
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
import { fidelityRules } from './fidelity.js'
import type { CaseContext, CaseInput, Check, Rule, RuleOutcome } from './types.js'

/** Every rule, in the order of docs/rules.md's table. */
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
  ...fidelityRules,
]

const byId = new Map(rules.map((rule) => [rule.id, rule]))

/**
 * The rule with this id, if there is one.
 * @example ruleById('advanced.first-vehicle')?.cite
 */
export function ruleById(id: string): Rule | undefined {
  return byId.get(id)
}

/** What each input is, in the words of the client contract: what a not-checked message names. */
const INPUTS: Record<CaseInput, string> = {
  visit:
    "the visit the client was given (RELAY_PLATE, RELAY_OWNER_KENNITALA, RELAY_REGISTRATION_DATE, the visit's times, RELAY_AMOUNT, RELAY_LOCATION_ID)",
  token: "the case's token (RELAY_API_TOKEN)",
  client: "the client's run (its exit status and RELAY_RESULT_FILE)",
}

/** The inputs a rule needs in this context that the context lacks. */
function missingInputs(rule: Rule, context: CaseContext): CaseInput[] {
  const needs =
    typeof rule.needs === 'function' ? rule.needs(context) : (rule.needs ?? (rule.needsCase ? ['visit'] : []))
  return needs.filter((input) => context[input] === undefined)
}

function notChecked(rule: Rule, missing: CaseInput[], checked: string | undefined, hint: string | undefined): Check {
  const lacked = missing.map((input) => INPUTS[input]).join(' and ')
  const message = `Not checked: it needs ${lacked}, which ${missing.length === 1 ? 'was' : 'were'} not given${hint ? ` (${hint})` : ''}.${checked ? ` Without it: ${checked}` : ''}`
  return { rule: rule.id, status: 'not-checked', message, missing }
}

export interface EvaluateOptions {
  /** How the missing inputs can be given, added to each not-checked message, e.g. "pass them with --visits FILE". */
  hint?: string
}

/**
 * Judges a case: one check per rule of its flow, in the rules' order. A rule that does not apply is
 * `skipped`. A rule that needs an input the context lacks (the visit, the token, the client's run) is
 * `not-checked`, saying which, never `passed`: a rule that cannot run without it is not run; one that can
 * keeps a failure or a "does not apply" it found on what it saw, and otherwise reports what it did check.
 * @example
 * const checks = evaluate({ flow: 'advanced', requests: world.journal.entries() })
 * checks.filter((c) => c.status === 'failed').map((c) => `${c.rule}: ${c.message}`)
 */
export function evaluate(context: CaseContext, options: EvaluateOptions = {}): Check[] {
  return rules
    .filter((rule) => rule.flows.includes(context.flow) && (rule.applies === undefined || rule.applies(context)))
    .map((rule): Check => {
      let missing: CaseInput[]
      let outcome: RuleOutcome
      try {
        missing = missingInputs(rule, context)
        if (missing.length > 0 && rule.needsCase) return notChecked(rule, missing, undefined, options.hint)
        outcome = rule.check(context)
      } catch (error) {
        return {
          rule: rule.id,
          status: 'failed',
          message: `relay-mock could not check this rule (${(error as Error).message}). This is a bug in relay-mock; please report it with the case's requests.`,
        }
      }
      if (missing.length > 0 && (outcome.status === 'passed' || outcome.status === 'warning'))
        return {
          ...notChecked(rule, missing, outcome.message, options.hint),
          ...(outcome.seq !== undefined ? { seq: outcome.seq } : {}),
        }
      return { rule: rule.id, ...outcome }
    })
}

/**
 * docs/rules.md's rule table, generated from `rules`: id, what it checks, the interface clause.
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
export { caseStatus, casePasses, countCases } from './verdict.js'

export type { ConformanceCase, MatrixCell, Suite } from './suite.js'
export type { VerdictPolicy } from './verdict.js'
export type {
  CaseContext,
  CaseCounts,
  CaseInput,
  CaseResult,
  CaseStatus,
  CaseStart,
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
  RunTime,
} from './types.js'
export { toMatrix, cellAt } from './matrix.js'
export type { Matrix, MatrixEntry } from './matrix.js'
