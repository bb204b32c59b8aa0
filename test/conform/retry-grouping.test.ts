// A retry is the same request, whatever the client varies that means nothing to the service: the
// resilience rules group attempts by endpoint, documented query and parsed body, never by the query
// string, the body's text or the headers. On journals written by hand, then on a real run of a client
// that adds a cache-buster, turns its keys around and changes its User-Agent on every attempt.
import { describe, expect, it } from 'vitest'
import { attempts, sameRequest } from '../../src/core/rules/facts.js'
import { ruleById } from '../../src/core/rules/index.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { parseQuery } from '../../src/core/service/protocol.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { createQuirkyClient } from './clients/quirky.js'

const T0 = Date.parse('2026-11-21T10:00:00.000Z')

/** One request as the journal keeps it: `GET /vehicles?plate=AB123`, or a POST with its body's text. */
function entry(
  seq: number,
  target: string,
  {
    status = 0,
    bodyText,
    headers = {},
    at = seq * 10,
  }: { status?: number; bodyText?: string; headers?: Record<string, string>; at?: number } = {},
): JournalEntry {
  const [method, pathAndQuery] = target.split(' ')
  const [path, query = ''] = pathAndQuery.split('?')
  const search = query ? `?${query}` : ''
  let body: unknown
  try {
    body = bodyText === undefined ? undefined : JSON.parse(bodyText)
  } catch {
    body = undefined
  }
  return {
    seq,
    time: new Date(T0 + at).toISOString(),
    durationMs: 1,
    worldId: 'w',
    request: {
      method,
      path,
      query: parseQuery(search),
      search,
      headers,
      ...(bodyText === undefined ? {} : { bodyText }),
      ...(body === undefined ? {} : { body }),
    },
    response: { status, headers: {}, body: null },
    route: `${method} ${path}`,
    auth: 'ok',
    ...(status === 0 ? { fault: { kind: 'reset', mode: 'always', applied: true } } : {}),
  }
}

describe('sameRequest', () => {
  it('takes a lookup with another cache-buster, its parameters in another order and another User-Agent for the same request', () => {
    const a = entry(1, 'GET /vehicles?plate=AB123&_=1795791066550', { headers: { 'user-agent': 'app/1.0' } })
    const b = entry(2, 'GET /vehicles?_=1795791066551&plate=AB123', {
      headers: { 'user-agent': 'app/1.1', 'x-request-id': '2' },
    })
    expect(sameRequest(a, b)).toBe(true)
  })

  it('reads the documented parameter as the service does: percent-encoded or not, the same plate', () => {
    expect(
      sameRequest(
        entry(1, 'GET /vehicles?plate=%C3%9E%C3%93R%2012'),
        entry(2, 'GET /vehicles?plate=%C3%9E%C3%93R+12&_=9'),
      ),
    ).toBe(true)
  })

  it('tells two plates apart, and a plate from no plate', () => {
    expect(sameRequest(entry(1, 'GET /vehicles?plate=AB123&_=1'), entry(2, 'GET /vehicles?plate=AB124&_=1'))).toBe(
      false,
    )
    expect(sameRequest(entry(1, 'GET /vehicles?plate=AB123'), entry(2, 'GET /vehicles?number=AB123'))).toBe(false)
  })

  it('takes a body with its keys in another order and other whitespace for the same body', () => {
    const a = entry(1, 'POST /payments', { bodyText: '{"amount":{"amount":2490,"currency":"ISK"},"status":"new"}' })
    const b = entry(2, 'POST /payments', {
      bodyText: '{\n  "status": "new",\n  "amount": { "currency": "ISK", "amount": 2490 }\n}',
    })
    expect(sameRequest(a, b)).toBe(true)
  })

  it('tells bodies apart by their values, arrays in order, and unreadable bodies by their text', () => {
    const payment = (amount: unknown) =>
      entry(1, 'POST /payments', { bodyText: JSON.stringify({ amount: { amount, currency: 'ISK' } }) })
    expect(sameRequest(payment(2490), payment(2491))).toBe(false)
    expect(sameRequest(payment(2490), payment('2490'))).toBe(false)
    expect(sameRequest(payment([1, 2]), payment([2, 1]))).toBe(false)
    expect(
      sameRequest(
        entry(1, 'POST /payments', { bodyText: '{"a":1,}' }),
        entry(2, 'POST /payments', { bodyText: '{"a":1,}' }),
      ),
    ).toBe(true)
    expect(
      sameRequest(
        entry(1, 'POST /payments', { bodyText: '{"a":1,}' }),
        entry(2, 'POST /payments', { bodyText: '{"a":2,}' }),
      ),
    ).toBe(false)
  })

  it('never takes two endpoints for one request', () => {
    expect(sameRequest(entry(1, 'GET /vehicles?plate=AB123'), entry(2, 'GET /rental-companies?plate=AB123'))).toBe(
      false,
    )
  })
})

describe('attempts and resilience.bounded-retries, with a fresh cache-buster on every attempt', () => {
  const busted = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      entry(i + 1, `GET /vehicles?_=${1795791066550 + i}&plate=AB123`, { headers: { 'user-agent': `app/1.${i}` } }),
    )

  it('groups three lookups that differ only in their cache-buster: no "gave up at once" warning', () => {
    const requests = busted(3)
    expect(attempts(requests).map((group) => group.length)).toEqual([3])
    const outcome = ruleById('resilience.bounded-retries')!.check({ flow: 'advanced', requests })
    expect(outcome.status).toBe('passed')
    expect(outcome.message).toContain('GET /vehicles 3 times')
  })

  it('fails six of them as a retry storm', () => {
    const outcome = ruleById('resilience.bounded-retries')!.check({ flow: 'advanced', requests: busted(6) })
    expect(outcome.status).toBe('failed')
    expect(outcome).toMatchObject({ seq: 6, expected: 5, actual: 6 })
  })
})

describe('a client that varies what means nothing, in real runs', () => {
  const run = async (client: ReturnType<typeof createQuirkyClient>, id: string) =>
    (await runConformance({ client, cases: [id], jobs: 1, timeoutMs: 10_000 })).cases[0]

  // The cache-buster itself is a form the interface does not show: fidelity.strict warns of it (and only of it).
  const besidesTheCacheBuster = (result: Awaited<ReturnType<typeof run>>) => {
    expect(result.checks.find((check) => check.rule === 'fidelity.strict')).toMatchObject({
      status: 'warning',
      message: expect.stringContaining('(query.extra=refused)'),
    })
    return result.checks
      .filter((check) => (check.status === 'failed' || check.status === 'warning') && check.rule !== 'fidelity.strict')
      .map((check) => `${check.rule}: ${check.message}`)
  }

  it.concurrent(
    'retries a lookup after resets with a fresh cache-buster and User-Agent each time: bounded-retries counts 3 attempts and warns of nothing',
    async () => {
      const result = await run(createQuirkyClient({ cacheBuster: true }), 'resilience/vehicle-lookup/reset/always')
      expect(besidesTheCacheBuster(result)).toEqual([])
      const lookups = result.requests.filter((request) => request.route === 'GET /vehicles')
      expect(new Set(lookups.map((request) => request.request.search)).size).toBe(3)
      expect(new Set(lookups.map((request) => request.request.headers['user-agent'])).size).toBe(3)
      expect(result.checks.find((check) => check.rule === 'resilience.bounded-retries')?.message).toContain(
        'GET /vehicles 3 times',
      )
    },
  )

  it.concurrent(
    'makes six quick attempts at a lookup, each with a fresh cache-buster: a retry storm all the same',
    async () => {
      const result = await run(
        createQuirkyClient({ cacheBuster: true, attempts: 6 }),
        'resilience/vehicle-lookup/reset/always',
      )
      expect(result.checks.filter((check) => check.status === 'failed').map((check) => check.rule)).toEqual([
        'resilience.bounded-retries',
      ])
      expect(result.checks.find((check) => check.rule === 'resilience.bounded-retries')?.message).toContain(
        'the client made 6',
      )
    },
  )

  it.concurrent(
    "retries a payment after its 503 with the body's keys turned around and indented: one request, waited for as told",
    async () => {
      const result = await run(
        createQuirkyClient({ cacheBuster: true, shuffle: true }),
        'resilience/payment-create/unavailable/once',
      )
      expect(besidesTheCacheBuster(result)).toEqual([])
      const payments = result.requests.filter((request) => request.route === 'POST /payments')
      expect(payments).toHaveLength(2)
      expect(payments[0].request.bodyText).not.toBe(payments[1].request.bodyText)
      expect(result.checks.find((check) => check.rule === 'resilience.retry-after')?.status).toBe('passed')
      expect(result.checks.find((check) => check.rule === 'resilience.bounded-retries')?.message).toContain(
        'POST /payments 2 times',
      )
    },
  )
})
