import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { checkCapture } from '../../src/devtools/live/capture.js'
import { checkVisits, flowOf, groupVisits, startsVisit } from '../../src/devtools/live/visits.js'
import { converse } from './fixtures.js'

const T0 = Date.parse('2026-11-21T10:00:00.000Z')

/** Entries at the given offsets in ms from T0 (the fixture spaces them one second apart). */
function at(entries: JournalEntry[], offsets: number[]): JournalEntry[] {
  return entries.map((entry, i) => ({ ...entry, time: new Date(T0 + offsets[i]).toISOString() }))
}

async function twoAdvancedVisits() {
  return converse('existing-vehicle', (w) => [
    { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
    { method: 'GET', url: `/vehicles?plate=${w.visit.plate}` },
    { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
    { method: 'POST', url: '/payment', body: {} },
  ])
}

describe('groupVisits', () => {
  it('starts a visit at each company lookup and each simple payment', async () => {
    const { entries } = await twoAdvancedVisits()
    expect(groupVisits(entries).map((g) => g.requests.map((e) => e.seq))).toEqual([[1, 2], [3], [4]])
  })

  it('starts a visit at a misspelt company lookup too', async () => {
    const { entries } = await converse('default', () => [
      { method: 'GET', url: '/rental-companies?kennitala=1' },
      { method: 'GET', url: '/rental-comapnies?kennitala=1' },
      { method: 'GET', url: '/vehicles?plate=AB123' },
    ])
    expect(startsVisit(entries[1])).toBe(true)
    expect(groupVisits(entries).map((g) => g.requests.length)).toEqual([1, 2])
  })

  // The first call made wrong is the one the mock's 404 or 405 points to (protocol.ts's meantPath):
  // the interface's slips, and a path a few letters off, in any case, with a trailing slash.
  it.each([
    ['GET', '/rental-comapnies', 'advanced'],
    ['GET', '/Rental-Companies/', 'advanced'],
    ['GET', '/rental-company', 'advanced'],
    ['POST', '/rental-companies', 'advanced'],
    ['GET', '/payment', 'simple'],
    ['POST', '/payment/', 'simple'],
  ])('starts a visit at %s %s, the first call of the %s flow made wrong', async (method, path, flow) => {
    const { entries } = await converse('default', () => [
      { method: 'GET', url: '/rental-companies?kennitala=1' },
      { method, url: path },
    ])
    expect(startsVisit(entries[1])).toBe(true)
    expect(flowOf(entries.slice(1))).toBe(flow)
  })

  it.each([
    ['GET', '/vehicles'],
    ['POST', '/payments'],
    ['GET', '/rental-companies/3f2b8c1e'],
    ['GET', '/status'],
  ])('does not start a visit at %s %s', async (method, path) => {
    const { entries } = await converse('default', () => [{ method, url: path }])
    expect(startsVisit(entries[0])).toBe(false)
    expect(flowOf(entries)).toBe('advanced')
  })

  it('keeps a simple payment sent again after the service failed it (5xx) in its visit', async () => {
    const { entries } = await converse('simple-unavailable', (w) => {
      const body = {
        location: w.location.id,
        vehicle: { owner: w.visit.ownerKennitala, plate: w.visit.plate, acquiredOn: w.visit.registrationDate },
        visit: { startedOn: w.visit.visitStart, endedOn: w.visit.visitEnd },
        payment: { amount: w.visit.amount, currency: 'ISK' },
      }
      return [
        { method: 'POST', url: '/payment', body },
        { method: 'POST', url: '/payment', body },
        { method: 'POST', url: '/payment', body },
      ]
    })
    expect(entries.map((e) => e.response.status)).toEqual([503, 201, 201])
    expect(groupVisits(entries).map((g) => g.requests.map((e) => e.seq))).toEqual([[1, 2], [3]])
  })

  it('starts a visit at a request after a quiet gap, even when it is not a first call', async () => {
    const { entries } = await twoAdvancedVisits()
    const spaced = at(entries.slice(0, 2), [0, 6000])
    expect(groupVisits(spaced, { quietMs: 5000 }).map((g) => g.requests.length)).toEqual([1, 1])
  })

  it('keeps the last visit in progress until it has been quiet for quietMs', async () => {
    const { entries } = await twoAdvancedVisits()
    const timed = at(entries.slice(0, 2), [0, 1000])
    expect(groupVisits(timed, { now: T0 + 3000, quietMs: 5000 })[0].complete).toBe(false)
    expect(groupVisits(timed, { now: T0 + 6000, quietMs: 5000 })[0].complete).toBe(true)
  })

  it('counts every visit as complete when no time is given (a finished capture)', async () => {
    const { entries } = await twoAdvancedVisits()
    expect(groupVisits(entries).every((g) => g.complete)).toBe(true)
  })
})

describe('checkVisits', () => {
  it('judges a visit without its inputs: rules that need them are not checked, the rest decide', async () => {
    const { entries } = await converse('new-vehicle', (w) => [
      { method: 'GET', url: `/rental-companies?kennitala=${w.visit.ownerKennitala}` },
      { method: 'GET', url: `/vehicles?plate=${w.visit.plate}` },
      { method: 'POST', url: '/payments', body: { locationId: w.location.id } },
    ])
    const [visit] = checkVisits(entries)
    expect(visit.flow).toBe('advanced')
    expect(visit.status).toBe('failed')
    expect(visit.checks.find((c) => c.rule === 'advanced.create-vehicle-when-missing')?.status).toBe('failed')
    expect(visit.checks.find((c) => c.rule === 'client.completes')).toMatchObject({
      status: 'not-checked',
      missing: ['client'],
      message: expect.stringContaining('relay-mock conform gives it'),
    })
    expect(visit.expected.map((c) => `${c.method} ${c.path}`)).toContain('POST /custodians')
  })

  it('calls a correct simple visit partial, never passed, since its body is not compared with a visit it was given, and names it simple', async () => {
    const { entries } = await converse('default', (w) => [
      {
        method: 'POST',
        url: '/payment',
        body: {
          location: w.location.id,
          vehicle: { owner: w.visit.ownerKennitala, plate: w.visit.plate, acquiredOn: w.visit.registrationDate },
          visit: { startedOn: w.visit.visitStart, endedOn: w.visit.visitEnd },
          payment: { amount: w.visit.amount, currency: 'ISK' },
        },
      },
    ])
    const [visit] = checkVisits(entries)
    expect(visit.flow).toBe('simple')
    expect(visit.checks.filter((c) => c.status === 'failed')).toEqual([])
    expect(visit.checks.filter((c) => c.status === 'not-checked').map((c) => c.rule)).toEqual([
      'simple.body',
      'client.completes',
      'client.outcome',
    ])
    expect(visit.status).toBe('partial')
  })

  it('numbers the visits 1, 2, 3 in the order they began, as conform --from names them', async () => {
    const { entries } = await twoAdvancedVisits()
    const visits = checkVisits(entries)
    expect(visits.map((v) => v.number)).toEqual([1, 2, 3])
    expect(
      checkCapture([{ id: 'x', entries }], { source: 'capture.har', version: '0.1.0' }).cases.map((c) => c.id),
    ).toEqual(['visit-1', 'visit-2', 'visit-3'])
  })

  it("compares a request to an unknown path with the world's token when it is given", async () => {
    const { entries, world } = await converse('default', () => [
      { method: 'GET', url: '/rental-comapnies?kennitala=1' },
    ])
    expect(checkVisits(entries)[0].checks.find((c) => c.rule === 'auth.bearer')?.status).toBe('not-checked')
    expect(checkVisits(entries, { token: world.token })[0].checks.find((c) => c.rule === 'auth.bearer')?.status).toBe(
      'passed',
    )
  })

  it('marks a visit in progress, whatever its checks say so far', async () => {
    const { entries } = await twoAdvancedVisits()
    const [visit] = checkVisits(entries.slice(0, 1), { now: Date.parse(entries[0].time) + 100 })
    expect(visit.status).toBe('in-progress')
  })
})
