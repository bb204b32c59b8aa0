// The reporters on a fixed result (frozen times, hand-written checks): console, JSON and JUnit.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { CaseResult, RunResult } from '../../src/core/rules/types.js'
import { createConsoleReporter, createJsonReporter, reporters, toJsonReport, toJUnitXml } from '../../src/node/reporters/index.js'

const visit = {
  plate: 'AB123',
  ownerKennitala: '5901694399',
  registrationDate: '2024-03-01',
  visitStart: '2026-11-21 09:14:05',
  visitEnd: '2026-11-21 09:31:47',
  amount: 2490,
  currency: 'ISK' as const,
  locationId: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
}

function kase(overrides: Partial<CaseResult>): CaseResult {
  return {
    id: 'simple/accepted',
    flow: 'simple',
    scenario: 'existing-vehicle',
    title: 'The service accepts the payment',
    status: 'passed',
    durationMs: 212,
    exitCode: 0,
    signal: null,
    timedOut: false,
    stdout: '',
    stderr: 'POST /payment -> 201\n',
    visit,
    checks: [
      { rule: 'auth.bearer', status: 'passed', message: 'All 1 requests carried the bearer token.' },
      { rule: 'client.outcome', status: 'skipped', message: 'Does not apply: the client wrote no RELAY_RESULT_FILE (it is optional).' },
    ],
    expected: [{ method: 'POST', path: '/payment' }],
    requests: [],
    ...overrides,
  }
}

const result: RunResult = {
  summary: {
    total: 2,
    passed: 1,
    failed: 1,
    rulesBroken: ['advanced.payment-body'],
    clientMs: 1234,
    wallMs: 1402,
    startedAt: '2026-11-21T10:00:00.000Z',
    version: '0.1.0',
    client: 'python3 client.py',
    flows: ['advanced', 'simple'],
  },
  cases: [
    kase({
      id: 'advanced/existing-vehicle',
      flow: 'advanced',
      title: 'The plate is known: pay for it, create nothing',
      status: 'failed',
      durationMs: 1022,
      checks: [
        { rule: 'auth.bearer', status: 'passed', message: 'All 3 requests carried the bearer token.' },
        {
          rule: 'advanced.payment-body',
          status: 'failed',
          message: 'Expected the payment body to carry the visit; in POST /payments (request 3 of 3) amount.currency is "EUR", expected "ISK" (the only currency). (interface: §2 Payment)',
          seq: 3,
        },
        { rule: 'advanced.custodian-after-create', status: 'skipped', message: 'Does not apply: GET /vehicles found the vehicle.' },
      ],
    }),
    kase({}),
  ],
}

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
    await reporter.onRunStart?.({ cases: result.cases, client: result.summary.client, flows: result.summary.flows, startedAt: result.summary.startedAt })
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

  it('writes no colour codes when colour is off', async () => {
    const out = capture()
    await createConsoleReporter({ stream: out.stream, color: false }).onRunEnd?.(result)
    expect(out.text()).not.toMatch(/\u001b\[/)
  })
})

describe('the JSON reporter', () => {
  it('has the documented shape', () => {
    const json = toJsonReport(result)
    expect(Object.keys(json)).toEqual(['summary', 'cases'])
    expect(Object.keys(json.cases[0]).slice(0, 8)).toEqual(['id', 'flow', 'scenario', 'status', 'durationMs', 'exitCode', 'checks', 'requests'])
    expect(json.cases[0].checks[1]).toMatchObject({ rule: 'advanced.payment-body', status: 'failed', message: expect.stringContaining('EUR') })
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
    expect(xml.match(/<testcase /g)).toHaveLength(2)
    expect(xml).toContain('classname="advanced" name="advanced/existing-vehicle"')
    expect(xml).toContain('classname="simple" name="simple/accepted"')
  })

  it('names each failed rule in the failure message and lists skipped rules in system-out', () => {
    expect(xml).toMatch(/<failure message="advanced\.payment-body: Expected the payment body/)
    expect(xml).toMatch(/<system-out><!\[CDATA\[[^\]]*Skipped rules:\n {2}advanced\.custodian-after-create: Does not apply/)
  })

  it('is well-formed XML', () => {
    const parsed = execFileSync('python3', ['-c', 'import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.stdin.read()); print(len(r.findall(".//testcase")), len(r.findall(".//failure")))'], { input: xml, encoding: 'utf8' })
    expect(parsed.trim()).toBe('2 1')
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
