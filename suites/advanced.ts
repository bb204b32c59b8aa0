// The advanced flow's cases: each branch of the interface's advanced rules, in a world built for it.
import { defineSuite } from '../src/core/rules/suite.js'

export default defineSuite({
  name: 'advanced',
  description: 'The advanced integration: company lookup, vehicle lookup, creation when missing, payment',
  cases: [
    {
      id: 'advanced/unknown-owner',
      flow: 'advanced',
      scenario: 'unknown-owner',
      title: 'The owner is not part of the service: one company lookup, no payment, exit 0',
      outcome: 'skipped',
    },
    {
      id: 'advanced/new-vehicle',
      flow: 'advanced',
      scenario: 'new-vehicle',
      title: 'The plate is not known: create the vehicle, link it to the company, pay for it',
      outcome: 'paid',
    },
    {
      id: 'advanced/existing-vehicle',
      flow: 'advanced',
      scenario: 'existing-vehicle',
      title: 'The plate is known: pay for it, create nothing',
      outcome: 'paid',
    },
    {
      id: 'advanced/multiple-vehicles',
      flow: 'advanced',
      scenario: 'multiple-vehicles',
      title: 'The plate lists two active vehicles: pay for the first one listed',
      outcome: 'paid',
    },
    {
      id: 'advanced/same-start-end',
      flow: 'advanced',
      scenario: 'existing-vehicle',
      title: 'The visit ends when it starts: send the two equal times as given',
      visit: { visitStart: '2026-11-21 10:00:00', visitEnd: '2026-11-21 10:00:00' },
      outcome: 'paid',
    },
    {
      id: 'advanced/inactive-vehicle',
      flow: 'advanced',
      scenario: 'inactive-vehicle',
      title: 'The plate belongs only to an inactive vehicle: GET /vehicles answers [], so create a new one',
      outcome: 'paid',
    },
  ],
})
