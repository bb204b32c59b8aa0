// advanced.unknown-owner-stops: after an empty company list, no further call. Works live: the empty
// list is the mock's answer. It applies only when the company lookup answered [].
import { defineRule } from './define.js'
import { at, companyFacts, fail, list, pass, skip } from './facts.js'

export default defineRule({
  id: 'advanced.unknown-owner-stops',
  flows: ['advanced'],
  title: 'after an empty company list, no further call',
  cite: '§1 Advanced flow, rule 2; §7 Errors, rule 2',
  needsCase: false,
  check({ requests }) {
    const company = companyFacts(requests)
    if (company.kind === 'found')
      return skip(
        `Does not apply: the owner is a registered rental company (${at(requests, company.entry)} listed ${company.count}).`,
      )
    if (company.kind === 'none') return skip(`Does not apply: ${company.why}.`)
    const after = requests.slice(requests.indexOf(company.entry) + 1)
    if (after.length === 0)
      return pass(`The client stopped after ${at(requests, company.entry)} answered [].`, { seq: company.entry.seq })
    return fail(
      `Expected no further call after ${at(requests, company.entry)} answered [] (the owner is not part of the service: no payment, and the customer's payment completes); the client went on with ${list(requests, after)}.`,
      {
        seq: after[0].seq,
        expected: [],
        actual: after.map((entry) => `${entry.request.method} ${entry.request.path}`),
      },
    )
  },
})
