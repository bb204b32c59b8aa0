// How a run is steered: --bail, --repeat (flaky cases), an interrupt (the run's signal), a client
// command that cannot start, and the pool that runs the cases.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { CaseResult } from '../../src/core/rules/types.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { combineRuns } from '../../src/node/runner/run-cases.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { runPool } from '../../src/node/runner/schedule.js'
import { selectCases } from '../../src/node/runner/select.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'

function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
}

/** A correct client that throws on the calls `failOn` picks (counted from 0 across the run). */
function failingOn(failOn: (call: number) => boolean): ClientFunction {
  let calls = 0
  return (visit, env, context) => {
    if (failOn(calls++)) throw new Error('lost the connection')
    return referenceClient(visit, env, context)
  }
}

describe('--bail', () => {
  it('stops at the first case that fails and reports only the cases that finished', async () => {
    const simple = selectCases({ flows: ['simple'] })
    const started: string[] = []
    const ended: string[] = []
    const result = await runConformance({
      client: 'exit 1',
      flows: ['simple'],
      jobs: 1,
      bail: true,
      reporters: [{ onCaseStart: (kase) => void started.push(kase.id), onCaseEnd: (kase) => void ended.push(kase.id) }],
    })
    expect(started).toHaveLength(1)
    expect(result.cases.map((kase) => kase.id)).toEqual(started)
    expect(ended).toEqual(started)
    expect(result.summary).toMatchObject({ total: 1, failed: 1, bailed: true, notRun: simple.length - 1 })
    expect(result.summary.interrupted).toBeUndefined()
  })

  it('ends the clients still running when it stops', async () => {
    const marker = '421.125'
    const client = `if [ "$RELAY_FLOW" = simple ]; then exit 1; else exec sleep ${marker}; fi`
    const result = await runConformance({
      client,
      cases: ['advanced/new-vehicle', 'simple/accepted'],
      jobs: 2,
      bail: true,
    })
    expect(result.cases.map((kase) => kase.id)).toEqual(['simple/accepted'])
    expect(result.summary).toMatchObject({ bailed: true, notRun: 1 })
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })

  it('runs every case when none fails', async () => {
    const result = await runConformance({ client: referenceClient, flows: ['simple'], bail: true })
    expect(result.summary).toMatchObject({ total: selectCases({ flows: ['simple'] }).length, failed: 0 })
    expect(result.summary.bailed).toBeUndefined()
  })
})

describe('--repeat', () => {
  it('reports a case that fails some of its runs but not all as flaky, with its failing run', async () => {
    const result = await runConformance({
      client: failingOn((call) => call === 1),
      cases: ['simple/accepted'],
      repeat: 3,
      jobs: 1,
    })
    expect(result.cases).toHaveLength(1)
    expect(result.cases[0]).toMatchObject({
      status: 'flaky',
      runs: { total: 3, failed: 1 },
      exitCode: 1,
      stderr: expect.stringContaining('lost the connection'),
    })
    expect(result.summary).toMatchObject({
      total: 1,
      passed: 0,
      failed: 0,
      flaky: 1,
      rulesBroken: expect.arrayContaining(['client.completes']),
    })
  })

  it('reports a case that fails every run as failed, and one that passes every run as passed', async () => {
    const failing = await runConformance({ client: failingOn(() => true), cases: ['simple/accepted'], repeat: 2 })
    expect(failing.cases[0]).toMatchObject({ status: 'failed', runs: { total: 2, failed: 2 } })
    const passing = await runConformance({ client: referenceClient, cases: ['simple/accepted'], repeat: 2 })
    expect(passing.cases[0]).toMatchObject({ status: 'passed', runs: { total: 2, failed: 0 } })
    expect(passing.summary).toMatchObject({ passed: 1, flaky: 0 })
  })

  it('runs each case N times, in worlds of their own, and counts the client time of every run', async () => {
    const worlds: string[] = []
    const result = await runConformance({
      client: 'sleep 0.1',
      cases: ['simple/accepted', 'simple/rejected'],
      repeat: 3,
      jobs: 3,
      reporters: [{ onCaseStart: (start) => void worlds.push(`${start.id} ${start.worldId}`) }],
    })
    expect(worlds).toHaveLength(6)
    expect(new Set(worlds).size).toBe(6)
    expect(result.cases.map((kase) => kase.runs)).toEqual([
      { total: 3, failed: 3 },
      { total: 3, failed: 3 },
    ])
    expect(result.summary.clientMs).toBeGreaterThanOrEqual(600)
  })

  it('refuses a repeat that is not a whole number of at least 1', async () => {
    await expect(runConformance({ client: 'true', repeat: 0 })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('--repeat must be a whole number of at least 1 (got 0)'),
    })
  })
})

describe('interrupting a run (its signal)', () => {
  it('ends the clients in flight, drops their runs, and reports the cases that finished as interrupted', async () => {
    const marker = '422.125'
    const interrupt = new AbortController()
    const client = `if [ "$RELAY_FLOW" = simple ]; then exit 0; else setsid sleep ${marker}.5 & exec sleep ${marker}; fi`
    const ended: CaseResult[] = []
    const result = await runConformance({
      client,
      cases: ['advanced/new-vehicle', 'advanced/existing-vehicle', 'simple/accepted'],
      jobs: 3,
      signal: interrupt.signal,
      reporters: [
        {
          onCaseEnd(kase) {
            ended.push(kase)
            interrupt.abort()
          },
        },
      ],
    })
    expect(ended.map((kase) => kase.id)).toEqual(['simple/accepted'])
    expect(result.cases.map((kase) => kase.id)).toEqual(['simple/accepted'])
    expect(result.summary).toMatchObject({ total: 1, interrupted: true, notRun: 2 })
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })

  it("leaves the process's signals to a caller that gives a signal, and handles them itself for one that does not", async () => {
    const listeners = () => (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((name) => process.listenerCount(name))
    const before = listeners()
    const during = async (signal?: AbortSignal) => {
      let seen: number[] = []
      await runConformance({
        client: 'true',
        cases: ['simple/accepted'],
        ...(signal ? { signal } : {}),
        reporters: [{ onCaseEnd: () => void (seen = listeners()) }],
      })
      return seen
    }
    expect(await during(new AbortController().signal)).toEqual(before)
    expect(await during()).toEqual(before.map((count) => count + 1))
    expect(listeners()).toEqual(before)
  })

  it('runs no case when the signal is already aborted, and still ends the run with its reporters', async () => {
    let ended: unknown
    const result = await runConformance({
      client: 'true',
      flows: ['simple'],
      signal: AbortSignal.abort(),
      reporters: [{ onRunEnd: (run) => void (ended = run.summary) }],
    })
    expect(result.cases).toEqual([])
    expect(ended).toMatchObject({ total: 0, interrupted: true })
  })
})

describe('a client command that cannot start', () => {
  it('is one set-up error naming the command when the interpreter cannot find the script', async () => {
    const ended: CaseResult[] = []
    const run = runConformance({
      client: 'node test/conform/clients/no-such-client.mjs',
      jobs: 3,
      reporters: [{ onCaseEnd: (result) => void ended.push(result) }],
    })
    await expect(run).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
      message: expect.stringMatching(
        /^Failed to run the client: the client command could not start: node test\/conform\/clients\/no-such-client\.mjs \(exit 1: Error: Cannot find module .*no-such-client\.mjs'\)\. Please check the command, and that it runs from /,
      ),
    })
    expect(ended).toEqual([])
  })

  it('is one set-up error when the shell cannot find it (exit 127)', async () => {
    await expect(runConformance({ client: './no-such-client.sh', flows: ['simple'], jobs: 2 })).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
      message: expect.stringMatching(/could not start: \.\/no-such-client\.sh \(exit 127: .*not found\)/),
    })
  })

  it('is one set-up error when its working folder does not exist', async () => {
    await expect(
      runConformance({ client: 'true', cwd: '/no/such/folder', cases: ['simple/accepted'] }),
    ).rejects.toMatchObject({ code: 'CLIENT_NOT_FOUND', message: expect.stringContaining('runs from /no/such/folder') })
  })

  it('is a failed case, not a set-up error, once a run has shown that the client starts', async () => {
    // Exit 127 in the second case only: the first showed that the command runs.
    const result = await runConformance({
      client: 'if [ "$RELAY_FLOW" = advanced ]; then exit 0; else exit 127; fi',
      cases: ['advanced/new-vehicle', 'simple/accepted'],
      jobs: 1,
    })
    expect(result.cases[1]).toMatchObject({ id: 'simple/accepted', exitCode: 127, status: 'failed' })
  })
})

describe('runPool', () => {
  it('runs at most `jobs` tasks at once and every task once', async () => {
    let running = 0
    let most = 0
    const ran: number[] = []
    await runPool(
      10,
      3,
      async (index) => {
        most = Math.max(most, ++running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        ran.push(index)
        running--
      },
      () => true,
    )
    expect(most).toBe(3)
    expect(ran.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('starts no task once canStart says no, and waits for those in flight', async () => {
    const ran: number[] = []
    let open = true
    await runPool(
      10,
      2,
      async (index) => {
        if (index === 2) open = false
        await new Promise((resolve) => setTimeout(resolve, 5))
        ran.push(index)
      },
      () => open,
    )
    expect(ran.sort((a, b) => a - b)).toEqual([0, 1, 2])
  })
})

describe('combineRuns', () => {
  const run = (status: CaseResult['status'], stderr = ''): CaseResult => ({ status, stderr }) as CaseResult

  it('keeps a single run as it is', () => {
    const only = run('failed')
    expect(combineRuns([only])).toBe(only)
  })

  it('shows the first failing run of a flaky case', () => {
    expect(combineRuns([run('passed'), run('failed', 'first'), run('failed', 'second')])).toMatchObject({
      status: 'flaky',
      stderr: 'first',
      runs: { total: 3, failed: 2 },
    })
  })
})
