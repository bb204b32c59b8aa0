// --latency: the service's answers come late (to see how a client copes with a slow service); the
// admin API never does. And the flag's values: milliseconds or a range, anything else a usage error.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { apply, latency } from '../../src/cli/checks.js'

describe('latency', () => {
  it("delays the service's answers, and the journal's duration includes the delay", async () => {
    const service = await createRelayService({ latency: 60 })
    const answer = await service.handle({ method: 'GET', url: `/vehicles?plate=${service.world.visit.plate}`, headers: { authorization: `Bearer ${service.world.token}` } })
    expect(answer.status).toBe(200)
    expect(service.journal.entries().at(-1)!.durationMs).toBeGreaterThanOrEqual(55)
  })

  it('draws each delay from a range', async () => {
    const service = await createRelayService({ latency: [20, 40] })
    for (let i = 0; i < 3; i++) await service.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: `Bearer ${service.world.token}` } })
    for (const entry of service.journal.entries()) expect(entry.durationMs).toBeGreaterThanOrEqual(15)
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('does not delay a service without latency (the default): it answers with no timer at all', async () => {
    const service = await createRelayService()
    // With timers frozen, an answer that waited on one would never come: no clock is read here.
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const answer = await service.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: { authorization: `Bearer ${service.world.token}` } })
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
      expect(() => apply('--latency', latency, bad)).toThrow(/: expected milliseconds 0-60000 \(300\) or a range of them \(100-800\)\.$/)
    }
  })
})
