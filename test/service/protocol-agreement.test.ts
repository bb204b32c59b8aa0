// The mock and the rules read HTTP with the same protocol module: the same table of requests goes
// through the mock and through the `http.*` and `auth.*` rules, and they agree. A request the mock
// turns away for its protocol (401, 404, 405, 413, 415, a body missing, not JSON or nested too deep)
// breaks a rule; a request it reads breaks none. The same holds when the journal is read back from a
// HAR made by another tool (no `_relay` fields): the HAR reader judges bodies as the mock does. (Link
// routes such as GET /vehicles/<id> are the one documented exception: the mock answers them, the
// interface does not document them, so http.known-endpoint fails them.)
import { beforeAll, describe, expect, it } from 'vitest'
import { apply, token } from '../../src/cli/checks.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { createRelayService, type RelayService } from '../../src/core/service/mock.js'
import { ruleById } from '../../src/core/rules/index.js'
import { fromHar, toHar, type RelayHarEntry } from '../../src/devtools/har.js'

const TOKEN = 'agreement-token'
const PROTOCOL_RULES = ['http.json-body', 'auth.bearer', 'http.known-endpoint']

interface Row {
  what: string
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

const good = { authorization: `Bearer ${TOKEN}` }
const vehicle = JSON.stringify({ plate: 'AB123', country: 'is' })
const LONG_JSON = JSON.stringify({ plate: 'AB123', country: 'is', note: 'þ'.repeat(5_000) })
const json = { ...good, 'content-type': 'application/json' }
const DEEP = `${'['.repeat(70)}${']'.repeat(70)}`

const rows: Row[] = [
  { what: 'a correct GET', method: 'GET', url: '/vehicles?plate=AB123', headers: good },
  {
    what: 'the scheme in lower case',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { authorization: `bearer ${TOKEN}` },
  },
  {
    what: 'two spaces after Bearer',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { authorization: `Bearer  ${TOKEN}` },
  },
  { what: 'no Authorization', method: 'GET', url: '/vehicles?plate=AB123', headers: {} },
  {
    what: 'Basic credentials',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { authorization: 'Basic dXNlcjpwYXNz' },
  },
  {
    what: 'two words after Bearer',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { authorization: `Bearer ${TOKEN} extra` },
  },
  {
    what: 'another token',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { authorization: 'Bearer someone-else' },
  },
  { what: 'the misspelled path', method: 'GET', url: '/rental-comapnies?kennitala=6803488209', headers: good },
  { what: 'GET /payment', method: 'GET', url: '/payment', headers: good },
  { what: 'an undocumented path', method: 'GET', url: '/status', headers: good },
  { what: 'a trailing slash', method: 'GET', url: '/vehicles/', headers: good },
  ...[
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'APPLICATION/JSON',
    'application/vnd.relay+json',
    'text/plain',
    'application/jsonx',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
  ].map((type) => ({
    what: `a body as ${type}`,
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': type },
    body: vehicle,
  })),
  { what: 'a body with no Content-Type', method: 'POST', url: '/vehicles', headers: good, body: vehicle },
  {
    what: 'a body that is not JSON',
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': 'application/json' },
    body: '{plate: AB123}',
  },
  // Longer than the 4 KiB of a body the journal keeps: the rule judges the whole body, as the mock read it.
  {
    what: 'a long valid body',
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': 'application/json' },
    body: LONG_JSON,
  },
  {
    what: 'a long body that is not JSON',
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': 'application/json' },
    body: `${LONG_JSON.slice(0, -1)},`,
  },
  {
    what: 'a long valid body to a route that reads none',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { ...good, 'content-type': 'application/json' },
    body: LONG_JSON,
  },
  {
    what: 'a body over the size limit',
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': 'application/json' },
    body: JSON.stringify({ plate: 'AB123', country: 'is', note: 'x'.repeat(2 * 1024 * 1024) }),
  },
  // A body the route needs, missing: the mock's 400, and http.json-body's failure.
  { what: 'no body where the route reads one', method: 'POST', url: '/vehicles', headers: json },
  { what: 'an empty body', method: 'POST', url: '/vehicles', headers: json, body: '' },
  { what: 'a body of spaces', method: 'POST', url: '/vehicles', headers: json, body: '  \n ' },
  { what: 'the simple payment with no body', method: 'POST', url: '/payment', headers: json },
  { what: 'a body nested 70 deep', method: 'POST', url: '/vehicles', headers: json, body: DEEP },
  {
    what: 'a body nested 70 deep as text/plain',
    method: 'POST',
    url: '/vehicles',
    headers: { ...good, 'content-type': 'text/plain' },
    body: DEEP,
  },
  // A GET's body: the service ignores it (RFC 9110 9.3.1), whatever it is, and so does the rule.
  {
    what: 'a text/plain body to a GET',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: { ...good, 'content-type': 'text/plain' },
    body: 'plate=AB123',
  },
  {
    what: 'a body that is not JSON to a GET',
    method: 'GET',
    url: '/vehicles?plate=AB123',
    headers: json,
    body: '{plate: AB123}',
  },
  { what: 'a body nested 70 deep to a GET', method: 'GET', url: '/vehicles?plate=AB123', headers: json, body: DEEP },
  {
    what: 'a body with no Content-Type to a GET',
    method: 'GET',
    url: '/rental-companies?kennitala=6803488209',
    headers: good,
    body: vehicle,
  },
  // Turned away before the body is read (path, method, token): judged all the same, and broken either way.
  {
    what: 'a text/plain body to an unknown path',
    method: 'POST',
    url: '/vehicle',
    headers: { ...good, 'content-type': 'text/plain' },
    body: vehicle,
  },
  { what: 'a body to a method the path lacks', method: 'PUT', url: '/vehicles', headers: json, body: vehicle },
  {
    what: 'a body that is not JSON, without a token',
    method: 'POST',
    url: '/vehicles',
    headers: { 'content-type': 'application/json' },
    body: '{plate',
  },
]

describe('the mock and the rules agree on the protocol', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createRelayService({ tokens: [TOKEN], scenario: 'new-vehicle' })
  })

  it.each(rows)('$what', async (row) => {
    const { status, entry } = await send(service, row)
    expect({ status, broken: broken(entry) }).toEqual({ status, broken: turnedAway(status) })
  })

  it("ignores a GET's body, as the rule does: the lookup is answered and http.json-body has no body to judge", async () => {
    const { status, entry } = await send(service, {
      what: '',
      method: 'GET',
      url: '/vehicles?plate=AB123',
      headers: { ...good, 'content-type': 'text/plain' },
      body: '{plate',
    })
    expect(status).toBe(200)
    expect(entry.request).toMatchObject({ bodyText: '{plate' })
    expect(entry.request.bodyError).toBeUndefined()
    expect(ruleById('http.json-body')!.check({ flow: 'advanced', requests: [entry], token: TOKEN }).status).toBe(
      'skipped',
    )
  })
})

// A HAR made by another tool (a browser, a proxy) has no `_relay` fields: no recorded route, auth or body
// verdict. The HAR reader derives them with the protocol module, so the rules still agree with the
// mock. Such a tool captures whole bodies: the mock here journals them whole, and its export is stripped.
describe('the rules agree with the mock on a HAR made elsewhere', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createRelayService({ tokens: [TOKEN], scenario: 'new-vehicle', journalBodyBytes: 8 * 1024 * 1024 })
  })

  it.each(rows)('$what', async (row) => {
    const { status, entry } = await send(service, row)
    const har = toHar([entry], { baseUrl: 'http://relay.test' })
    for (const harEntry of har.log.entries as RelayHarEntry[]) delete harEntry._relay
    const [read] = fromHar(har, { baseUrl: 'http://relay.test' })
    expect({ status, broken: broken(read) }).toEqual({ status, broken: turnedAway(status) })
  })
})

async function send(service: RelayService, row: Row): Promise<{ status: number; entry: JournalEntry }> {
  const answer = await service.handle({
    method: row.method,
    url: row.url,
    headers: row.headers,
    ...(row.body !== undefined ? { body: row.body } : {}),
  })
  return { status: answer.status, entry: service.journal.latest()! }
}

/** Whether the entry breaks any of the protocol's rules. */
function broken(entry: JournalEntry): boolean {
  return PROTOCOL_RULES.some(
    (id) => ruleById(id)!.check({ flow: 'advanced', requests: [entry], token: TOKEN }).status === 'failed',
  )
}

/** Whether the mock turned the request away for its protocol (not for its fields: 422). */
function turnedAway(status: number): boolean {
  return [400, 401, 404, 405, 413, 415].includes(status)
}

// On an unknown path the mock authenticates nothing, so auth.bearer reads the header itself: it must read
// it as the mock reads it on a known path (the scheme in any case, spaces after it).
describe('auth.bearer reads a header on an unknown path as the mock reads it on a known one', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createRelayService({ tokens: [TOKEN], scenario: 'new-vehicle' })
  })
  // Whether the mock refuses the header on a known path (401), and so the rule on an unknown one.
  const authorizations: [string, boolean][] = [
    [`Bearer ${TOKEN}`, false],
    [`bearer ${TOKEN}`, false],
    [`BEARER   ${TOKEN}`, false],
    [`Bearer ${TOKEN} `, false],
    ['Bearer someone-else', true],
    [`Bearer ${TOKEN} extra`, true],
    [`Basic ${TOKEN}`, true],
    ['Bearer', true],
  ]
  it.each(authorizations)('Authorization: %s (refused: %s)', async (authorization, refused) => {
    const known = await service.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization } })
    await service.handle({ method: 'GET', url: '/nope', headers: { authorization } })
    const entry = service.journal.latest()!
    const verdict = ruleById('auth.bearer')!.check({ flow: 'advanced', requests: [entry], token: TOKEN }).status
    expect({ known: known.status === 401, rule: verdict === 'failed' }).toEqual({ known: refused, rule: refused })
  })
})

// HEAD and OPTIONS are answered (HEAD as GET without the body, OPTIONS with Allow) but the interface
// documents neither: like a link route, only http.known-endpoint fails them, and no flow rule takes a
// HEAD for the lookup it expects. OPTIONS needs no token to be answered, yet auth.bearer still wants
// it on every request, as §5 says.
describe('HEAD and OPTIONS: answered, undocumented, never a flow call', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createRelayService({ tokens: [TOKEN], scenario: 'new-vehicle' })
  })
  const send = async (method: string, url: string, headers: Record<string, string>) => {
    const answer = await service.handle({ method, url, headers })
    return { answer, entry: service.journal.latest()! }
  }

  it.each([
    { what: 'HEAD with the token', method: 'HEAD', headers: good, status: 200, broken: ['http.known-endpoint'] },
    {
      what: 'HEAD without a token',
      method: 'HEAD',
      headers: {},
      status: 401,
      broken: ['auth.bearer', 'http.known-endpoint'],
    },
    { what: 'OPTIONS with the token', method: 'OPTIONS', headers: good, status: 204, broken: ['http.known-endpoint'] },
    {
      what: 'OPTIONS without a token',
      method: 'OPTIONS',
      headers: {},
      status: 204,
      broken: ['auth.bearer', 'http.known-endpoint'],
    },
  ])('$what', async ({ method, headers, status, broken }) => {
    const { answer, entry } = await send(method, '/vehicles?plate=AB123', headers)
    const failed = PROTOCOL_RULES.filter(
      (id) => ruleById(id)!.check({ flow: 'advanced', requests: [entry], token: TOKEN }).status === 'failed',
    )
    expect({ status: answer.status, failed: failed.sort() }).toEqual({ status, failed: broken })
  })

  it('a HEAD is not the company lookup: advanced.company-lookup-first judges the GET that follows it', async () => {
    const rule = ruleById('advanced.company-lookup-first')!
    const { entry: head } = await send('HEAD', '/rental-companies?kennitala=6803488209', good)
    expect(head.route).toBe('HEAD /rental-companies')
    expect(rule.check({ flow: 'advanced', requests: [head], token: TOKEN }).status).toBe('failed')
    const { entry: get } = await send('GET', '/rental-companies?kennitala=6803488209', good)
    expect(rule.check({ flow: 'advanced', requests: [head, get], token: TOKEN }).status).toBe('passed')
  })
})

// One definition of a token (core/token.ts): `serve --token` takes exactly the tokens the mock makes a
// world for and reads back from `Authorization: Bearer <token>`.
describe('the command line takes a token exactly when the mock reads it', () => {
  // Printable ASCII without spaces is a token (RFC 6750's b64token, and the rest of printable ASCII);
  // anything else is refused by both.
  const candidates: [string, boolean][] = [
    ['relay-mock-token', true],
    ['rm_0123abcd', true],
    ['a+b/c=', true],
    ['~!#$%&*()<>?', true],
    ['þorri', false],
    ['tök-en', false],
    ['…cdef', false],
    ['a b', false],
    ['tab\there', false],
    ['nul\u0000', false],
    ['', false],
  ]
  it.each(candidates)('%j: %s', async (candidate, taken) => {
    const cli = (() => {
      try {
        apply('--token', token, candidate)
        return true
      } catch {
        return false
      }
    })()
    const service = await createRelayService({ tokens: [candidate] }).catch(() => undefined)
    const reached = service
      ? (
          await service.handle({
            method: 'GET',
            url: '/vehicles?plate=AB123',
            headers: { authorization: `Bearer ${candidate}` },
          })
        ).status === 200
      : false
    expect({ cli, reached, made: service !== undefined }).toEqual({ cli: taken, reached: taken, made: taken })
  })
})
