// defineRule: the one place a rule's id, title, clause and check come together. Failed and warning
// messages get the interface clause appended here, so no rule can forget to cite it.
import type { CaseContext, Rule, RuleOutcome } from './types.js'

/**
 * Defines a conformance rule; its failures and warnings end by citing `cite`.
 * @example
 * export default defineRule({ id: 'simple.one-request', flows: ['simple'], title: '...', cite: '§4 Simple integration',
 *   needsCase: false, check: ({ requests }) => requests.length === 1 ? pass('one request') : fail('...') })
 */
export function defineRule(rule: Rule): Rule {
  const check = rule.check.bind(rule)
  return {
    ...rule,
    check(context: CaseContext): RuleOutcome {
      const { cite, ...outcome } = check(context)
      return outcome.status === 'failed' || outcome.status === 'warning'
        ? { ...outcome, message: `${outcome.message} (interface: ${cite ?? rule.cite})` }
        : outcome
    },
  }
}
