// The console reporter while a run goes on: a live progress line on a terminal (rewritten in
// place, cleared at the end), plain lines elsewhere; flaky cases and a run stopped early.
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { CaseResult, CaseStart, RunResult } from '../../src/core/rules/types.js'
import { countCases } from '../../src/core/rules/verdict.js'
import { createConsoleReporter } from '../../src/node/reporters/console.js'

const ERASE = '\r\u001b[2K'

function terminal(isTTY: boolean) {
  let text = ''
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk)
        done()
      },
    }),
    { isTTY, columns: 60 },
  )
  return { stream, text: () => text }
}

const visit = {
  plate: 'AB123',
  ownerKennitala: '5901694399',
  registrationDate: '2024-03-01',
  visitStart: '2026-11-21 09:14:05',
  visitEnd: '2026-11-21 09:31:47',
  amount: 2490,
  currency: 'ISK' as const,
  locationId: 'loc',
}

function kase(id: string, overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    flow: 'simple',
    scenario: 'existing-vehicle',
    title: 'A case',
    status: 'passed',
    durationMs: 120,
    exitCode: 0,
    signal: null,
    timedOut: false,
    stdout: '',
    stderr: '',
    visit,
    checks: [],
    expected: [],
    requests: [],
    ...overrides,
  }
}

const start = (id: string): CaseStart => ({
  id,
  flow: 'simple',
  scenario: 'existing-vehicle',
  title: 'A case',
  visit,
  baseUrl: 'http://127.0.0.1:1',
  worldId: 'world-1',
})

function summary(cases: CaseResult[], extra: Partial<RunResult['summary']> = {}): RunResult['summary'] {
  return {
    ...countCases(cases),
    clientMs: 240,
    wallMs: 300,
    startedAt: '2026-11-21T10:00:00.000Z',
    version: '0.1.0',
    client: './client.sh',
    flows: ['simple'],
    ...extra,
  }
}

async function play(isTTY: boolean, clock: { now: number }) {
  const out = terminal(isTTY)
  const reporter = createConsoleReporter({ stream: out.stream, color: false, now: () => clock.now })
  const cases = [kase('simple/accepted'), kase('simple/rejected')]
  await reporter.onRunStart?.({
    cases,
    client: './client.sh',
    flows: ['simple'],
    startedAt: '2026-11-21T10:00:00.000Z',
  })
  await reporter.onCaseStart?.(start('simple/accepted'))
  await reporter.onCaseStart?.(start('simple/rejected'))
  clock.now = 1500
  const afterStarts = out.text()
  await reporter.onCaseEnd?.(cases[0])
  const afterFirst = out.text()
  await reporter.onCaseEnd?.(cases[1])
  await reporter.onRunEnd?.({ summary: summary(cases), cases })
  return { afterStarts, afterFirst, all: out.text() }
}

describe('the console reporter on a terminal', () => {
  it('shows cases done of all, the one running and the time, rewritten in place', async () => {
    const { afterStarts, afterFirst } = await play(true, { now: 0 })
    expect(afterStarts.endsWith(`${ERASE}  0/2 · 0 ms · simple/accepted +1`)).toBe(true)
    // Before the case's line, the progress line is erased; after it, drawn again below it.
    expect(afterFirst.slice(afterStarts.length)).toBe(
      `${ERASE}  ✓ simple/accepted  120 ms\n${ERASE}  1/2 · 1.5 s · simple/rejected`,
    )
  })

  it('leaves no progress line behind at the end', async () => {
    const { all } = await play(true, { now: 0 })
    const lines = all.split('\n')
    expect(lines.at(-2)).toBe('Client time 240 ms, wall time 300 ms · relay-mock 0.1.0')
    // Every progress line drawn was erased before the next line of text.
    // eslint-disable-next-line no-control-regex -- the escape characters are the point: erased progress lines
    expect(all.replace(/\r\u001b\[2K {2}\d\/2 · [^\r\n]*\r\u001b\[2K/g, '').includes('\u001b[2K')).toBe(false)
  })

  it('keeps the progress line to the width of the terminal', async () => {
    const out = terminal(true)
    const reporter = createConsoleReporter({ stream: out.stream, color: false, now: () => 0 })
    const id = `simple/${'x'.repeat(100)}`
    await reporter.onRunStart?.({ cases: [kase(id)], client: 'c', flows: ['simple'], startedAt: '' })
    await reporter.onCaseStart?.(start(id))
    const line = out.text().split(ERASE).at(-1)!
    expect(line).toHaveLength(59)
    expect(line.endsWith('…')).toBe(true)
    await reporter.onRunEnd?.({ summary: summary([]), cases: [] })
  })

  it('assumes 80 columns on a terminal that does not say its width', async () => {
    const out = terminal(true)
    out.stream.columns = 0
    const reporter = createConsoleReporter({ stream: out.stream, color: false, now: () => 0 })
    await reporter.onRunStart?.({ cases: [kase('simple/accepted')], client: 'c', flows: ['simple'], startedAt: '' })
    await reporter.onCaseStart?.(start('simple/accepted'))
    expect(out.text().split(ERASE).at(-1)).toBe('  0/1 · 0 ms · simple/accepted')
    await reporter.onRunEnd?.({ summary: summary([]), cases: [] })
  })
})

describe('the console reporter elsewhere (CI, a pipe)', () => {
  it('writes one plain line per case as it ends, and no progress line', async () => {
    const { all } = await play(false, { now: 0 })
    expect(all).not.toContain('\r')
    expect(all).not.toContain('\u001b')
    expect(all).toContain('  ✓ simple/accepted  120 ms\n  ✓ simple/rejected  120 ms\n')
  })
})

describe('the console reporter on flaky cases and runs stopped early', () => {
  it('marks a flaky case, says how many runs failed, and counts it', async () => {
    const out = terminal(false)
    const reporter = createConsoleReporter({ stream: out.stream, color: false })
    const flaky = kase('simple/accepted', {
      status: 'flaky',
      runs: { total: 5, failed: 2 },
      checks: [{ rule: 'client.completes', status: 'failed', message: 'Expected exit status 0.' }],
    })
    await reporter.onCaseEnd?.(flaky)
    await reporter.onRunEnd?.({ summary: summary([flaky], { rulesBroken: ['client.completes'] }), cases: [flaky] })
    expect(out.text()).toContain('  ~ simple/accepted  120 ms  1 rule failed  flaky: failed 2 of 5 runs\n')
    expect(out.text()).toContain(
      '~ simple/accepted — A case (scenario existing-vehicle; failed 2 of 5 runs, this is the first that failed)\n    client.completes\n',
    )
    expect(out.text()).toContain('Not conformant: 1 case, 0 passed, 0 failed, 1 flaky\n')
  })

  it('says a run was interrupted and what the reports hold', async () => {
    const out = terminal(false)
    const done = [kase('simple/accepted')]
    await createConsoleReporter({ stream: out.stream, color: false }).onRunEnd?.({
      summary: summary(done, { interrupted: true, notRun: 6 }),
      cases: done,
    })
    expect(out.text()).toContain(
      'Interrupted: 1 case, 1 passed, 0 failed\n6 cases did not run or finish; the reports hold the 1 case that finished.\n',
    )
  })
})
