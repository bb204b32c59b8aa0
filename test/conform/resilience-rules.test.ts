// The resilience rules and the `unknown` outcome on journals written by hand: what a client did after
// a fault, with the times that decide a wait. Each rule passes the careful client and fails the
// careless one, naming the request (seq) at fault.
import { describe, expect, it } from 'vitest'
import type { FaultKind } from '../../src/core/service/faults.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { caseStatus, ruleById } from '../../src/core/rules/index.js'
import type { CaseContext, ClientReport, ClientRun, Flow } from '../../src/core/rules/types.js'

const T0 = Date.parse('2026-11-21T10:00:00.000Z')

interface Step {
  route: string
  status: number
  /** ms after T0 the request arrived. */
  at: number
  durationMs?: number
  fault?: FaultKind
  body?: unknown
  headers?: Record<string, string>
  sent?: string
  /** The connection it came on, as relay-mock's server journals it. */
  connection?: string
  /** The User-Agent it sent. */
  agent?: string
}

function journal(steps: Step[]): JournalEntry[] {
  return steps.map((step, i): JournalEntry => {
    const [method, pathAndQuery] = step.route.split(' ')
    const [path, query = ''] = pathAndQuery.split('?')
    return {
      seq: i + 1,
      time: new Date(T0 + step.at).toISOString(),
      durationMs: step.durationMs ?? 5,
      worldId: 'world-1',
      request: {
        method,
        path,
        query: {},
        search: query ? `?${query}` : '',
        headers: step.agent ? { 'user-agent': step.agent } : {},
        ...(step.sent !== undefined ? { bodyText: step.sent } : method === 'POST' ? { bodyText: '{"a":1}' } : {}),
      },
      response: {
        status: step.status,
        headers: step.headers ?? {},
        body: step.status === 0 ? null : (step.body ?? {}),
      },
      route: `${method} ${path}`,
      auth: 'ok',
      ...(step.connection ? { connection: step.connection } : {}),
      ...(step.fault
        ? {
            fault: {
              kind: step.fault,
              mode: 'once',
              applied: !['unavailable', 'rate-limited', 'token-revoked'].includes(step.fault),
            },
          }
        : {}),
    }
  })
}

const client = (report?: ClientReport, extra: Partial<ClientRun> = {}): ClientRun => ({
  command: 'client',
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 900,
  stdout: '',
  stderr: '',
  report,
  ...extra,
})
const check = (rule: string, steps: Step[], extra: Partial<CaseContext> = {}, flow: Flow = 'advanced') =>
  ruleById(rule)!.check({ flow, requests: journal(steps), ...extra })

const company: Step = { route: 'GET /rental-companies?kennitala=5501692829', status: 200, at: 0, body: [{ id: 'c1' }] }
const vehicles = (at: number, body: unknown[] = [{ id: 'v1' }]): Step => ({
  route: 'GET /vehicles?plate=AB123',
  status: 200,
  at,
  body,
})

describe('resilience.no-resend', () => {
  it('fails a POST /payments sent again after the connection was reset, naming the resend', () => {
    const outcome = check('resilience.no-resend', [
      company,
      vehicles(10),
      { route: 'POST /payments', status: 0, at: 20, fault: 'reset' },
      { route: 'POST /payments', status: 201, at: 40, body: { id: 'p2' } },
    ])
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(4)
    expect(outcome.message).toMatch(
      /^Expected no second POST \/payments after POST \/payments \(request 3 of 4\) \[seq 3\]: the connection was reset/,
    )
    expect(outcome.message).toContain('"unknown"')
  })

  it('fails a POST /payment resent after a truncated 201', () => {
    const outcome = check(
      'resilience.no-resend',
      [
        { route: 'POST /payment', status: 201, at: 0, fault: 'truncated', body: { id: 'p1' } },
        { route: 'POST /payment', status: 201, at: 10, body: { id: 'p2' } },
      ],
      {},
      'simple',
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toContain('was cut off halfway')
  })

  it('passes POST /vehicles sent again once GET /vehicles showed the plate still missing', () => {
    const outcome = check('resilience.no-resend', [
      company,
      vehicles(10, []),
      { route: 'POST /vehicles', status: 500, at: 20 },
      vehicles(30, []),
      { route: 'POST /vehicles', status: 201, at: 40, body: { id: 'v9' } },
    ])
    expect(outcome.status).toBe('passed')
  })

  it('fails POST /vehicles sent again blind after a 500', () => {
    const outcome = check('resilience.no-resend', [
      company,
      vehicles(10, []),
      { route: 'POST /vehicles', status: 500, at: 20 },
      { route: 'POST /vehicles', status: 201, at: 600, body: { id: 'v9' } },
    ])
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toContain('Expected GET /vehicles to show the plate still missing')
  })

  describe("names libcurl's own resend of a POST after a kept-alive connection's reset, with the setting that stops it", () => {
    const curl = (step: Step, connection: string): Step => ({ ...step, connection, agent: 'GuzzleHttp/7' })
    const payment = (at: number, connection: string, extra: Partial<Step> = {}) =>
      curl({ route: 'POST /payments', status: 201, at, body: { id: 'p2' }, ...extra }, connection)
    const lost = (connection: string) => payment(20, connection, { status: 0, durationMs: 1, fault: 'reset' })

    it("fails it, naming the library, not the client's code", () => {
      const outcome = check('resilience.no-resend', [
        curl(company, '1'),
        curl(vehicles(10), '1'),
        lost('1'),
        payment(22, '2'),
      ])
      expect(outcome.status).toBe('failed')
      expect(outcome.seq).toBe(4)
      expect(outcome.message).toMatch(
        /^Expected no second POST \/payments after POST \/payments \(request 3 of 4\) \[seq 3\]: the connection was reset/,
      )
      expect(outcome.message).toContain(
        "it was sent again as POST /payments (request 4 of 4) [seq 4], 1 ms later on a new connection, right after the kept-alive connection it came on was reset: the client's HTTP library resent it by itself",
      )
      for (const words of [
        'libcurl',
        'CURLOPT_FORBID_REUSE',
        'CURLOPT_FRESH_CONNECT',
        "'curl' => [CURLOPT_FORBID_REUSE => true, CURLOPT_FRESH_CONNECT => true]",
        'Report the outcome "unknown"',
      ])
        expect(outcome.message).toContain(words)
      expect(outcome.message).not.toContain('Net::HTTP')
      expect(outcome.message).not.toContain('the client sent it again')
    })

    it("keeps the client's own resend its own: on a fresh connection, after a wait, or where the library resends no POST", () => {
      const own =
        /the client sent it again as POST \/payments \(request 4 of 4\) \[seq 4\]\. Report the outcome "unknown" instead\./
      // The reset connection was new: libcurl resends only on a reused one.
      expect(
        check('resilience.no-resend', [curl(company, '1'), curl(vehicles(10), '1'), lost('2'), payment(22, '3')])
          .message,
      ).toMatch(own)
      // 600 ms later: the client's own loop.
      expect(
        check('resilience.no-resend', [curl(company, '1'), curl(vehicles(10), '1'), lost('1'), payment(621, '2')])
          .message,
      ).toMatch(own)
      // Net::HTTP resends no POST.
      const ruby = (step: Step): Step => ({ ...step, agent: 'Ruby' })
      expect(
        check('resilience.no-resend', [
          ruby(curl(company, '1')),
          ruby(curl(vehicles(10), '1')),
          ruby(lost('1')),
          ruby(payment(22, '2')),
        ]).message,
      ).toMatch(own)
      // The journal does not know the connections.
      expect(
        check('resilience.no-resend', [
          company,
          vehicles(10),
          { route: 'POST /payments', status: 0, at: 20, durationMs: 1, fault: 'reset' },
          { route: 'POST /payments', status: 201, at: 22, body: { id: 'p2' } },
        ]).message,
      ).toMatch(own)
    })
  })

  it('does not apply to a POST retried after a 503, which records nothing', () => {
    expect(
      check(
        'resilience.no-resend',
        [
          { route: 'POST /payment', status: 503, at: 0 },
          { route: 'POST /payment', status: 201, at: 1100 },
        ],
        {},
        'simple',
      ).status,
    ).toBe('skipped')
  })
})

describe('resilience.retry-after', () => {
  const unavailable: Step = {
    route: 'POST /payments',
    status: 503,
    at: 0,
    durationMs: 5,
    headers: { 'retry-after': '1' },
  }
  it('passes a retry one second after Retry-After: 1', () => {
    expect(
      check('resilience.retry-after', [unavailable, { route: 'POST /payments', status: 201, at: 1010 }]).status,
    ).toBe('passed')
  })

  it('fails a retry sooner than Retry-After: 1, naming the retry and the wait', () => {
    const outcome = check('resilience.retry-after', [unavailable, { route: 'POST /payments', status: 201, at: 305 }])
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(2)
    expect(outcome.message).toContain('Expected a wait of at least 1.0 s')
    expect(outcome.message).toContain('after 300 ms')
  })

  it('judges an HTTP-date with one second of tolerance', () => {
    const limited = (date: number): Step => ({
      route: 'GET /vehicles?plate=AB123',
      status: 429,
      at: 0,
      durationMs: 0,
      headers: { 'retry-after': new Date(T0 + date).toUTCString() },
    })
    expect(check('resilience.retry-after', [limited(3000), { ...vehicles(2100) }]).status).toBe('passed')
    expect(check('resilience.retry-after', [limited(3000), { ...vehicles(1500) }]).status).toBe('failed')
  })

  it('does not judge a retry sent before the 503 went out: the client had given up on it and never read the Retry-After', () => {
    // The client's 5 s timeout ended the first lookup at 5,000 ms; the busy server answered 503 at 6,000 ms.
    const late: Step = {
      route: 'GET /vehicles?plate=AB123',
      status: 503,
      at: 0,
      durationMs: 6000,
      headers: { 'retry-after': '1' },
    }
    expect(check('resilience.retry-after', [late, vehicles(5010)]).status).toBe('passed')
    // The same retry sent once the 503 was out is judged: 10 ms is not the second it asked for.
    expect(check('resilience.retry-after', [late, vehicles(6010)]).status).toBe('failed')
  })

  it('warns when the client gives up at once on a 503 it was told to retry', () => {
    const outcome = check('resilience.retry-after', [unavailable])
    expect(outcome.status).toBe('warning')
    expect(outcome.message).toMatch(/^Expected a retry of POST \/payments/)
  })
})

describe('resilience.bounded-retries', () => {
  const reset = (at: number): Step => ({
    route: 'GET /vehicles?plate=AB123',
    status: 0,
    at,
    durationMs: 1,
    fault: 'reset',
  })
  it('lets a lookup be retried at once after a reset', () => {
    expect(check('resilience.bounded-retries', [company, reset(10), reset(12), vehicles(14)]).status).toBe('passed')
  })

  it('lets a lookup be retried at once when the 500 went out only after the client had given up on it', () => {
    const late: Step = { route: 'GET /vehicles?plate=AB123', status: 500, at: 10, durationMs: 6000 }
    expect(check('resilience.bounded-retries', [company, late, vehicles(5020)]).status).toBe('passed')
    expect(check('resilience.bounded-retries', [company, late, vehicles(6020)]).status).toBe('warning')
  })

  it('fails a sixth attempt (a retry storm), naming it', () => {
    const outcome = check('resilience.bounded-retries', [
      company,
      reset(10),
      reset(12),
      reset(14),
      reset(16),
      reset(18),
      reset(20),
    ])
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(7)
    expect(outcome.message).toContain('Expected at most 5 attempts in all at GET /vehicles')
    expect(outcome.message).toContain('retry storm')
  })

  it("warns at a fourth or fifth attempt (axios-retry's and urllib3 Retry(total=3)'s 4 attempts), naming the fourth", () => {
    for (const tries of [4, 5]) {
      const outcome = check('resilience.bounded-retries', [
        company,
        ...Array.from({ length: tries - 1 }, (_, i) => reset(10 + 2 * i)),
        vehicles(30),
      ])
      expect(outcome.status).toBe('warning')
      expect(outcome.seq).toBe(5)
      expect(outcome.message).toMatch(/^Expected 3 attempts in all at GET \/vehicles to be enough/)
      expect(outcome.message).toContain(`the client made ${tries}`)
    }
  })

  it('warns when the client gives up on a lookup at once after a lost answer or a 500, naming the lookup', () => {
    const outcome = check('resilience.bounded-retries', [company, reset(10)])
    expect(outcome.status).toBe('warning')
    expect(outcome.seq).toBe(2)
    expect(outcome.message).toMatch(
      /^Expected a retry of GET \/vehicles: GET \/vehicles\?plate=AB123 \(request 2 of 2\) \[seq 2\] failed, as the connection was reset \(no answer\)\. A lookup changes nothing/,
    )
    expect(outcome.message).toContain('Safe, but one retry would likely have completed the visit.')
    expect(
      check('resilience.bounded-retries', [
        company,
        { route: 'GET /vehicles?plate=AB123', status: 500, at: 10, fault: 'server-error' },
      ]).status,
    ).toBe('warning')
  })

  it('does not warn when the lookup was retried, when the client went on to another call, or when the lookup hung (its timeout was the wait)', () => {
    expect(check('resilience.bounded-retries', [company, reset(10), vehicles(12)]).status).toBe('passed')
    expect(
      check('resilience.bounded-retries', [
        company,
        reset(10),
        { route: 'POST /vehicles', status: 201, at: 20, body: { id: 'v2' } },
      ]).status,
    ).toBe('skipped')
    expect(
      check('resilience.bounded-retries', [
        company,
        { route: 'GET /vehicles?plate=AB123', status: 0, at: 10, durationMs: 5000, fault: 'hang' },
      ]).status,
    ).toBe('skipped')
    expect(
      check('resilience.bounded-retries', [
        company,
        {
          route: 'GET /vehicles?plate=AB123',
          status: 503,
          at: 10,
          fault: 'unavailable',
          headers: { 'retry-after': '1' },
        },
      ]).status,
    ).toBe('skipped')
    expect(
      check('resilience.bounded-retries', [company, { route: 'POST /payments', status: 0, at: 10, fault: 'reset' }])
        .status,
    ).toBe('skipped')
  })

  it("warns at a retry within 500 ms of a 500 (ky's 300 ms, axios-retry's and urllib3's at once), naming it", () => {
    const outcome = check('resilience.bounded-retries', [
      company,
      { route: 'GET /vehicles?plate=AB123', status: 500, at: 10 },
      vehicles(100),
    ])
    expect(outcome.status).toBe('warning')
    expect(outcome.seq).toBe(3)
    expect(outcome.message).toMatch(/^Expected a wait of at least 500 ms before retrying after a 500/)
    expect(
      check('resilience.bounded-retries', [
        company,
        { route: 'GET /vehicles?plate=AB123', status: 500, at: 10 },
        vehicles(600),
      ]).status,
    ).toBe('passed')
  })

  describe("names the HTTP library's own resend after a kept-alive connection's reset, not the client's retry limit", () => {
    const on = (step: Step, connection: string): Step => ({ ...step, connection })
    const first = on(company, '1')

    it('an attempt at once on a new connection, the client waiting 300 ms before its own: 3 of the 4 are its own', () => {
      const outcome = check('resilience.bounded-retries', [
        first,
        on(reset(10), '1'),
        on(reset(13), '2'),
        on(reset(320), '3'),
        on(reset(630), '4'),
      ])
      expect(outcome.status).toBe('warning')
      expect(outcome.seq).toBe(5)
      expect(outcome.actual).toBe(4)
      expect(outcome.message).toMatch(/^Expected 3 attempts in all at GET \/vehicles to be enough.*the client made 4/)
      expect(outcome.message).toContain(
        "the client's own loop made 3 of the 4. GET /vehicles?plate=AB123 (request 3 of 5) [seq 3] went 2 ms after GET /vehicles?plate=AB123 (request 2 of 5) [seq 2], which came on a kept-alive connection, was reset",
      )
      expect(outcome.message).toContain('most likely its HTTP library resent it by itself')
      for (const library of [
        "Go's net/http",
        'Transport.DisableKeepAlives',
        'java.net.http',
        'jdk.httpclient.disableRetryConnect=true',
        'urllib3',
      ])
        expect(outcome.message).toContain(library)
      expect(outcome.message).not.toContain('set the retry limit')
    })

    it("keeps the retry limit's advice where the client's own loop made the attempts", () => {
      const ownLimit = /: set the retry limit to 2\. \(interface/
      // Its own retries come at once too: nothing tells a library's resend from them, and the advice says so.
      const quick = check('resilience.bounded-retries', [
        first,
        on(reset(10), '1'),
        on(reset(13), '2'),
        on(reset(16), '3'),
        on(reset(19), '4'),
      ]).message
      expect(quick).toContain(
        ': set the retry limit to 2, unless its HTTP library sent some of them by itself: GET /vehicles?plate=AB123 (request 3 of 5) [seq 3] and GET /vehicles?plate=AB123 (request 5 of 5) [seq 5] each went within 2 ms after the attempt before them was reset',
      )
      expect(quick).toContain('If so, its own loop made 2: stop that resend instead. libcurl')
      expect(quick).not.toContain('most likely')
      // The journal does not know the connections (the in-process mock, a capture without them).
      expect(
        check('resilience.bounded-retries', [company, reset(10), reset(13), reset(320), reset(630)]).message,
      ).toMatch(ownLimit)
      // Its own loop made 4 besides the library's resend: its limit is what to lower.
      const five = check('resilience.bounded-retries', [
        first,
        on(reset(10), '1'),
        on(reset(13), '2'),
        on(reset(320), '3'),
        on(reset(630), '4'),
        on(reset(940), '5'),
      ])
      expect(five.message).toMatch(ownLimit)
    })
  })

  describe("names Ruby's Net::HTTP resend of a GET on a fresh connection, after a reset and after its own timeout", () => {
    const ruby = (step: Step, connection: string): Step => ({ ...step, connection, agent: 'Ruby' })
    const hang = (at: number): Step => ({
      route: 'GET /vehicles?plate=AB123',
      status: 0,
      at,
      durationMs: 1000,
      fault: 'hang',
    })

    it('after resets: each attempt of its own loop doubled, a storm that names the library', () => {
      const steps = [0, 3, 500, 503, 1000, 1003].map((at, i) => ruby(reset(10 + at), String(i + 2)))
      const outcome = check('resilience.bounded-retries', [ruby(company, '1'), ...steps])
      expect(outcome.status).toBe('failed')
      expect(outcome.actual).toBe(6)
      expect(outcome.message).toContain(
        "the client's own loop made 3 of the 6. GET /vehicles?plate=AB123 (request 3 of 7) [seq 3] and GET /vehicles?plate=AB123 (request 5 of 7) [seq 5] and GET /vehicles?plate=AB123 (request 7 of 7) [seq 7] each went within 2 ms after the attempt before them was reset",
      )
      for (const words of ['Net::HTTP', '`max_retries` is 1', 'max_retries = 0'])
        expect(outcome.message).toContain(words)
      for (const words of ['libcurl', "Go's net/http", 'set the retry limit'])
        expect(outcome.message).not.toContain(words)
    })

    it('after its own timeout: named in the warning, and the deadline is not told to set a timeout it has', () => {
      // Each hang ends at the client's 1 s timeout; Net::HTTP sends it again at once, its own loop 500 ms later.
      const steps = [0, 1001, 2501, 3502].map((at, i) => ruby(hang(10 + at), String(i + 2)))
      const requests = [ruby(company, '1'), ...steps, ruby({ ...hang(5012), durationMs: 188 }, '6')]
      const many = check('resilience.bounded-retries', requests)
      expect(many.status).toBe('warning')
      expect(many.message).toContain('got no answer and the client gave up at its timeout')
      expect(many.message).toContain('max_retries = 0')
      const deadline = check('resilience.deadline', requests, {
        client: client(undefined, { timedOut: true, exitCode: null, durationMs: 5200 }),
        deadlineMs: 5200,
      })
      expect(deadline.status).toBe('failed')
      expect(deadline.message).toContain(
        'It has a timeout: it gave up on 4 hung requests by itself, after 1.0 s at most; but its HTTP library sent 2 of them again by itself',
      )
      expect(deadline.message).toContain('max_retries = 0')
      expect(deadline.message).not.toContain('Give every request a timeout')
      // Faraday's Net::HTTP adapter resends nothing: its retry middleware is what went again.
      const faraday = requests.map((step) => ({ ...step, agent: 'Faraday v1.1.0' }))
      const middleware = check('resilience.bounded-retries', faraday).message
      expect(middleware).toContain("Faraday's retry middleware")
      expect(middleware).not.toContain('Net::HTTP sends')
    })
  })

  it('gives one warning that names each thing short of best: four quick attempts', () => {
    const error = (at: number): Step => ({ route: 'GET /vehicles?plate=AB123', status: 502, at })
    const outcome = check('resilience.bounded-retries', [company, error(10), error(20), error(30), error(40)])
    expect(outcome.status).toBe('warning')
    expect(outcome.message).toMatch(
      /^Expected 3 attempts in all at GET \/vehicles to be enough.* Also: Expected a wait of at least 500 ms before retrying after a 502/,
    )
  })
})

describe('resilience.no-retry-on-refusal', () => {
  const refused = (status: number, at: number): Step => ({ route: 'POST /payments', status, at })
  it('warns at the same request sent once more after a 422 or a 400, naming the retry', () => {
    for (const status of [422, 400]) {
      const outcome = check('resilience.no-retry-on-refusal', [refused(status, 0), refused(status, 10)])
      expect(outcome.status).toBe('warning')
      expect(outcome.seq).toBe(2)
      expect(outcome.message).toMatch(new RegExp(`^Expected no retry of a ${status}`))
    }
  })

  it('fails a refusal sent again twice, naming the second retry', () => {
    const outcome = check('resilience.no-retry-on-refusal', [refused(422, 0), refused(422, 10), refused(422, 20)])
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(3)
    expect(outcome.message).toMatch(/^Expected a refused request to be sent again once at most/)
  })

  it('allows one more attempt after a 401 or a 403, not two', () => {
    for (const status of [401, 403]) {
      expect(check('resilience.no-retry-on-refusal', [refused(status, 0), refused(status, 10)]).status).toBe('passed')
      const outcome = check('resilience.no-retry-on-refusal', [
        refused(status, 0),
        refused(status, 10),
        refused(status, 20),
      ])
      expect(outcome.status).toBe('failed')
      expect(outcome.seq).toBe(3)
    }
  })
})

describe('resilience.deadline', () => {
  const hung: Step = { route: 'POST /payments', status: 0, at: 0, durationMs: 29_000, fault: 'hang' }
  it('fails a client killed at the deadline, naming the request that never got an answer', () => {
    const outcome = check('resilience.deadline', [company, vehicles(5), hung], {
      client: client(undefined, { timedOut: true, exitCode: null, durationMs: 30_000 }),
      deadlineMs: 30_000,
    })
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(3)
    expect(outcome.message).toContain('Expected the client to give up on POST /payments (request 3 of 3) [seq 3]')
  })

  it('fails a client killed at the deadline while retrying, naming its last attempt', () => {
    const unavailable = (at: number): Step => ({
      route: 'GET /vehicles?plate=AB123',
      status: 503,
      at,
      headers: { 'retry-after': '1' },
    })
    const outcome = check('resilience.deadline', [company, unavailable(5), unavailable(1010), unavailable(2015)], {
      client: client(undefined, { timedOut: true, exitCode: null, durationMs: 3000 }),
      deadlineMs: 3000,
    })
    expect(outcome.status).toBe('failed')
    expect(outcome.seq).toBe(4)
    expect(outcome.message).toMatch(
      /^Expected the client to finish the visit within the case's deadline of 3\.0 s; it was still retrying GET \/vehicles \(3 attempts/,
    )
    expect(check('resilience.deadline', [company, unavailable(5), vehicles(1010)], { client: client() }).status).toBe(
      'skipped',
    )
  })

  it('tells a client that gave up on a hung request by itself what outlasted the deadline, not to set a timeout', () => {
    const lookup = (at: number): Step => ({
      route: 'GET /vehicles?plate=AB123',
      status: 0,
      at,
      durationMs: 5000,
      fault: 'hang',
    })
    const killed = client(undefined, { timedOut: true, exitCode: null, durationMs: 30_000 })
    const outcome = check(
      'resilience.deadline',
      [company, lookup(5), lookup(5600), lookup(11_200), lookup(16_800), { ...lookup(22_400), durationMs: 7600 }],
      { client: killed, deadlineMs: 30_000 },
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toContain(
      'It has a timeout: it gave up on 4 hung requests by itself, after 5.0 s at most; its attempts and their waits together outlasted the deadline: bound them (3 attempts in all)',
    )
    expect(outcome.message).not.toContain('Give every request a timeout')
    // Still waiting on its first hung request: it has no timeout that ends one.
    expect(
      check('resilience.deadline', [company, vehicles(5), hung], { client: killed, deadlineMs: 30_000 }).message,
    ).toContain('Give every request a timeout (RELAY_REQUEST_TIMEOUT_MS).')
  })

  it('passes a client that gave up and finished', () => {
    expect(
      check('resilience.deadline', [company, vehicles(5), { ...hung, durationMs: 3000 }], { client: client() }).status,
    ).toBe('passed')
  })
})

describe('client.outcome after a lost payment', () => {
  const lost: Step[] = [
    company,
    vehicles(5),
    { route: 'POST /payments', status: 201, at: 10, fault: 'garbage', body: '<html>502 Bad Gateway</html>' },
  ]
  it('passes unknown', () => {
    expect(check('client.outcome', lost, { client: client({ outcome: 'unknown' }) }).status).toBe('passed')
  })
  it('warns on rejected', () => {
    const outcome = check('client.outcome', lost, { client: client({ outcome: 'rejected' }) })
    expect(outcome.status).toBe('warning')
    expect(outcome.message).toMatch(/^Expected the outcome "unknown"/)
  })
  it('fails paid', () => {
    const outcome = check('client.outcome', lost, { client: client({ outcome: 'paid', paymentId: 'p1' }) })
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toContain('no payment id from the service')
  })
  it('fails unknown where the service answered plainly', () => {
    expect(
      check(
        'client.outcome',
        [company, vehicles(5), { route: 'POST /payments', status: 201, at: 10, body: { id: 'p1' } }],
        { client: client({ outcome: 'unknown' }) },
      ).status,
    ).toBe('failed')
  })
})

describe('client.outcome when no payment was made: rejected, as the client contract says', () => {
  const reset = (at: number): Step => ({
    route: 'GET /vehicles?plate=AB123',
    status: 0,
    at,
    durationMs: 1,
    fault: 'reset',
  })
  const down = (at: number): Step => ({
    route: 'POST /vehicles',
    status: 503,
    at,
    fault: 'unavailable',
    headers: { 'retry-after': '1' },
  })
  const revoked: Step = {
    route: 'GET /rental-companies?kennitala=5501692829',
    status: 401,
    at: 0,
    fault: 'token-revoked',
  }
  const cases: Array<[string, Step[], RegExp]> = [
    [
      'a lookup that failed after its retries',
      [company, reset(10), reset(20), reset(30)],
      /GET \/vehicles\?plate=AB123 \(request 4 of 4\) failed \(the connection was reset \(no answer\)\) and the visit stopped before any payment was sent, so no payment was made/,
    ],
    [
      'a creation refused while the service is down',
      [company, vehicles(5, []), down(10), down(1020), down(2030)],
      /POST \/vehicles \(request 5 of 5\) failed \(it answered 503\) and the visit stopped before any payment was sent/,
    ],
    [
      'the token refused',
      [revoked],
      /GET \/rental-companies\?kennitala=5501692829 \(request 1 of 1\) was refused \(401\) and the visit stopped before any payment was sent/,
    ],
  ]
  for (const [what, steps, why] of cases) {
    it(`passes rejected after ${what}, and fails unknown or paid, saying why`, () => {
      expect(
        check('client.outcome', steps, { client: client({ outcome: 'rejected', message: 'vehicle lookup failed' }) })
          .status,
      ).toBe('passed')
      for (const claimed of ['unknown', 'paid'] as const) {
        const outcome = check('client.outcome', steps, { client: client({ outcome: claimed }) })
        expect(outcome.status).toBe('failed')
        expect(outcome.message).toMatch(/^Expected the outcome "rejected", since /)
        expect(outcome.message).toMatch(why)
      }
    })
  }
})

describe('caseStatus', () => {
  it('is not-reached when the faulted step got no request, and never passed', () => {
    const requests = journal([
      company,
      vehicles(5),
      { route: 'POST /payments', status: 201, at: 10, body: { id: 'p1' } },
    ])
    const checks = [{ rule: 'client.completes', status: 'passed' as const, message: 'The client exited 0.' }]
    expect(caseStatus(checks, requests, { step: 'vehicle-create', kind: 'reset', mode: 'once' })).toBe('not-reached')
    expect(caseStatus(checks, requests, { step: 'payment-create', kind: 'reset', mode: 'once' })).toBe('passed')
    const warned = [...checks, { rule: 'resilience.retry-after', status: 'warning' as const, message: '...' }]
    expect(caseStatus(warned, requests, { step: 'payment-create', kind: 'unavailable', mode: 'once' })).toBe('warning')
  })
})

describe('client.completes at the deadline', () => {
  const killed = (report?: ClientReport) =>
    check('client.completes', [company], {
      client: client(report, { timedOut: true, exitCode: null, durationMs: 30_000 }),
    })
  it('tells a client killed inside its visit to finish it in time, not to end once it has reported', () => {
    const outcome = killed()
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toContain('still inside its visit (it had written no report)')
    expect(outcome.message).not.toContain('once it has reported')
  })

  it('tells a client killed after its report to end by itself', () => {
    expect(killed({ outcome: 'paid', paymentId: 'p1' }).message).toContain('make it end by itself once it has reported')
  })
})
