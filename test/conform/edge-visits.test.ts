// The visits real locations meet, in the default run: personalised plates, a hyphen, a camera's lower
// case, the least and the largest amount, a visit across midnight and across the new year, a vehicle
// registered long ago. Each world is chosen so that a correct client passes however the real service
// matches plates, and a client that cannot carry a datum is failed naming it.
import { describe, expect, it } from 'vitest'
import advanced from '../../suites/advanced.js'
import simple from '../../suites/simple.js'
import { createRelayService } from '../../src/core/service/mock.js'
import { normalizePlate } from '../../src/core/service/schemas.js'
import { notCarried, notUtf8 } from '../../src/core/rules/facts.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { createQuirkyClient } from './clients/quirky.js'

const EDGES = [
  'advanced/personal-plate',
  'advanced/hyphen-plate',
  'advanced/camera-plate',
  'advanced/amount-one',
  'advanced/across-new-year',
  'advanced/registered-long-ago',
  'simple/personal-plate',
  'simple/largest-amount',
  'simple/across-midnight',
]
const flowCases = [...advanced.cases, ...simple.cases]

describe('the edge visits', () => {
  it('are flow cases of the default run, each with a visit of its own', () => {
    for (const id of EDGES) expect(flowCases.find((kase) => kase.id === id)?.visit, id).toBeDefined()
  })

  it('give each plate of their own to a world that knows it in no form, so GET /vehicles answers [] whether the service ignores case, spaces and hyphens or not', async () => {
    const service = await createRelayService({ tokens: [] })
    for (const kase of flowCases.filter((kase) => EDGES.includes(kase.id) && kase.visit?.plate !== undefined)) {
      const world = await service.addWorld({ scenario: kase.scenario })
      const known = world.store.vehicles.all().map((vehicle) => normalizePlate(vehicle.plate))
      expect(known, kase.id).not.toContain(normalizePlate(kase.visit!.plate!))
    }
  })
})

describe('notCarried', () => {
  it('says what to do about a plate that needs percent-encoding, and nothing about one that does not', () => {
    expect(notCarried('plate', 'ÞÓR 12')).toBe(
      'The plate `ÞÓR 12` never reached the service: percent-encode query values, in UTF-8 (plate=%C3%9E%C3%93R%2012).',
    )
    expect(notCarried('plate', 'ÞÓR 12', 'ÃÃR 12')).toMatch(
      /^The plate `ÞÓR 12` reached the service as `ÃÃR 12`: percent-encode/,
    )
    expect(notCarried('plate', 'R-1234')).toBeUndefined()
  })
})

describe('notUtf8', () => {
  it('says a plate whose bytes were not UTF-8 did not arrive whole, and nothing of one that arrived otherwise wrong', () => {
    expect(notUtf8('plate', 'ÞÓR 12', '\uFFFD\uFFFDR 12')).toBe(
      'the plate `ÞÓR 12` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8',
    )
    expect(notUtf8('plate', 'ÞÓR 12', 'THOR 12')).toBeUndefined()
  })
})

describe('a client that sends its JSON body in Latin-1', () => {
  it.concurrent('is failed by the simple visit of a personalised plate, naming the plate and what to do', async () => {
    const result = (
      await runConformance({
        client: createQuirkyClient({ latin1Body: true }),
        cases: ['simple/personal-plate', 'simple/accepted'],
        jobs: 2,
        timeoutMs: 10_000,
      })
    ).cases
    expect(result.map((kase) => [kase.id, kase.status])).toEqual([
      ['simple/accepted', 'passed'],
      ['simple/personal-plate', 'failed'],
    ])
    const body = result[1].checks.find((check) => check.rule === 'simple.body')!
    expect(body.status).toBe('failed')
    expect(body.message).toContain(
      'expected "ÞÓR 12" (RELAY_PLATE): the plate `ÞÓR 12` did not reach the service whole: its bytes were not UTF-8; send the JSON body in UTF-8',
    )
  })
})

describe('a client that pastes the plate into the query unencoded', () => {
  const run = (id: string, pastePlate: boolean) =>
    runConformance({ client: createQuirkyClient({ pastePlate }), cases: [id], jobs: 1, timeoutMs: 10_000 }).then(
      (result) => result.cases[0],
    )

  it.concurrent('passes the visits of plain plates, as it did before the edge visits', async () => {
    expect((await run('advanced/new-vehicle', true)).status).toBe('passed')
  })

  it.concurrent('is failed by the personalised plate, naming the plate and what to do', async () => {
    const result = await run('advanced/personal-plate', true)
    expect(result.status).toBe('failed')
    const lookup = result.checks.find((check) => check.rule === 'advanced.vehicle-lookup')!
    expect(lookup.status).toBe('failed')
    expect(lookup.message).toContain(
      'the client made no further call. The plate `ÞÓR 12` never reached the service: percent-encode query values',
    )
    expect(result.requests.some((request) => request.route === 'GET /vehicles')).toBe(false)
  })

  it.concurrent('passes it once it encodes the plate', async () => {
    const result = await run('advanced/personal-plate', false)
    expect(
      result.checks
        .filter((check) => check.status !== 'passed' && check.status !== 'skipped')
        .map((check) => `${check.rule}: ${check.message}`),
    ).toEqual([])
    expect(result.requests.find((request) => request.route === 'GET /vehicles')?.request.query.plate).toBe('ÞÓR 12')
  })
})
