import type { Har } from 'har-format'
import { describe, expect, it } from 'vitest'
import { fromHar, fromHarConversations, toHar } from '../../src/devtools/har.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { routeOf } from '../../src/core/service/protocol.js'
import { checkVisits } from '../../src/devtools/live/visits.js'
import { evaluate } from '../../src/core/rules/index.js'
import { FIXTURE_TOKEN, converse, skippedCustodianCase } from './fixtures.js'
import { harValidator } from './har-schema.js'

async function mixedConversation() {
  return converse('new-vehicle', (w) => [
    { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
    { method: 'GET', url: `/vehicles?plate=${w.visit.plate}&plate=XX` },
    {
      method: 'POST',
      url: '/vehicles',
      rawBody: '{"plate": "AB123", ',
      headers: { 'content-type': 'application/json' },
    },
    { method: 'POST', url: '/vehicles', body: { plate: w.visit.plate, country: 'is' }, noAuth: true },
    { method: 'GET', url: '/rental-comapnies?kennitala=1' },
    { method: 'POST', url: '/payment', body: { location: w.location.id } },
  ])
}

describe('toHar', () => {
  it('exports the journal as HAR 1.2 that validates against the HAR schema', async () => {
    const { entries } = await mixedConversation()
    const har = toHar(entries, { baseUrl: 'http://127.0.0.1:4010', version: '0.1.0' })
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual({ name: 'relay-mock', version: '0.1.0' })
    expect(har.log.entries).toHaveLength(entries.length)
  })

  it('fails validation when an entry lacks what HAR 1.2 requires (the validator is not vacuous)', async () => {
    const { entries } = await mixedConversation()
    const har = toHar(entries, { baseUrl: 'http://relay.test' }) as any
    delete har.log.entries[0].timings
    har.log.entries[1].request.headers = 'none'
    expect(harValidator()(har)).toBe(false)
  })

  it('writes absolute URLs under the base URL, the query string and the posted body', async () => {
    const { entries, world } = await mixedConversation()
    const [lookup, plates, , create] = toHar(entries, { baseUrl: 'http://relay.test/' }).log.entries
    expect(lookup.request.url).toBe(`http://relay.test/rental-companies?kennitala=${world.visit.ownerKennitala}`)
    expect(plates.request.queryString).toEqual([
      { name: 'plate', value: world.visit.plate },
      { name: 'plate', value: 'XX' },
    ])
    expect(create.request.postData).toEqual({
      mimeType: 'application/json',
      text: JSON.stringify({ plate: world.visit.plate, country: 'is' }),
    })
    expect(create.request.bodySize).toBe(create.request.postData!.text!.length)
    expect(create.response.status).toBe(401)
    expect(create.response.statusText).toBe('Unauthorized')
    expect(JSON.parse(create.response.content.text!)).toMatchObject({ status: 401 })
  })

  it('never contains the token', async () => {
    const { entries } = await mixedConversation()
    const text = JSON.stringify(toHar(entries, { baseUrl: 'http://relay.test' }))
    expect(text).not.toContain(FIXTURE_TOKEN)
    expect(text).toContain('Bearer …0001')
  })
})

describe('fromHar', () => {
  it("round-trips relay-mock's own export to the same verdicts as the live evaluation", async () => {
    const { entries } = await mixedConversation()
    const back = fromHar(toHar(entries, { baseUrl: 'http://127.0.0.1:4010' }))
    const verdicts = (visits: ReturnType<typeof checkVisits>) =>
      visits.map((v) => ({ id: v.id, flow: v.flow, status: v.status, checks: v.checks }))
    expect(verdicts(checkVisits(back))).toEqual(verdicts(checkVisits(entries)))
    expect(back.map((e) => e.request)).toEqual(entries.map((e) => e.request))
  })

  it('derives the endpoint and the auth verdict from a HAR captured elsewhere, with the same verdicts', async () => {
    const { case: kase } = { case: await skippedCustodianCase() }
    const har = toHar(kase.requests, { baseUrl: 'https://staging.relay.example/api/v1' })
    // A capture from a proxy: no relay-mock fields, the real token, and a request to another host.
    const foreign: Har = {
      log: {
        ...har.log,
        entries: [
          {
            ...har.log.entries[0],
            request: { ...har.log.entries[0].request, url: 'https://cdn.example/app.js', method: 'GET' },
          },
          ...har.log.entries.map(({ _relay, ...entry }: any) => ({
            ...entry,
            request: {
              ...entry.request,
              headers: entry.request.headers.map((h: any) =>
                h.name === 'authorization' ? { name: 'Authorization', value: 'Bearer live-secret-token-123456' } : h,
              ),
            },
          })),
        ],
      },
    }
    const back = fromHar(foreign)
    expect(back.map((e) => `${e.route} ${e.auth}`)).toEqual(kase.requests.map((e) => `${e.route} ${e.auth}`))
    expect(back.map((e) => e.request.path)).toEqual(kase.requests.map((e) => e.request.path))
    expect(JSON.stringify(back)).not.toContain('live-secret-token-123456')
    expect(evaluate({ flow: 'advanced', requests: back }).map((c) => [c.rule, c.status])).toEqual(
      evaluate({ flow: 'advanced', requests: kase.requests }).map((c) => [c.rule, c.status]),
    )
  })

  it('reads a base64 response body, and judges a text/plain body as the mock does', () => {
    const har: Har = {
      log: {
        version: '1.2',
        creator: { name: 'proxy', version: '1' },
        entries: [
          {
            startedDateTime: '2026-11-21T10:00:00.000Z',
            time: 3,
            request: {
              method: 'post',
              url: 'http://relay.test/vehicles',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'Content-Type', value: 'text/plain' }],
              queryString: [],
              postData: { mimeType: 'text/plain', text: 'plate=AB123' },
              headersSize: -1,
              bodySize: 11,
            },
            response: {
              status: 201,
              statusText: 'Created',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [],
              content: { size: 13, mimeType: 'application/json', text: btoa('{"id":"abc"}'), encoding: 'base64' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 13,
            },
            cache: {},
            timings: { send: 0, wait: 3, receive: 0 },
          },
        ],
      },
    }
    const [entry] = fromHar(har)
    expect(entry.request.method).toBe('POST')
    expect(entry.route).toBe('POST /vehicles')
    expect(entry.auth).toBe('missing')
    expect(entry.request.bodyText).toBe('plate=AB123')
    // The mock's verdict, in its words: it refuses this body for its type (415) before reading it as JSON.
    expect(entry.request.bodyError).toMatch(/^The body is sent as text\/plain; the service reads only JSON/)
    expect(entry.response.body).toEqual({ id: 'abc' })
  })
})

describe('an answer larger than the proxy reads', () => {
  it('comes back from the HAR marked as its first bytes only', () => {
    const answered = {
      seq: 1,
      time: '2026-11-26T12:00:00.000Z',
      durationMs: 3,
      worldId: 'world-1',
      route: 'GET /vehicles',
      auth: 'ok' as const,
    }
    const request = {
      method: 'GET',
      path: '/vehicles',
      query: { plate: 'AB123' },
      search: '?plate=AB123',
      headers: { authorization: 'Bearer …0001' },
    }
    const entries: JournalEntry[] = [
      {
        ...answered,
        request,
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: '[{"id":"5f0c',
          bodyTruncated: true,
        },
      },
      {
        ...answered,
        seq: 2,
        request,
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: [] },
      },
    ]
    const har = toHar(entries, { baseUrl: 'http://relay.test' })
    expect(har.log.entries[0].response.content.comment).toMatch(/first bytes/)
    const back = fromHar(har)
    expect(back.map((entry) => entry.response.bodyTruncated)).toEqual([true, undefined])
    expect(back[0].response.body).toBe('[{"id":"5f0c')
  })
})

describe('the connection each request came on', () => {
  it("goes out as HAR's connection field and comes back, from relay-mock's own export or a capture from elsewhere", () => {
    const answered = {
      time: '2026-11-26T12:00:00.000Z',
      durationMs: 3,
      worldId: 'world-1',
      route: 'GET /vehicles',
      auth: 'ok' as const,
    }
    const request = {
      method: 'GET',
      path: '/vehicles',
      query: { plate: 'AB123' },
      search: '?plate=AB123',
      headers: { authorization: 'Bearer …0001' },
    }
    const response = { status: 200, headers: { 'content-type': 'application/json' }, body: [] }
    const entries: JournalEntry[] = [
      { ...answered, seq: 1, request, response, connection: '7' },
      { ...answered, seq: 2, request, response },
    ]
    const har = toHar(entries, { baseUrl: 'http://relay.test' })
    expect(har.log.entries.map((entry) => entry.connection)).toEqual(['7', undefined])
    expect(fromHar(har).map((entry) => entry.connection)).toEqual(['7', undefined])
    // A browser's capture names connections too (Chrome writes the client port): read as they are.
    const elsewhere = {
      log: {
        ...har.log,
        entries: har.log.entries.map((entry) => ({ ...entry, _relay: undefined, connection: '51234' })),
      },
    }
    expect(fromHar(elsewhere).map((entry) => entry.connection)).toEqual(['51234', '51234'])
  })
})

describe('a body longer than the journal keeps', () => {
  it("goes out as its start with its whole size and the mock's verdict, and comes back judged as the mock judged it", async () => {
    const long = `${' '.repeat(5_000)}${JSON.stringify({ plate: 'AB123', country: 'is' })}`
    const { entries } = await converse('new-vehicle', () => [
      { method: 'POST', url: '/vehicles', rawBody: long, headers: { 'content-type': 'application/json' } },
      {
        method: 'POST',
        url: '/vehicles',
        rawBody: `${long.slice(0, -1)},`,
        headers: { 'content-type': 'application/json' },
      },
    ])
    const har = toHar(entries, { baseUrl: 'http://relay.test' })
    expect(har.log.entries[0].request.bodySize).toBe(Buffer.byteLength(long))
    expect(har.log.entries[0].request.postData!.text).toHaveLength(4096)
    const back = fromHar(har)
    expect(
      back.map((entry) => [entry.request.bodyTruncated, entry.request.bodyBytes, entry.request.bodyError]),
    ).toEqual([
      [true, Buffer.byteLength(long), undefined],
      [true, Buffer.byteLength(long), expect.stringMatching(/not valid JSON/)],
    ])
    expect(
      evaluate({ flow: 'advanced', requests: back.slice(0, 1) }).find((check) => check.rule === 'http.json-body')
        ?.status,
    ).toBe('passed')
    expect(
      evaluate({ flow: 'advanced', requests: back.slice(1) }).find((check) => check.rule === 'http.json-body')?.status,
    ).toBe('failed')
  })
})

describe('fromHarConversations', () => {
  it('keeps apart the conversations of a capture: each HAR page, each service address', async () => {
    const { entries } = await mixedConversation()
    const a = toHar(entries.slice(0, 2), { baseUrl: 'http://127.0.0.1:4001' }).log.entries.map(
      ({ _relay, ...e }: any) => e,
    )
    const b = toHar(entries.slice(2, 4), { baseUrl: 'http://127.0.0.1:4002/relay' }).log.entries.map(
      ({ _relay, ...e }: any) => e,
    )
    // Interleaved in time, as parallel cases are.
    const mixed = [a[0], b[0], a[1], b[1]].map((e, i) => ({
      ...e,
      startedDateTime: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
    }))
    const conversations = fromHarConversations({
      log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: mixed },
    })
    expect(conversations.map((c) => [c.id, c.entries.map((e) => e.request.path)])).toEqual([
      ['http://127.0.0.1:4001', ['/rental-companies', '/vehicles']],
      ['http://127.0.0.1:4002/relay', ['/vehicles', '/vehicles']],
    ])
  })
})

describe('a HAR captured elsewhere: where the service sits, and bodies it kept only the start of', () => {
  const capture = (
    entries: Array<{ method?: string; url: string; text?: string; bodySize?: number; type?: string }>,
  ): Har => ({
    log: {
      version: '1.2',
      creator: { name: 'proxy', version: '1' },
      entries: entries.map(({ method = 'GET', url, text, bodySize, type = 'application/json' }, i) => ({
        startedDateTime: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
        time: 1,
        request: {
          method,
          url,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [{ name: 'Content-Type', value: type }],
          queryString: [],
          ...(text !== undefined ? { postData: { mimeType: type, text } } : {}),
          headersSize: -1,
          bodySize: bodySize ?? (text === undefined ? 0 : Buffer.byteLength(text)),
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'application/json' },
          redirectURL: '',
          headersSize: -1,
          bodySize: 0,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      })),
    },
  })

  // Each resource of the route table, and the misspelt one the interface writes, places the service.
  it.each(['/rental-companies', '/vehicles', '/custodians', '/payments', '/payment', '/rental-comapnies'])(
    'finds the service mounted under /api/v1 by a request to %s alone',
    (path) => {
      const entries = fromHar(
        capture([{ url: `https://staging.example/api/v1${path}` }, { url: 'https://cdn.example/app.js' }]),
      )
      expect(entries.map((entry) => entry.request.path)).toEqual([path])
    },
  )

  it('judges the start of a body by what a start shows: its size against the limit, its type, its nesting; never whether the rest is JSON', () => {
    const start = '{"plate": "AB123", "note": "'
    const entries = fromHar(
      capture([
        { method: 'POST', url: 'http://relay.test/vehicles', text: start, bodySize: 2 * 1024 * 1024 },
        { method: 'POST', url: 'http://relay.test/vehicles', text: start, bodySize: 10_000 },
        { method: 'POST', url: 'http://relay.test/vehicles', text: start, bodySize: 10_000, type: 'text/plain' },
        { method: 'POST', url: 'http://relay.test/vehicles', text: '['.repeat(70), bodySize: 10_000 },
        { method: 'POST', url: 'http://relay.test/vehicles', bodySize: 10_000 },
      ]),
    )
    expect(
      entries.map((entry) => [entry.request.bodyTruncated, entry.request.bodyBytes, entry.request.bodyError]),
    ).toEqual([
      [true, 2 * 1024 * 1024, expect.stringMatching(/^The body is larger than the 1048576 bytes/)],
      [true, 10_000, undefined],
      [true, 10_000, expect.stringMatching(/^The body is sent as text\/plain/)],
      [true, 10_000, expect.stringMatching(/nests deeper than 64 levels/)],
      // A size with no text: a body all the same, never "empty".
      [true, 10_000, undefined],
    ])
    const jsonBody = (i: number) =>
      evaluate({ flow: 'advanced', requests: [entries[i]] }).find((check) => check.rule === 'http.json-body')?.status
    expect([0, 1, 2, 3, 4].map(jsonBody)).toEqual(['failed', 'passed', 'failed', 'failed', 'passed'])
  })
})

describe('routeOf', () => {
  it('names the documented endpoint of a method and path, and null for anything else', () => {
    expect(routeOf('GET', '/rental-companies')).toBe('GET /rental-companies')
    expect(routeOf('GET', '/rental-comapnies')).toBeNull()
    expect(routeOf('GET', '/payment')).toBeNull()
  })
})
