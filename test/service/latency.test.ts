// --latency: the service's answers come late (to see how a client copes with a slow service); the
// admin API never does. And the flag's values: milliseconds or a range, anything else a usage error.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { apply, latency } from '../../src/cli/checks.js'

describe('latency', () => {
  it("delays the service's answers, and the journal's duration includes the delay", async () => {
    const service = await createRelayService({ latency: 60 })
    const answer = await service.handle({
      method: 'GET',
      url: `/vehicles?plate=${service.world.visit.plate}`,
      headers: { authorization: `Bearer ${service.world.token}` },
    })
    expect(answer.status).toBe(200)
    expect(service.journal.entries().at(-1)!.durationMs).toBeGreaterThanOrEqual(55)
  })

  it('draws each delay from a range: no less than it starts, no more than it ends, a new draw each answer', async () => {
    const service = await createRelayService({ latency: [20, 40] })
    // Each wait the service asks for, read from its timer (the clock of a busy machine says nothing of an upper bound).
    const waits: number[] = []
    const realSetTimeout = globalThis.setTimeout
    vi.spyOn(globalThis, 'setTimeout').mockImplementation((callback: () => void, ms?: number) => {
      waits.push(ms ?? 0)
      return realSetTimeout(callback, 0)
    })
    const random = vi.spyOn(Math, 'random')
    const answer = () =>
      service.handle({
        method: 'GET',
        url: '/vehicles?plate=AB123',
        headers: { authorization: `Bearer ${service.world.token}` },
      })
    try {
      // The ends of the range, then draws of the real generator.
      random.mockReturnValueOnce(0).mockReturnValueOnce(1 - Number.EPSILON)
      for (let i = 0; i < 12; i++) expect((await answer()).status).toBe(200)
    } finally {
      vi.restoreAllMocks()
    }
    expect(waits).toHaveLength(12)
    expect(waits[0]).toBe(20)
    expect(waits[1]).toBeCloseTo(40)
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(20)
      expect(wait).toBeLessThanOrEqual(40)
    }
    expect(new Set(waits.slice(2)).size).toBeGreaterThan(1)
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('does not delay a service without latency (the default): it answers with no timer at all', async () => {
    const service = await createRelayService()
    // With timers frozen, an answer that waited on one would never come: no clock is read here.
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const answer = await service.handle({
      method: 'GET',
      url: '/vehicles?plate=AB123',
      headers: { authorization: `Bearer ${service.world.token}` },
    })
    expect(answer.status).toBe(200)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('the --latency check', () => {
  it('reads milliseconds and ranges', () => {
    expect(apply('--latency', latency, '300')).toBe(300)
    expect(apply('--latency', latency, ' 100 - 800 ')).toEqual([100, 800])
    expect(apply('--latency', latency, '0')).toBe(0)
  })

  it('refuses anything else, naming the value and saying what to write', () => {
    for (const bad of ['fast', '-5', '800-100', '1.5', '60001', '']) {
      expect(() => apply('--latency', latency, bad)).toThrow(`--latency ${JSON.stringify(bad)} `)
      expect(() => apply('--latency', latency, bad)).toThrow(
        /: expected milliseconds 0-60000 \(300\) or a range of them \(100-800\)\.$/,
      )
    }
  })
})
