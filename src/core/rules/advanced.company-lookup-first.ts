// advanced.company-lookup-first: the first call is GET /rental-companies with the owner's kennitala.
// Works live: without the case's visit it checks that the first documented call is the company
// lookup and that the mock accepted its kennitala; with the visit it also checks it is the owner's
// (RELAY_OWNER_KENNITALA). Calls to undocumented paths are left to http.known-endpoint.
import { defineRule } from './define.js'
import { at, calls, fail, mockSaid, pass, show, skip } from './facts.js'

export default defineRule({
  id: 'advanced.company-lookup-first',
  flows: ['advanced'],
  title: "the first call is GET `/rental-companies` with the owner's kennitala",
  cite: '§1 Advanced flow, rule 1; §4 Advanced integration, endpoint 1 and rule 1',
  needsCase: false,
  needs: ['visit'],
  check({ requests, visit }) {
    const expected = `GET /rental-companies?kennitala=${visit?.ownerKennitala ?? "<the owner's kennitala>"}`
    if (requests.length === 0) {
      return visit
        ? fail(`Expected the first call to be ${expected}; the client made no request at all.`, { expected })
        : skip('No request was made yet.')
    }
    const [first] = calls(requests)
    if (!first) {
      return fail(
        `Expected the first call to be ${expected}; the client made no call to a documented endpoint (it sent ${at(requests, requests[0])}).`,
        {
          seq: requests[0].seq,
          expected,
        },
      )
    }
    if (first.route !== 'GET /rental-companies') {
      return fail(`Expected the first call to be ${expected}; the first call was ${at(requests, first)}.`, {
        seq: first.seq,
        expected,
        actual: first.route,
      })
    }
    const kennitala = first.request.query['kennitala']
    if (kennitala === undefined) {
      return fail(
        `Expected the query parameter kennitala=<the owner's kennitala>; ${at(requests, first)} sent no kennitala parameter.`,
        {
          seq: first.seq,
          expected,
          actual: first.request.search,
        },
      )
    }
    if (visit && kennitala !== visit.ownerKennitala) {
      return fail(
        `Expected kennitala=${visit.ownerKennitala} (the owner's, RELAY_OWNER_KENNITALA); ${at(requests, first)} sent kennitala=${show(kennitala)}.`,
        {
          seq: first.seq,
          expected: visit.ownerKennitala,
          actual: kennitala,
        },
      )
    }
    if (first.response.status === 422) {
      return fail(
        `Expected a valid kennitala; ${at(requests, first)} sent kennitala=${show(kennitala)} and the mock said: "${mockSaid(first) ?? 'invalid'}".`,
        {
          seq: first.seq,
          actual: kennitala,
        },
      )
    }
    return pass(`The first call was GET /rental-companies with kennitala=${kennitala}.`, { seq: first.seq })
  },
})
