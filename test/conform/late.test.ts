// A case that did not pass while relay-mock's own clock ran late (a busy machine: here, a client that holds
// the event loop, as a starved process would be held) runs again, once, and is judged by its second run,
// which says so; a case that failed with relay-mock on time, or passed, runs once.
import { describe, expect, it } from 'vitest'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { lateWords, timeLines } from '../../src/node/reporters/time.js'
import { toJUnitXml } from '../../src/node/reporters/junit.js'
import { toGitHubAnnotations } from '../../src/node/reporters/github.js'

/** Holds the event loop for `ms`, as a busy machine holds a starved process. */
function hold(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy
  }
}

/** The unknown owner's visit: look the owner up, then report `skipped` (right) or `rejected` (wrong). */
function client(runs: { late: boolean; right: boolean }[]): { fn: ClientFunction; calls: () => number } {
  let calls = 0
  const fn: ClientFunction = async (visit, env) => {
    const run = runs[Math.min(calls++, runs.length - 1)]
    if (run.late) hold(900)
    await fetch(`${env.RELAY_BASE_URL}/rental-companies?kennitala=${visit.ownerKennitala}`, {
      headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
    })
    return run.right ? { outcome: 'skipped' } : { outcome: 'rejected', message: 'no company' }
  }
  return { fn, calls: () => calls }
}

const run = (fn: ClientFunction) => runConformance({ client: fn, cases: ['advanced/unknown-owner'] })

describe('a case that did not pass while relay-mock ran late', () => {
  it('runs again, and is judged by its second run, which says why it ran', async () => {
    const c = client([
      { late: true, right: false },
      { late: false, right: true },
    ])
    const result = await run(c.fn)
    expect(c.calls()).toBe(2)
    const [kase] = result.cases
    expect(kase.status).toBe('passed')
    expect(kase.late).toMatchObject({ firstStatus: 'failed' })
    expect(kase.late!.firstLateMs).toBeGreaterThanOrEqual(500)
    expect(kase.late).not.toHaveProperty('lateMs')
    expect(result.summary.time?.ranAgain).toEqual({ cases: 1, lateAgain: 0 })
    expect(lateWords(kase.late!, kase.id)).toMatch(
      /^ran again: relay-mock ran \d+\.\d s late in its first run \(failed\), on a busy machine; this is its second run$/,
    )
  })

  it('fails where it fails again, and says that relay-mock was late in both runs', async () => {
    const c = client([{ late: true, right: false }])
    const result = await run(c.fn)
    expect(c.calls()).toBe(2)
    const [kase] = result.cases
    expect(kase.status).toBe('failed')
    expect(kase.checks.find((check) => check.status === 'failed')?.rule).toBe('client.outcome')
    expect(kase.late!.lateMs).toBeGreaterThanOrEqual(500)
    expect(result.summary.time?.ranAgain).toEqual({ cases: 1, lateAgain: 1 })
    expect(lateWords(kase.late!, kase.id)).toContain('the verdict may be the machine')
    expect(toJUnitXml(result)).toContain('Ran again: relay-mock ran ')
    expect(toGitHubAnnotations(result)[0]).toMatch(
      /^::error title=client.outcome in advanced\/unknown-owner::.*%0A\(Ran again: /,
    )
    expect(timeLines(result.summary.time!, result.summary.wallMs).at(-1)).toMatch(
      /^1 case ran again: .* In one of them it was late again: that verdict may be the machine's/,
    )
  })
})

describe('a case run with relay-mock on time', () => {
  it('that fails runs once', async () => {
    const c = client([{ late: false, right: false }])
    const result = await run(c.fn)
    expect(c.calls()).toBe(1)
    expect(result.cases[0].status).toBe('failed')
    expect(result.cases[0]).not.toHaveProperty('late')
    expect(result.summary.time).not.toHaveProperty('ranAgain')
  })

  it('that passes runs once, however late relay-mock ran', async () => {
    const c = client([{ late: true, right: true }])
    const result = await run(c.fn)
    expect(c.calls()).toBe(1)
    expect(result.cases[0].status).toBe('passed')
    expect(result.cases[0]).not.toHaveProperty('late')
  })
})
