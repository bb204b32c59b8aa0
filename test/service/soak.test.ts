// The short version of `npm run soak`: generated requests and a few seconds of mixed load against a
// served mock (the build's, in a process of its own) answer no 5xx and never bring it down; nor do they
// through a proxy in front of it (`npm run soak -- --proxy`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runFuzz, runSoak, startServer, type Served } from '../../bench/soak.js'
import { proxiedSoak } from '../support/soak.js'

describe('the soak, short', () => {
  let server: Served
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.stop())

  it('answers 1,000 generated requests without a 5xx, an unanswered request or a crash', async () => {
    const result = await runFuzz({ requests: 1000, seed: 7, server })
    expect(result.examples).toEqual([])
    expect(result).toMatchObject({ serverErrors: 0, failed: 0, crashed: false })
  }, 120_000)

  it('takes a few seconds of mixed load without a 5xx, reporting memory and p99 per interval', async () => {
    const { rows, crashed } = await runSoak({ seconds: 3, every: 1, server })
    expect(crashed).toBe(false)
    expect(rows.length).toBeGreaterThanOrEqual(2)
    for (const row of rows) {
      expect(row.serverErrors).toBe(0)
      expect(row.rssMb).toBeGreaterThan(0)
      // Each interval's own latencies: some requests, and a p99 above their median (a mixed load is not uniform).
      expect(row.requests).toBeGreaterThan(0)
      expect(Number.isFinite(row.p99Ms)).toBe(true)
      expect(row.p50Ms).toBeGreaterThan(0)
      expect(row.p99Ms).toBeGreaterThan(row.p50Ms)
    }
  }, 60_000)
})

describe('the soak through a proxy, short', () => {
  const processes = proxiedSoak()

  it('answers 1,000 generated requests through the proxy without a 5xx, an unanswered request or a crash of either process', async () => {
    const result = await runFuzz({ requests: 1000, seed: 7, server: processes.proxy(), upstream: processes.upstream() })
    expect(result.examples).toEqual([])
    expect(result).toMatchObject({ serverErrors: 0, upstreamTrouble: 0, failed: 0, crashed: false })
  }, 120_000)

  it("counts the proxy's own 502s apart, saying what went wrong, once the upstream is gone", async () => {
    await processes.upstream().stop()
    const result = await runFuzz({ requests: 50, seed: 7, server: processes.proxy() })
    const forwarded = result.byStatus[502] ?? 0
    expect(forwarded).toBeGreaterThan(0)
    expect(result).toMatchObject({ serverErrors: forwarded, upstreamTrouble: forwarded, failed: 0, crashed: false })
    expect(result.examples.map((example) => example.trouble)).toContainEqual(
      expect.stringMatching(/^relay-mock proxy: the upstream refused the connection/),
    )
  }, 60_000)
})
