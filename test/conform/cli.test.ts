// `relay-mock conform` and `relay-mock demo` as a user runs them: the built bin in a child process.
// Exit status 0 every case passed, 1 a rule failed, 2 a usage or set-up error.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_ENV, ROOT, useBuiltCli } from '../support/cli.js'
import { needs } from '../support/needs.js'

// Python3's XML parser reads the JUnit report.
needs('python3')

const root = ROOT
const env = CLI_ENV
const scratch = useBuiltCli('relay-mock-cli-')

function start(args: string[]) {
  const child = spawn(process.execPath, ['bin/relay-mock.js', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const ended = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as string | null,
    stdout,
    stderr,
  }))
  return { child, ended }
}

const relayMock = (...args: string[]) => start(args).ended

/** The running processes whose command line starts with `start` (not conform's, which names the client). */
function processesWith(start: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith(start))
}

describe.concurrent('relay-mock conform', () => {
  it('exits 0 when every case passes, and writes --json and --junit', async () => {
    const json = join(scratch(), 'pass.json')
    const junit = join(scratch(), 'pass.xml')
    const run = await relayMock(
      'conform',
      '--client',
      'node dist/examples/clients/typescript/client.js',
      '--flow',
      'simple',
      '--suite',
      'simple',
      '--jobs',
      '2',
      '--json',
      json,
      '--junit',
      junit,
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/✓ simple\/rejected-ok-status +\d+/)
    expect(run.stdout).toContain('Conformant: 9 cases, 9 passed, 0 failed')

    const report = JSON.parse(await readFile(json, 'utf8'))
    expect(report.summary).toMatchObject({ total: 9, passed: 9, failed: 0, rulesBroken: [], flows: ['simple'] })
    expect(report.summary.wallMs).toEqual(expect.any(Number))
    expect(report.summary.clientMs).toEqual(expect.any(Number))
    for (const kase of report.cases) {
      expect(kase).toMatchObject({
        id: expect.stringMatching(/^simple\//),
        flow: 'simple',
        scenario: expect.any(String),
        status: 'passed',
        durationMs: expect.any(Number),
        exitCode: 0,
      })
      expect(kase.requests).toHaveLength(1)
      for (const check of kase.checks) {
        expect(Object.keys(check).slice(0, 3)).toEqual(['rule', 'status', 'message'])
        expect(['passed', 'skipped']).toContain(check.status)
      }
    }

    const counted = execFileSync(
      'python3',
      [
        '-c',
        'import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); print(len(r.findall(".//testcase")), len(r.findall(".//failure")))',
        junit,
      ],
      { encoding: 'utf8' },
    )
    expect(counted.trim()).toBe('9 0')
  })

  it('exits 1 when a rule fails, naming the rule and why', async () => {
    const junit = join(scratch(), 'fail.xml')
    const run = await relayMock(
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs simple-keys-on-status',
      '--case',
      'simple/rejected-ok-status',
      '--junit',
      junit,
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/✗ simple\/rejected-ok-status/)
    expect(run.stdout).toMatch(
      /client\.outcome\n +Expected the outcome "rejected", since POST \/payment \(request 1 of 1\) was answered 200 without an id/,
    )
    expect(run.stdout).toContain('Rules broken: client.outcome')
    expect(await readFile(junit, 'utf8')).toMatch(/<failure message="client\.outcome: Expected the outcome/)
  })

  it('writes every report into --report-dir and, with --github, each failed rule as an annotation', async () => {
    const reports = join(scratch(), 'evidence')
    const run = await relayMock(
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs simple-keys-on-status',
      '--case',
      'simple/rejected-ok-status',
      '--report-dir',
      reports,
      '--github',
    )
    expect(run.code).toBe(1)
    for (const file of ['conform.json', 'conform.xml', 'conform.html', 'conform.har'])
      expect(existsSync(join(reports, file))).toBe(true)
    expect(JSON.parse(await readFile(join(reports, 'conform.json'), 'utf8')).summary).toMatchObject({
      total: 1,
      failed: 1,
      rulesBroken: ['client.outcome'],
    })
    expect(run.stdout).toMatch(
      /^::error title=client\.outcome in simple\/rejected-ok-status::Expected the outcome "rejected"/m,
    )
    expect(run.stdout).toMatch(
      /^::notice title=relay-mock conform::Not conformant: 1 case, 0 passed, 1 failed; rules broken: client\.outcome$/m,
    )
  })

  it('prints no annotations outside GitHub Actions unless asked', async () => {
    const run = await relayMock(
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs simple-keys-on-status',
      '--case',
      'simple/rejected-ok-status',
    )
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('::error')
  })

  it('exits 2 with what to do when the client command is not found', async () => {
    const run = await relayMock('conform', '--client', 'relay-mock-no-such-client')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('the client command could not start: relay-mock-no-such-client')
    expect(run.stderr).toContain('Please check the command')
    expect(run.stdout).not.toContain('✗')
  })

  it('exits 2 on a flow it does not know', async () => {
    const run = await relayMock('conform', '--client', 'true', '--flow', 'fancy')
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('relay-mock conform: --flow "fancy" is not a flow: expected advanced or simple.\n')
  })

  it('exits 2 on a case it does not know, naming the nearest cases and the suites', async () => {
    const run = await relayMock('conform', '--client', 'true', '--case', 'simple/nope')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      /^relay-mock conform: --case "simple\/nope" matches no case: expected an id such as simple\/.* \(the nearest\), or a glob such as advanced\/\*, simple\/\*, resilience\/\* or variants\/\*\.\n$/,
    )
    expect(run.stderr).not.toContain('advanced/unknown-owner')
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('leaves no client running when it is interrupted', async () => {
    const marker = '319.625'
    const { child, ended } = start(['conform', '--client', `sleep ${marker}`, '--case', 'simple/accepted'])
    for (let i = 0; i < 100 && processesWith(`sleep ${marker}`).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(processesWith(`sleep ${marker}`)).toHaveLength(1)
    child.kill('SIGINT')
    const run = await ended
    expect(run.code).toBe(130)
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })
})

describe('relay-mock demo', () => {
  it('runs both flows with the reference client, printing each call and verdict', async () => {
    const run = await relayMock('demo')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/advanced\/new-vehicle — .*\n.*visit: plate \w+/)
    expect(run.stdout).toMatch(/→ POST \/custodians .*\n +← 201 \{"id":/)
    expect(run.stdout).toMatch(/simple\/rejected-ok-status[^]*?← 200 \{"status":"refused"[^]*?✓ rejected/)
    expect(run.stdout).toContain('Conformant: 24 cases, 24 passed, 0 failed')
  })
})

describe('relay-mock conform --suite and --strict', () => {
  it('narrows to the cells asked for; a warning exits 0, and 1 with --strict', async () => {
    const args = [
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs gives-up-on-503',
      '--suite',
      'resilience',
      '--case',
      'resilience/payment-create/unavailable/once',
    ]
    const lenient = await relayMock(...args)
    expect(lenient.stdout).toContain('Conformant: 1 case, 0 passed, 1 warned, 0 failed')
    expect(lenient.stdout).toMatch(/Resilience matrix[^]*payment-create +!/)
    expect(lenient.code).toBe(0)
    const strict = await relayMock(...args, '--strict')
    expect(strict.code).toBe(1)
  })
})
