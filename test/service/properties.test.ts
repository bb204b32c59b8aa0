// Property-based tests (fast-check): whatever a client sends, the pipeline answers JSON, never a 5xx
// for a malformed request, and never throws; the validators never throw on any value.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { serviceRoutes } from '../../src/core/service/handlers/index.js'
import { createServedService } from '../support/service.js'

const TOKEN = 'relay-mock-token'
const PATHS = [
  '/rental-companies',
  '/vehicles',
  '/custodians',
  '/payments',
  '/payment',
  '/vehicles/x',
  '/__relay/world',
  '/__relay/journal',
  '/__relay/visits',
  '/__relay/tokens',
  '/__relay/reset',
  '/__relay/scenario',
  '/__relay/live',
  '/nope',
]

const request = fc.record({
  method: fc.oneof(
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE'),
    fc.stringMatching(/^[A-Z]{1,8}$/),
  ),
  path: fc.oneof(fc.constantFrom(...PATHS), fc.webPath()),
  query: fc.oneof(
    fc.constant(''),
    fc.webQueryParameters().map((q) => `?${q}`),
    fc.string().map((s) => `?plate=${encodeURIComponent(s)}`),
  ),
  authorization: fc.option(
    fc.oneof(
      fc.constant(`Bearer ${TOKEN}`),
      fc.string(),
      fc.string().map((s) => `Bearer ${s}`),
    ),
    { nil: undefined },
  ),
  contentType: fc.option(
    fc.oneof(fc.constantFrom('application/json', 'application/json; charset=latin1', 'text/plain'), fc.string()),
    { nil: undefined },
  ),
  body: fc.option(
    fc.oneof(
      fc.json(),
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify({ vehicle: v, plate: v, amount: v })),
    ),
    { nil: undefined },
  ),
})

describe('the pipeline under generated requests', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createServedService({ adminToken: 'admin-token-0123456789' })
  })

  it('answers every request with JSON (or the live page), never a 5xx, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {}
        if (r.authorization !== undefined) headers.authorization = r.authorization
        if (r.contentType !== undefined) headers['content-type'] = r.contentType
        const answer = await service.handle({
          method: r.method,
          url: `${r.path}${r.query}`,
          headers,
          ...(r.body !== undefined ? { body: r.body } : {}),
        })
        expect(answer.status).toBeLessThan(500)
        // A HEAD's answer and a 204 (OPTIONS) carry no body at all.
        if (r.method === 'HEAD' || answer.status === 204) expect(answer.text).toBe('')
        else if (answer.headers['content-type']?.includes('json')) expect(() => JSON.parse(answer.text)).not.toThrow()
        else expect(answer.headers['content-type']).toMatch(/text\/html/)
      }),
      { numRuns: 500, seed: 20261123 },
    )
  })
})

describe('the validators under generated values', () => {
  it('return a result for any value, and never throw', () => {
    const schemas = serviceRoutes.flatMap((route) => [route.body, route.query]).filter((schema) => schema !== undefined)
    expect(schemas.length).toBeGreaterThan(3)
    fc.assert(
      fc.property(fc.anything(), fc.nat(schemas.length - 1), (value, i) => {
        expect(typeof schemas[i].safeParse(value).success).toBe('boolean')
      }),
      { numRuns: 2000, seed: 20261123 },
    )
  })

  it('refuse a blank-only plate with a field error, never a 5xx', async () => {
    const service = await createServedService()
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[ -]{0,8}$/), async (value) => {
        const answer = await service.handle({
          method: 'POST',
          url: '/vehicles',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ plate: value, country: 'is' }),
        })
        expect(answer.status).toBe(422)
        expect(JSON.parse(answer.text).errors[0].field).toBe('plate')
      }),
      { seed: 20261123 },
    )
  })

  it('refuse impossible dates and timestamps: year 0000, month 13, February 30', async () => {
    const { date, isDate, isTimestamp } = await import('../../src/core/service/schemas.js')
    for (const value of ['0000-01-01', '2026-13-01', '2026-02-30', '2025-02-29']) {
      expect(isDate(value), value).toBe(false)
      expect(date.safeParse(value).success, value).toBe(false)
      expect(isTimestamp(`${value} 10:00:00`), value).toBe(false)
    }
    expect(isDate('2024-02-29')).toBe(true)
    expect(isDate('0001-01-01')).toBe(true)
  })

  it('read a timestamp digit by digit exactly as the pattern and the calendar read it', async () => {
    const { isDate, isTimestamp } = await import('../../src/core/service/schemas.js')
    // The reference: the OpenAPI pattern's captures, then the calendar and the clock.
    const reference = (value: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value)
      return m !== null && isDate(`${m[1]}-${m[2]}-${m[3]}`) && +m[4] < 24 && +m[5] < 60 && +m[6] < 60
    }
    const digit = fc.constantFrom('0', '1', '2', '3', '5', '9', '6', '4')
    const near = fc.constantFrom('0', '1', '2', '9', '/', ':', '-', ' ', 'a', '٣')
    // Shaped like a timestamp, each character sometimes replaced or dropped or doubled.
    const shaped = fc
      .tuple(
        fc.array(digit, { minLength: 19, maxLength: 19 }),
        fc.array(fc.tuple(fc.nat(20), near, fc.constantFrom('set', 'drop', 'add')), { maxLength: 2 }),
      )
      .map(([ds, edits]) => {
        const chars = [
          ...ds.slice(0, 4),
          '-',
          ...ds.slice(5, 7),
          '-',
          ...ds.slice(8, 10),
          ' ',
          ...ds.slice(11, 13),
          ':',
          ...ds.slice(14, 16),
          ':',
          ...ds.slice(17, 19),
        ]
        for (const [at, char, how] of edits) {
          if (how === 'set') chars[at % chars.length] = char
          else if (how === 'drop') chars.splice(at % chars.length, 1)
          else chars.splice(at % (chars.length + 1), 0, char)
        }
        return chars.join('')
      })
    fc.assert(
      fc.property(fc.oneof(shaped, fc.string({ maxLength: 22 })), (value) => isTimestamp(value) === reference(value)),
      { numRuns: 20_000 },
    )
    expect(isTimestamp('2024-02-29 23:59:59')).toBe(true)
    expect(isTimestamp('2026-01-01 24:00:00')).toBe(false)
  })
})
