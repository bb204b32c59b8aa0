// The simple flow's cases: one request each, and every way the service can answer it.
import { defineSuite } from '../src/core/rules/suite.js'

export default defineSuite({
  name: 'simple',
  description: 'The simple integration: the whole visit in one POST /payment; accepted iff the answer has `id`',
  cases: [
    {
      id: 'simple/accepted',
      flow: 'simple',
      scenario: 'existing-vehicle',
      title: 'The service accepts the payment: the answer carries `id`',
      outcome: 'paid',
    },
    {
      id: 'simple/new-vehicle',
      flow: 'simple',
      scenario: 'new-vehicle',
      title: 'The plate is not known: the one request is the same; the service creates the vehicle',
      outcome: 'paid',
    },
    {
      id: 'simple/rejected',
      flow: 'simple',
      scenario: 'simple-failure',
      title: 'The service refuses with a 4xx and `message`: report it as rejected, still exit 0',
      outcome: 'rejected',
    },
    {
      id: 'simple/rejected-ok-status',
      flow: 'simple',
      scenario: 'simple-failure-ok-status',
      title: 'The service refuses with 200, `message` and no `id`: key on `id`, not on the status',
      outcome: 'rejected',
    },
    {
      id: 'simple/unknown-owner',
      flow: 'simple',
      scenario: 'unknown-owner',
      title: 'The owner is not part of the service: the service refuses; report it as rejected, still exit 0',
      outcome: 'rejected',
    },
    {
      id: 'simple/same-start-end',
      flow: 'simple',
      scenario: 'existing-vehicle',
      title: 'The visit ends when it starts: send the two equal times as given',
      visit: { visitStart: '2026-11-21 10:00:00', visitEnd: '2026-11-21 10:00:00' },
      outcome: 'paid',
    },
    // The visits real locations meet, each in a fresh world (see suites/advanced.ts).
    {
      id: 'simple/personal-plate',
      flow: 'simple',
      scenario: 'new-vehicle',
      title: 'A personalised plate with Icelandic letters and a space (ÞÓR 12): send it as read, in UTF-8 JSON',
      visit: { plate: 'ÞÓR 12' },
      outcome: 'paid',
    },
    {
      id: 'simple/largest-amount',
      flow: 'simple',
      scenario: 'existing-vehicle',
      title: 'The largest amount the service accepts (1000000000): send it as a whole JSON number',
      visit: { amount: 1_000_000_000 },
      outcome: 'paid',
    },
    {
      id: 'simple/across-midnight',
      flow: 'simple',
      scenario: 'existing-vehicle',
      title: 'A visit across midnight: the end on the next day, each time as given',
      visit: { visitStart: '2026-11-21 23:48:10', visitEnd: '2026-11-22 00:12:55' },
      outcome: 'paid',
    },
  ],
})
