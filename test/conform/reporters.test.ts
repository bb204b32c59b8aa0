// The reporters on a fixed result (fixtures/run-result.ts): console, JSON and JUnit. That the JUnit report
// is XML that another parser reads: junit-xml.test.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { countCases } from '../../src/core/rules/verdict.js'
import {
  createConsoleReporter,
  createJsonReporter,
  reporters,
  toJsonReport,
  toJUnitXml,
} from '../../src/node/reporters/index.js'
import { allowingPartial, cases, result, timing } from './fixtures/run-result.js'

function capture() {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return { stream, text: () => text }
}

describe('the console reporter', () => {
  it('writes a line per case, the failures with their rule, and a summary', async () => {
    const out = capture()
    const reporter = createConsoleReporter({ stream: out.stream, color: false })
    await reporter.onRunStart?.({
      cases: result.cases,
      client: result.summary.client,
      flows: result.summary.flows,
      startedAt: result.summary.startedAt,
    })
    for (const c of result.cases) await reporter.onCaseEnd?.(c)
    await reporter.onRunEnd?.(result)
    expect(out.text()).toMatchSnapshot()
  })

  it('stops writing, without throwing, once the reader has gone (EPIPE)', async () => {
    let writes = 0
    const stream = new Writable({
      write(_chunk, _encoding, done) {
        writes++
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
      },
    })
    const reporter = createConsoleReporter({ stream, color: false })
    await reporter.onCaseEnd?.(result.cases[0])
    await new Promise((resolve) => setImmediate(resolve))
    await reporter.onRunEnd?.(result)
    expect(writes).toBe(1)
  })

  it('says a run with only partial cases left is conformant under --allow-partial', async () => {
    const out = capture()
    const passing = cases.slice(1)
    await createConsoleReporter({ stream: out.stream, color: false }).onRunEnd?.({
      summary: { ...countCases(passing, { allowPartial: true }), ...timing },
      cases: passing,
    })
    expect(out.text()).toMatch(/^Conformant: 3 cases, 1 passed, 1 warned, 1 partial, 0 failed$/m)
    expect(out.text()).toContain('--allow-partial accepts the partial cases')
  })

  it('writes no colour codes when colour is off', async () => {
    const out = capture()
    await createConsoleReporter({ stream: out.stream, color: false }).onRunEnd?.(result)
    // eslint-disable-next-line no-control-regex -- the escape character is the point: no colour codes
    expect(out.text()).not.toMatch(/\u001b\[/)
  })
})

describe('the JSON reporter', () => {
  it('has the documented shape', () => {
    const json = toJsonReport(result)
    expect(Object.keys(json)).toEqual(['summary', 'cases'])
    expect(Object.keys(json.cases[0]).slice(0, 8)).toEqual([
      'id',
      'flow',
      'scenario',
      'status',
      'durationMs',
      'exitCode',
      'checks',
      'requests',
    ])
    expect(json.cases[0].checks[1]).toMatchObject({
      rule: 'advanced.payment-body',
      status: 'failed',
      message: expect.stringContaining('EUR'),
    })
    expect(json.cases.map((c) => c.status)).toEqual(['failed', 'passed', 'partial', 'warning'])
    expect(json.cases[2].checks[1]).toMatchObject({
      rule: 'client.completes',
      status: 'not-checked',
      missing: ['client'],
    })
  })

  it('counts every case status in the summary, and says whether the run passes', () => {
    expect(toJsonReport(result).summary).toMatchObject({
      total: 4,
      passed: 1,
      warning: 1,
      partial: 1,
      failed: 1,
      notReached: 0,
      rulesBroken: ['advanced.payment-body'],
      rulesNotChecked: ['client.completes'],
      rulesWarned: ['client.outcome'],
      allowPartial: false,
      strict: false,
      conformant: false,
    })
  })

  it('writes the file, making its folder', async () => {
    const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-json-'))
    try {
      const file = join(dir, 'reports', 'conform.json')
      await createJsonReporter({ file }).onRunEnd?.(result)
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(toJsonReport(result))))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the JUnit reporter', () => {
  const xml = toJUnitXml(result)

  it('writes one testcase per case, classname the flow and name the case id', () => {
    expect(xml.match(/<testcase /g)).toHaveLength(4)
    expect(xml).toContain('classname="advanced" name="advanced/existing-vehicle"')
    expect(xml).toContain('classname="simple" name="simple/accepted"')
  })

  it('names each failed rule in the failure message and lists the rules that did not apply in system-out', () => {
    expect(xml).toMatch(/<failure message="advanced\.payment-body: Expected the payment body/)
    expect(xml).toMatch(
      /<system-out><!\[CDATA\[[^\]]*Rules that did not apply:\n {2}advanced\.custodian-after-create: Does not apply/,
    )
  })

  it('fails a partial case, naming the rules not checked and why', () => {
    expect(xml).toMatch(
      /<testcase classname="simple" name="simple\/new-vehicle"[^>]*>\s*<failure message="not checked \(partial; --allow-partial accepts it\): client\.completes: Not checked: it needs the client's run/,
    )
  })

  it('reports a partial case as skipped, with the reason, under --allow-partial', () => {
    const allowed = toJUnitXml(allowingPartial)
    expect(allowed).toMatch(
      /<testcase classname="simple" name="simple\/new-vehicle"[^>]*>\s*<skipped message="not checked: client\.completes: Not checked: it needs the client's run \(its exit status and RELAY_RESULT_FILE\), which was not given\."\/>/,
    )
    expect(allowed.match(/<failure /g)).toHaveLength(1)
  })

  it('passes a case that only warned, listing the warning in system-out', () => {
    expect(xml).toMatch(/name="simple\/rejected"[^>]*>\s*<system-out><!\[CDATA\[[^\]]*Warnings:\n {2}client\.outcome: /)
  })
})

describe('the reporter map', () => {
  it('offers console, json and junit by name', () => {
    expect(Object.keys(reporters)).toEqual(expect.arrayContaining(['console', 'json', 'junit']))
  })

  it('refuses a file reporter without a file', () => {
    expect(() => reporters.json({})).toThrow(/Please pass \{ file \}/)
  })
})
