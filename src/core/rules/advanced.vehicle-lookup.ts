// advanced.vehicle-lookup: after a company is found, GET /vehicles with the plate. Works live: the
// company is the one the mock listed; with the case's visit the plate must be the visit's
// (RELAY_PLATE, compared as the service compares plates: case, spaces and hyphens ignored).
import { requestOf } from '../exchange/entry.js'
import { plateSent } from '../exchange/request.js'
import { normalizePlate } from '../service/schemas.js'
import { defineRule } from './define.js'
import { at, callAfter, companyFacts, fail, mockSaid, notCarried, pass, show, skip } from './facts.js'

export default defineRule({
  id: 'advanced.vehicle-lookup',
  flows: ['advanced'],
  title: 'after a company is found, GET `/vehicles` with the plate',
  cite: '§1 Advanced flow, rule 3; §4 Advanced integration, endpoint 2',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const company = companyFacts(requests)
    if (company.kind === 'empty')
      return skip(`Does not apply: ${at(requests, company.entry)} answered [] (the owner is not part of the service).`)
    if (company.kind === 'none') return skip(`Does not apply: ${company.why}.`)
    const expected = `GET /vehicles?plate=${visit?.plate ?? '<the plate>'}`
    const next = callAfter(requests, company.entry)
    // A plate that needs percent-encoding (ÞÓR 12) and was pasted into the query as it is never arrives.
    const hint = (arrived?: string) => {
      const advice = visit ? notCarried('plate', visit.plate, arrived) : undefined
      return advice ? ` ${advice}` : ''
    }
    if (!next)
      return fail(
        `Expected ${expected} after ${at(requests, company.entry)} found the company; the client made no further call.${hint()}`,
        { seq: company.entry.seq, expected },
      )
    if (next.route !== 'GET /vehicles') {
      return fail(
        `Expected ${expected} after ${at(requests, company.entry)} found the company; the next call was ${at(requests, next)}.`,
        {
          seq: next.seq,
          expected,
          actual: next.route,
        },
      )
    }
    const plate = plateSent(requestOf(next))?.plate
    if (typeof plate !== 'string') {
      return fail(`Expected the query parameter plate=<the plate>; ${at(requests, next)} sent no plate parameter.`, {
        seq: next.seq,
        expected,
        actual: next.request.search,
      })
    }
    if (visit && normalizePlate(plate) !== normalizePlate(visit.plate)) {
      return fail(
        `Expected plate=${visit.plate} (the visit's, RELAY_PLATE); ${at(requests, next)} sent plate=${show(plate)}.${hint(plate)}`,
        { seq: next.seq, expected: visit.plate, actual: plate },
      )
    }
    if (next.response.status === 422) {
      return fail(
        `Expected a valid plate; ${at(requests, next)} sent plate=${show(plate)} and the mock said: "${mockSaid(next) ?? 'invalid'}".`,
        { seq: next.seq, actual: plate },
      )
    }
    return pass(`After the company was found, the client looked up the vehicle with plate=${plate}.`, { seq: next.seq })
  },
})
