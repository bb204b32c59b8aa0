// A run whose verdict relay-mock's own lateness may have decided (here relay-mock is held up by a client
// that holds the event loop, as a busy machine holds a starved process) runs again, once, and the case is
// judged by its second run, which says so: a run that did not pass, or one that passed a case that holds the
// client to a least wait (a Retry-After, a back-off). A case that failed with relay-mock on time, or passed
// one that holds it to none, runs once; so does every run with --repeat, whose runs are the vote.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
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

/** The reference client (right in every case), holding the event loop in its first run only. */
function heldOnce(): { fn: ClientFunction; calls: () => number } {
  let calls = 0
  const fn: ClientFunction = (visit, env, context) => {
    if (calls++ === 0) hold(900)
    return referenceClient(visit, env, context)
  }
  return { fn, calls: () => calls }
}

const run = (fn: ClientFunction, repeat = 1) =>
  runConformance({ client: fn, cases: ['advanced/unknown-owner'], ...(repeat > 1 ? { repeat } : {}) })

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
      /^ran again: relay-mock's process was held up \d+\.\d s in its first run \(failed; a busy machine, or an in-process client holding its event loop\), enough that it could decide its verdict; this is its second run$/,
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
    expect(lateWords(kase.late!, kase.id)).toContain('its verdict may be the machine')
    expect(toJUnitXml(result)).toContain("Ran again: relay-mock's process was held up ")
    expect(toGitHubAnnotations(result)[0]).toMatch(
      /^::error title=client.outcome in advanced\/unknown-owner::.*%0A\(Ran again: /,
    )
    expect(timeLines(result.summary.time!, result.summary.wallMs).at(-1)).toMatch(
      /^1 case ran again: .* In one of them it was held up again: that verdict may be the machine's/,
    )
  })
})

describe('a run that relay-mock may have decided', () => {
  it('that passed a case holding the client to a least wait runs again: a wait measured while relay-mock was held up may be too long', async () => {
    const { fn, calls } = heldOnce()
    const result = await runConformance({ client: fn, cases: ['resilience/company-lookup/unavailable/once'] })
    expect(calls()).toBe(2)
    expect(result.cases[0].status).toBe('passed')
    expect(result.cases[0].late).toMatchObject({ firstStatus: 'passed' })
  })

  it('that passed a case with a fault that holds the client to no wait runs once', async () => {
    const { fn, calls } = heldOnce()
    const result = await runConformance({ client: fn, cases: ['resilience/company-lookup/reset/once'] })
    expect(calls()).toBe(1)
    expect(result.cases[0].status).toBe('passed')
    expect(result.cases[0]).not.toHaveProperty('late')
  })

  it('is never judged on the report the first run left in RELAY_RESULT_FILE', async () => {
    let calls = 0
    const fn: ClientFunction = (_visit, env) => {
      if (calls++ > 0) return undefined // the second run reports nothing
      hold(900)
      writeFileSync(env.RELAY_RESULT_FILE, JSON.stringify({ outcome: 'skipped' }))
      return undefined // and made no request: a failure
    }
    const result = await run(fn)
    expect(calls).toBe(2)
    expect(result.cases[0].late).toBeDefined()
    expect(result.cases[0].report).toBeUndefined()
  })

  it('with --repeat, runs no more than its repeats: they are the vote', async () => {
    const c = client([{ late: true, right: false }])
    const result = await run(c.fn, 2)
    expect(c.calls()).toBe(2)
    expect(result.cases[0].status).toBe('failed')
    expect(result.cases[0]).not.toHaveProperty('late')
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

  it('that passes a case without faults runs once, however late relay-mock ran', async () => {
    const c = client([{ late: true, right: true }])
    const result = await run(c.fn)
    expect(c.calls()).toBe(1)
    expect(result.cases[0].status).toBe('passed')
    expect(result.cases[0]).not.toHaveProperty('late')
  })
})
