// http.known-endpoint: every request is a documented method and path. The documented endpoints
// are the route table's advanced and simple routes; the mock's extra link routes (GET /vehicles/<id>
// and the like) answer, but the interface does not document them ("not shown"), so a client must
// not rely on them. Works live.
import { allOf, capitalize } from '../text.js'
import { defineRule } from './define.js'
import { at, DOCUMENTED_ROUTES, fail, mockSaid, pass, skip } from './facts.js'

export default defineRule({
  id: 'http.known-endpoint',
  flows: ['advanced', 'simple'],
  title: 'every request is a documented method and path (catches `/rental-comapnies`, `GET /payment`)',
  cite: '§4 Endpoints (the advanced table, the simple table, and the notes on the misspelled path and the GET listing)',
  needsCase: false,
  check({ requests }) {
    if (requests.length === 0) return skip('No request was made.')
    const unknown = requests.filter((entry) => entry.route === null || !DOCUMENTED_ROUTES.has(entry.route))
    if (unknown.length === 0)
      return pass(
        `${capitalize(allOf(requests.length, 'request'))} ${requests.length === 1 ? 'was a documented endpoint' : 'were documented endpoints'}.`,
      )
    const [first] = unknown
    const said = mockSaid(first)
    const more = unknown.length > 1 ? ` (${unknown.length} such requests in all)` : ''
    return fail(
      `Expected only the documented endpoints (${[...DOCUMENTED_ROUTES].join(', ')}); the client sent ${at(requests, first)}${more}, which is not one` +
        (first.route !== null
          ? ' (the mock answers it, but the interface does not document it)'
          : said
            ? `; the mock said: "${said}"`
            : '') +
        '.',
      { seq: first.seq, expected: [...DOCUMENTED_ROUTES], actual: `${first.request.method} ${first.request.path}` },
    )
  },
})
