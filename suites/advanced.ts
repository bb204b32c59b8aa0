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
    // The visits real locations meet, each in a fresh world. A plate here is one the world does not know in
    // any form (no vehicle has it, whatever the case, spaces or hyphens), so GET /vehicles answers [] however
    // the real service matches plates (relay-mock ignores case, spaces and hyphens: the ledger's
    // plate.format), and a correct client creates the vehicle with the plate as it read it.
    {
      id: 'advanced/personal-plate',
      flow: 'advanced',
      scenario: 'new-vehicle',
      title:
        'A personalised plate with Icelandic letters and a space (ÞÓR 12): percent-encode it in the query, send it as read',
      visit: { plate: 'ÞÓR 12' },
      outcome: 'paid',
    },
    {
      id: 'advanced/hyphen-plate',
      flow: 'advanced',
      scenario: 'new-vehicle',
      title: 'A plate written with a hyphen (R-1234, the old regional form): send it as read',
      visit: { plate: 'R-1234' },
      outcome: 'paid',
    },
    {
      id: 'advanced/camera-plate',
      flow: 'advanced',
      scenario: 'new-vehicle',
      title: 'A plate as the camera read it, in lower case (kb417): send it as read',
      visit: { plate: 'kb417' },
      outcome: 'paid',
    },
    {
      id: 'advanced/amount-one',
      flow: 'advanced',
      scenario: 'existing-vehicle',
      title: 'An amount of 1, the least there is: send 1',
      visit: { amount: 1 },
      outcome: 'paid',
    },
    {
      id: 'advanced/across-new-year',
      flow: 'advanced',
      scenario: 'existing-vehicle',
      title: "A visit from New Year's Eve into the new year: each time as given, its own date",
      visit: { visitStart: '2026-12-31 23:51:02', visitEnd: '2027-01-01 00:07:40' },
      outcome: 'paid',
    },
    {
      id: 'advanced/registered-long-ago',
      flow: 'advanced',
      scenario: 'new-vehicle',
      title: 'A vehicle registered long ago, before 1970 (1969-12-31): acquiredOn on that day',
      visit: { registrationDate: '1969-12-31' },
      outcome: 'paid',
    },
  ],
})
