// `relay-mock conform` steered as a user steers it, the built bin in a child process: stopped by a
// signal mid-run, --bail, --repeat, a client script that does not exist, and the report files named last.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_ENV, ROOT, useBuiltCli } from '../support/cli.js'

const root = ROOT
const env = CLI_ENV
const scratch = useBuiltCli('relay-mock-cli-control-')

function start(args: string[]) {
  const child = spawn(process.execPath, ['bin/relay-mock.js', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
  const ended = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as string | null,
    ...output,
  }))
  return { child, output, ended }
}

const relayMock = (...args: string[]) => start(args).ended

/** The running `sleep` processes whose argument starts with `marker`. */
function sleepers(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith(`sleep ${marker}`))
}

/** The pids of `pid` and all its descendants, from /proc. */
function treeOf(pid: number): number[] {
  const children = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
  const found = [pid]
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of children) if (parent === found[i]) found.push(child)
  return found
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Gave up waiting for ${what}.`)
}

// One at a time: each spawns the CLI and three clients, and a loaded machine starts node slowly.
describe('relay-mock conform stopped by a signal', () => {
  for (const [signal, code, marker] of [
    ['SIGTERM', 143, '431.125'],
    ['SIGINT', 130, '431.250'],
    ['SIGHUP', 129, '431.375'],
  ] as const) {
    it(`on ${signal}: ends every client of its tree, writes the reports of the finished cases marked interrupted, exits ${code}`, async () => {
      const json = join(scratch(), `${signal}.json`)
      const junit = join(scratch(), `${signal}.xml`)
      // The simple case ends at once; the advanced ones hang, one with a grandchild in a session of its own.
      const client = `if [ "$RELAY_FLOW" = simple ]; then exit 0; else setsid sleep ${marker}9 & exec sleep ${marker}; fi`
      const run = start([
        'conform',
        '--client',
        client,
        '--case',
        'advanced/new-vehicle',
        '--case',
        'advanced/existing-vehicle',
        '--case',
        'simple/accepted',
        '--jobs',
        '3',
        '--json',
        json,
        '--junit',
        junit,
      ])
      await until(
        () =>
          /simple\/accepted/.test(run.output.stdout) &&
          sleepers(`${marker}9`).length === 2 &&
          sleepers(marker).length === 4,
        'the simple case to end and the advanced clients to run',
      )
      const tree = treeOf(run.child.pid!)
      expect(tree.length).toBeGreaterThan(1)
      run.child.kill(signal)
      const ended = await run.ended

      expect(ended.code).toBe(code)
      expect(sleepers(marker)).toEqual([])
      // A zombie is dead already, waiting for its new parent (init) to reap it.
      const alive = execFileSync('ps', ['-eo', 'pid=,stat='], { encoding: 'utf8' })
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(([, stat]) => stat && !stat.startsWith('Z'))
        .map(([pid]) => Number(pid))
      expect(tree.filter((pid) => alive.includes(pid))).toEqual([])

      const report = JSON.parse(await readFile(json, 'utf8'))
      expect(report.summary).toMatchObject({ interrupted: true, total: 1, notRun: 2 })
      expect(report.cases.map((kase: { id: string }) => kase.id)).toEqual(['simple/accepted'])
      expect(await readFile(junit, 'utf8')).toContain('name="simple/accepted"')
      expect(ended.stdout).toMatch(/^Interrupted: 1 case, 0 passed, 1 failed$/m)
      expect(ended.stdout).toContain('2 cases did not run or finish; the reports hold the 1 case that finished.')
      expect(ended.stdout.trimEnd().split('\n').slice(-2)).toEqual([`  JSON   ${json}`, `  JUNIT  ${junit}`])
      expect(ended.stderr).toContain(`Stopping on ${signal}`)
    }, 60_000)
  }
})

describe('relay-mock conform', () => {
  it('--bail stops at the first failed case, reports it, and names the report file last', async () => {
    const json = join(scratch(), 'bail.json')
    const run = await relayMock(
      'conform',
      '--client',
      'exit 1',
      '--flow',
      'simple',
      '--jobs',
      '1',
      '--bail',
      '--json',
      json,
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('Stopped at the first failure (--bail): 1 case, 0 passed, 1 failed')
    expect(JSON.parse(await readFile(json, 'utf8')).summary).toMatchObject({ bailed: true, total: 1 })
    expect(run.stdout.trimEnd().split('\n').slice(-2)).toEqual(['Reports written:', `  JSON  ${json}`])
  })

  it('--repeat reports a case that fails some of its runs as flaky, and exits 1', async () => {
    const json = join(scratch(), 'flaky.json')
    const counter = join(scratch(), 'flaky-count')
    // Fails its first run, passes the next ones: the reference behaviour through the defective client with no defect.
    const client = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n + 1)) > ${counter}; if [ "$n" = 0 ]; then exit 1; fi; exec node test/conform/clients/defective.mjs none`
    const run = await relayMock(
      'conform',
      '--client',
      client,
      '--case',
      'simple/accepted',
      '--repeat',
      '3',
      '--jobs',
      '1',
      '--json',
      json,
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/~ simple\/accepted +\d+ ms +\d rules? failed +flaky: failed 1 of 3 runs/)
    expect(run.stdout).toContain('Not conformant: 1 case, 0 passed, 0 failed, 1 flaky')
    const report = JSON.parse(await readFile(json, 'utf8'))
    expect(report.summary).toMatchObject({ flaky: 1, failed: 0 })
    expect(report.cases[0]).toMatchObject({ status: 'flaky', runs: { total: 3, failed: 1 } })
  })

  it('exits 2 with one line naming a client script that does not exist', async () => {
    const run = await relayMock('conform', '--client', 'node no-such-dir/client.mjs')
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Failed to run the client: the client command could not start: node no-such-dir\/client\.mjs \(exit 1: Error: Cannot find module .*\)\. Please check the command, and that it runs from /,
      ),
    ])
    expect(run.stdout).not.toMatch(/[✗✓]/)
  })

  it('exits 2 when --repeat is not a whole number of at least 1', async () => {
    const run = await relayMock('conform', '--client', 'true', '--repeat', '0')
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('relay-mock conform: --repeat "0" is not a number of runs: expected an integer 1-1000.\n')
  })

  it('writes one plain line per case, without a progress line, when its output is not a terminal', async () => {
    const run = await relayMock('conform', '--client', 'true', '--suite', 'simple', '--jobs', '2')
    expect(run.stdout).not.toContain('\r')
    expect(run.stdout).not.toContain('\u001b[2K')
    expect(run.stdout.match(/^ {2}✗ simple\/\S+ +\d+ ms {2}1 rule failed$/gm)).toHaveLength(9)
  })
})
