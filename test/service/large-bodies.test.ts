// Large bodies leave no trace beyond what the journal means to keep: a served mock (the build's, in a
// process of its own, run with --expose-gc) takes about a hundred POST /payments of 1 MB, refused and
// accepted, and its heap after a collection stays near its start. The journal keeps 4 KiB of each body;
// a kept prefix that was a slice of the whole body (a V8 sliced string) kept every megabyte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runLargeBodies, startServer, type Served } from '../../bench/soak.js'
import { proxiedSoak } from '../support/soak.js'

const MB = 1024 * 1024
// Enough that a body kept whole, or a prefix that holds its whole body (96 MB), is four times the 24 MB
// allowed; more only made the run slower (240 took 100 s through the proxy beside the example clients).
const COUNT = 96

describe('large bodies', () => {
  let server: Served
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.stop())

  it(`keeps no more than a prefix of each of ${COUNT} bodies of 1 MB, refused and accepted: the heap after a collection grows by far less than one body each`, async () => {
    const { byStatus, before, after, crashed } = await runLargeBodies({ server, count: COUNT })
    expect(crashed).toBe(false)
    expect(byStatus).toEqual({ 201: COUNT / 2, 422: COUNT / 2 })
    // The journal kept them all, each as its prefix, its length and its hash: what it holds is small, not gone.
    const journal = (await (
      await fetch(`${server.baseUrl}/__relay/journal?since=0&limit=1000`, {
        headers: { authorization: 'Bearer relay-mock-token' },
      })
    ).json()) as {
      entries: Array<{
        request: { path: string; bodyText?: string; bodyTruncated?: boolean; bodyBytes?: number }
        response: { status: number; body?: { errors?: Array<{ field: string; received?: unknown }> } }
      }>
    }
    const payments = journal.entries.filter(
      (entry) => entry.request.path === '/payments' && entry.request.bodyBytes === 1_000_000,
    )
    expect(payments).toHaveLength(COUNT)
    expect(payments.every((entry) => entry.request.bodyTruncated && entry.request.bodyText?.length === 4096)).toBe(true)
    // The refusal names the unknown field; the value it shows is cut short.
    const refusal = payments.find((entry) => entry.response.status === 422)!
    expect(refusal.response.body?.errors?.[0]).toMatchObject({ field: 'note' })
    expect(JSON.stringify(refusal.response.body).length).toBeLessThan(2_000)
    // A body kept whole would be 1 MB each (96 MB); the prefixes and the records are a few MB in all.
    expect(
      Math.round((after.heapUsed - before.heapUsed) / MB),
      `heap after GC: ${Math.round(before.heapUsed / MB)} MB before, ${Math.round(after.heapUsed / MB)} MB after`,
    ).toBeLessThan(24)
  }, 120_000)

  it('names an unknown field of 100,000 characters by its first 80, and shows a long wrong value cut short', async () => {
    const post = async (body: object) => {
      const answer = await fetch(`${server.baseUrl}/vehicles`, {
        method: 'POST',
        headers: { authorization: 'Bearer relay-mock-token', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return {
        status: answer.status,
        body: (await answer.json()) as { message: string; errors: Array<{ field: string; received?: unknown }> },
      }
    }
    const longKey = await post({ plate: 'AB123', country: 'is', ['k'.repeat(100_000)]: 1 })
    expect(longKey.status).toBe(422)
    expect(longKey.body.errors[0].field).toBe(`${'k'.repeat(80)}…`)
    expect(longKey.body.message.length).toBeLessThan(400)
    const longValue = await post({ plate: 'P'.repeat(100_000), country: 'is' })
    expect(longValue.status).toBe(422)
    expect(longValue.body.errors[0]).toMatchObject({ field: 'plate', received: `${'P'.repeat(80)}…` })
  })
})

describe('large bodies through a proxy', () => {
  const processes = proxiedSoak()

  it(`forwards ${COUNT} bodies of 1 MB, refused and accepted, and keeps no more of them than the mock does: the proxy's heap after a collection grows by far less than one body each`, async () => {
    const { byStatus, upstreamTrouble, before, after, crashed } = await runLargeBodies({
      server: processes.proxy(),
      upstream: processes.upstream(),
      count: COUNT,
    })
    expect(crashed).toBe(false)
    expect(upstreamTrouble).toBe(0)
    expect(byStatus).toEqual({ 201: COUNT / 2, 422: COUNT / 2 })
    expect(
      Math.round((after.heapUsed - before.heapUsed) / MB),
      `the proxy's heap after GC: ${Math.round(before.heapUsed / MB)} MB before, ${Math.round(after.heapUsed / MB)} MB after`,
    ).toBeLessThan(24)
  }, 120_000)
})
