// The fork client (test/support/fork-client.ts), which runs the Python clients of examples.test.ts and
// libraries.test.ts, runs a script as `python3 script.py args` would, a process per run: with the run's
// environment, arguments and exit status, its output kept for the error, its imports made once, and a
// run the runner gives up on killed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { forkClient, type ForkClient } from '../support/fork-client.js'
import type { ClientVisit, RelayEnv } from '../../src/node/runner/contract.js'
import { needs } from '../support/needs.js'

// The scripts forked from one interpreter.
needs('python3')

const dir = mkdtempSync(join(os.tmpdir(), 'relay-mock-fork-test-'))
const clients: ForkClient[] = []
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  rmSync(dir, { recursive: true, force: true })
})

/** A fork client of a script written into the test's folder, beside a module it imports. */
function scriptClient(source: string, ...args: string[]): ForkClient {
  const script = join(dir, `script${clients.length}.py`)
  writeFileSync(script, source)
  const client = forkClient(script, ...args)
  clients.push(client)
  return client
}

const run = (client: ForkClient, env: Record<string, string>, signal = new AbortController().signal) =>
  client({} as ClientVisit, env as unknown as RelayEnv, { signal })

// A module beside the scripts that notes each import of it in a file.
writeFileSync(
  join(dir, 'noted.py'),
  `import os\nwith open(${JSON.stringify(join(dir, 'imports.txt'))}, 'a') as f:\n    f.write('imported\\n')\n`,
)

describe('the fork client', () => {
  it("runs each run with its own environment, arguments and process, importing the script's modules once", async () => {
    const client = scriptClient(
      [
        'import json, os, sys',
        'import noted',
        'with open(os.environ["OUT"], "w") as f:',
        '    json.dump({"argv": sys.argv[1:], "case": os.environ["CASE"], "pid": os.getpid(), "cwd": os.getcwd(), "name": __name__}, f)',
      ].join('\n'),
      'recipe',
    )
    const outs = ['a', 'b', 'c'].map((name) => join(dir, `${name}.json`))
    await Promise.all(outs.map((out, index) => run(client, { OUT: out, CASE: String(index) })))
    const written = outs.map(
      (out) =>
        JSON.parse(readFileSync(out, 'utf8')) as {
          argv: string[]
          case: string
          pid: number
          cwd: string
          name: string
        },
    )
    expect(written.map((each) => [each.argv, each.case, each.cwd, each.name])).toEqual(
      ['0', '1', '2'].map((kase) => [['recipe'], kase, process.cwd(), '__main__']),
    )
    expect(new Set(written.map((each) => each.pid)).size).toBe(3)
    expect(written.map((each) => each.pid)).not.toContain(process.pid)
    // Forked on Linux only; elsewhere a process per run, each importing for itself.
    expect(readFileSync(join(dir, 'imports.txt'), 'utf8')).toBe(
      process.platform === 'linux' ? 'imported\n' : 'imported\n'.repeat(3),
    )
  })

  it('fails a run that exits other than 0, with its exit status and its output', async () => {
    const client = scriptClient('import sys\nprint("RELAY_BASE_URL is not set", file=sys.stderr)\nsys.exit(2)\n')
    await expect(run(client, {})).rejects.toThrow(/exited 2:\nRELAY_BASE_URL is not set/)
    const raising = scriptClient('raise ValueError("no visit")\n')
    await expect(run(raising, {})).rejects.toThrow(/exited 1:\n[\s\S]*ValueError: no visit/)
  })

  it('ends a run as the interpreter ends: a file left open is written, a thread still going is waited for', async () => {
    const client = scriptClient(
      [
        'import os, threading, time',
        'left = open(os.environ["LEFT"], "w")',
        'left.write("written")',
        'def later():',
        '    time.sleep(0.3)',
        '    with open(os.environ["LATER"], "w") as f:',
        '        f.write("done")',
        'threading.Thread(target=later).start()',
      ].join('\n'),
    )
    const [left, later] = [join(dir, 'left.txt'), join(dir, 'later.txt')]
    await run(client, { LEFT: left, LATER: later })
    expect([readFileSync(left, 'utf8'), readFileSync(later, 'utf8')]).toEqual(['written', 'done'])
  })

  it('kills a run the runner gave up on', async () => {
    const marker = join(dir, 'started.txt')
    const client = scriptClient(`import time\nopen(${JSON.stringify(marker)}, "w").close()\ntime.sleep(60)\n`)
    const controller = new AbortController()
    const running = run(client, {}, controller.signal)
    // Given up on once it runs: the kill of a forked process, not of one still to fork.
    await vi.waitUntil(() => existsSync(marker), { timeout: 20_000, interval: 20 })
    const started = performance.now()
    controller.abort()
    await expect(running).rejects.toThrow(/exited 137/)
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('kills a run given up on before its interpreter was ready', async () => {
    const client = scriptClient('import time\ntime.sleep(60)\n')
    const controller = new AbortController()
    controller.abort()
    const started = performance.now()
    await expect(run(client, {}, controller.signal)).rejects.toThrow(/exited 137/)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
