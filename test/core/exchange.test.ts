// What an exchange says, read once for every layer: the answer's class, Retry-After, records, the plate a
// request carried, the query its endpoint documents, and a journal entry read through them.
import { describe, expect, it } from 'vitest'
import {
  isRecord,
  isSuccess,
  leavesWriteUnknown,
  parseRetryAfter,
  statusClass,
} from '../../src/core/exchange/answer.js'
import { answerLost, bodyOf, classOf, isAmbiguous, requestOf, retryAfterMs } from '../../src/core/exchange/entry.js'
import { fieldTypes, listedFields } from '../../src/core/exchange/record.js'
import { documentedParameters, plateSent } from '../../src/core/exchange/request.js'
import type { FaultKind } from '../../src/core/service/faults.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { routeById } from '../../src/core/service/protocol.js'

const T0 = Date.parse('2026-01-01T10:00:00.000Z')

function entry(
  route: string,
  {
    status = 200,
    fault,
    bodyText,
    headers = {},
  }: { status?: number; fault?: FaultKind; bodyText?: string; headers?: Record<string, string> } = {},
): JournalEntry {
  const [method, path] = route.split(' ')
  return {
    seq: 1,
    time: new Date(T0).toISOString(),
    durationMs: 1000,
    worldId: 'w',
    request: { method, path, query: {}, search: '', headers: {}, ...(bodyText === undefined ? {} : { bodyText }) },
    response: { status, headers, body: null },
    route,
    auth: 'ok',
    ...(fault ? { fault: { kind: fault, mode: 'once', applied: true } } : {}),
  }
}

describe('statusClass', () => {
  it('names a 2xx a success, a 500, 502 or 504 ambiguous, a 4xx, 503 or 429 a refusal', () => {
    expect([200, 201, 204].map((status) => statusClass(status))).toEqual(['success', 'success', 'success'])
    expect([500, 502, 504].map((status) => statusClass(status))).toEqual(['ambiguous', 'ambiguous', 'ambiguous'])
    expect([400, 401, 404, 422, 429, 503, 501].map((status) => statusClass(status))).toEqual(Array(7).fill('refusal'))
  })

  it('names an answer the client could not read lost, whatever its status, and status 0 no answer at all', () => {
    expect(statusClass(200, true)).toBe('lost')
    expect(statusClass(0)).toBe('lost')
  })

  it('leaves a write unknown after no readable answer or a 500, 502 or 504, and known after a refusal or a success', () => {
    expect([500, 502, 504].every((status) => leavesWriteUnknown(status))).toBe(true)
    expect(leavesWriteUnknown(201, true)).toBe(true)
    expect([201, 400, 422, 429, 503].some((status) => leavesWriteUnknown(status))).toBe(false)
  })

  it("reads an OpenAPI document's response keys as statuses", () => {
    expect(['200', '201', '2XX'].every(isSuccess)).toBe(true)
    expect(['default', '422', '5XX'].some(isSuccess)).toBe(false)
  })
})

describe('parseRetryAfter', () => {
  it('reads seconds, and an HTTP-date as the wait from when the answer was sent', () => {
    expect(parseRetryAfter('2', T0)).toEqual({ ms: 2000, text: '2', dateForm: false })
    expect(parseRetryAfter(' 0 ', T0)).toEqual({ ms: 0, text: ' 0 ', dateForm: false })
    expect(parseRetryAfter(new Date(T0 + 3000).toUTCString(), T0)).toEqual({
      ms: 3000,
      text: new Date(T0 + 3000).toUTCString(),
      dateForm: true,
    })
  })

  it('asks no negative wait for a date gone by, and none at all for a header absent or unreadable', () => {
    expect(parseRetryAfter(new Date(T0 - 5000).toUTCString(), T0)?.ms).toBe(0)
    expect(parseRetryAfter(undefined, T0)).toBeUndefined()
    expect(parseRetryAfter(null, T0)).toBeUndefined()
    expect(parseRetryAfter('soon', T0)).toBeUndefined()
  })
})

describe('isRecord', () => {
  it('takes a JSON object, not null, an array or a scalar', () => {
    expect(isRecord({ id: '7' })).toBe(true)
    expect([null, [], ['a'], 'x', 1, undefined].some(isRecord)).toBe(false)
  })
})

describe('plateSent', () => {
  it("reads the lookup's query, a vehicle's body and the simple payment's vehicle.plate", () => {
    expect(plateSent({ route: 'GET /vehicles', query: { plate: 'AB123' }, body: undefined })).toEqual({
      plate: 'AB123',
      where: "the query's plate",
    })
    expect(plateSent({ route: 'POST /vehicles', query: {}, body: { plate: 'ÞÓR 12', country: 'is' } })).toEqual({
      plate: 'ÞÓR 12',
      where: "the body's plate",
    })
    expect(plateSent({ route: 'POST /payment', query: {}, body: { vehicle: { plate: 42 } } })).toEqual({
      plate: 42,
      where: 'vehicle.plate',
    })
  })

  it('reads no plate from another endpoint, or from a body that is not an object', () => {
    expect(plateSent({ route: 'POST /payments', query: { plate: 'AB123' }, body: { plate: 'AB123' } })).toBeUndefined()
    expect(plateSent({ route: 'POST /vehicles', query: {}, body: ['AB123'] })).toBeUndefined()
    expect(plateSent({ route: 'POST /payment', query: {}, body: { vehicle: 'AB123' } })).toBeUndefined()
    expect(plateSent({ route: null, query: { plate: 'AB123' }, body: undefined })).toBeUndefined()
  })
})

describe('documentedParameters', () => {
  it('names the query parameters an endpoint documents, and none for a request that named no endpoint', () => {
    expect(documentedParameters('GET /vehicles')).toEqual(['plate'])
    expect(documentedParameters('GET /rental-companies')).toEqual(['kennitala'])
    expect(documentedParameters('POST /vehicles')).toEqual([])
    expect(documentedParameters(null)).toEqual([])
  })
})

describe('a journal entry read as an exchange', () => {
  it('loses the answer to a reset, a hang, a truncated or garbled 2xx, but not to a fault that answers', () => {
    const lost: FaultKind[] = ['reset', 'hang', 'truncated', 'garbage']
    expect(lost.map((fault) => answerLost(entry('POST /payments', { fault })))).toEqual([true, true, true, true])
    expect(answerLost(entry('POST /payments', { status: 503, fault: 'unavailable' }))).toBe(false)
    expect(classOf(entry('POST /payments', { status: 503, fault: 'unavailable' }))).toBe('refusal')
    expect(classOf(entry('POST /payments', { status: 201, fault: 'truncated' }))).toBe('lost')
    expect(isAmbiguous(entry('POST /payments', { status: 500, fault: 'server-error' }))).toBe(true)
  })

  it("parses a body the service did not read, and reads the plate of the entry's request from it", () => {
    const sent = entry('POST /vehicles', { status: 401, bodyText: '{"plate":"AB123","country":"is"}' })
    expect(bodyOf(sent)).toEqual({ plate: 'AB123', country: 'is' })
    expect(plateSent(requestOf(sent))?.plate).toBe('AB123')
    expect(bodyOf(entry('POST /vehicles', { bodyText: '{plate' }))).toBeUndefined()
  })

  it('dates a Retry-After from when the answer went out, not from when the request came', () => {
    const answered = new Date(T0 + 1000 + 2000).toUTCString()
    expect(retryAfterMs(entry('POST /payments', { status: 429, headers: { 'retry-after': answered } }))?.ms).toBe(2000)
  })
})

describe('the records an answer carries', () => {
  it("lists the fields of a lookup's records, with their JSON types, and none for a create or the simple endpoint", () => {
    expect(listedFields('GET /vehicles')).toEqual(expect.arrayContaining(['id', 'plate']))
    const types = new Map(fieldTypes(routeById('GET /vehicles')!.answers[200].schema!))
    expect(types.get('id')).toBe('string')
    expect(types.get('plate')).toBe('string')
    expect(listedFields('POST /vehicles')).toBeUndefined()
    expect(listedFields('POST /payment')).toBeUndefined()
    expect(listedFields(null)).toBeUndefined()
  })
})
