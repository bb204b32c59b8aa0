// The resilience cases: the service fails one call mid-flow (a scenario injects a 503). A careful
// client stops there, or retries that call a few times and goes on once it succeeds; either way it
// exits 0, never goes on as if the failed call had succeeded, and never pays twice.
import { defineSuite } from '../src/core/rules/suite.js'

export default defineSuite({
  name: 'resilience',
  description: 'The service fails one call mid-flow (503): stop there or retry that call at most 3 times in all, exit 0, never pay twice',
  cases: [
    {
      id: 'resilience/payment-unavailable',
      flow: 'advanced',
      scenario: 'payment-unavailable',
      title: 'The first POST /payments answers 503: stop and report rejected, or retry it (at most 3 times in all) and report paid; exit 0, one payment',
      outcome: 'rejected',
      outcomes: ['rejected', 'paid'],
    },
    {
      id: 'resilience/custodian-unavailable',
      flow: 'advanced',
      scenario: 'custodian-unavailable',
      title: 'The first POST /custodians answers 503: no payment for an unlinked vehicle; stop and report rejected, or retry the custodian and pay',
      outcome: 'rejected',
      outcomes: ['rejected', 'paid'],
    },
    {
      id: 'resilience/simple-unavailable',
      flow: 'simple',
      scenario: 'simple-unavailable',
      title: 'The first POST /payment answers 503 with a message and no id: report rejected, or retry it (at most 3 times in all) and report paid; exit 0',
      outcome: 'rejected',
      outcomes: ['rejected', 'paid'],
    },
  ],
})
