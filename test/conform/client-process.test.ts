// One client process: its tree ends with it, whatever its descendants do (a new session holding
// our pipes, a cleared environment), and a timeout ends the case even when the output stays open.
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { runClientProcess } from '../../src/node/processes/client-process.js'

/** The pids of running processes whose command line contains `marker`. */
function pidsWith(marker: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

const leftovers: string[] = []
afterEach(() => {
  for (const marker of leftovers.splice(0)) for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL')
})

const run = (command: string, timeoutMs = 20_000) => runClientProcess({ command, env: process.env, timeoutMs })

describe('runClientProcess', () => {
  it('stops a hanging client at its timeout with a setsid grandchild holding its stdout, and leaves none of its tree', async () => {
    const [child, grandchild] = ['411.125', '411.250']
    leftovers.push(child, grandchild)
    const result = await run(`setsid sleep ${grandchild} & sleep ${child}; echo never`, 1000)
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL', stdout: '' })
    expect(result.durationMs).toBeGreaterThanOrEqual(1000)
    expect(pidsWith(child)).toEqual([])
    expect(pidsWith(grandchild)).toEqual([])
  }, 10_000)

  it('ends a client that exits while a setsid grandchild holds its stdout, and kills the grandchild', async () => {
    const grandchild = '412.125'
    leftovers.push(grandchild)
    const result = await run(
      `setsid sleep ${grandchild} & until pgrep -f '^sleep ${grandchild}' > /dev/null; do sleep 0.05; done; echo started`,
    )
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' })
    expect(pidsWith(grandchild)).toEqual([])
  }, 10_000)

  it('kills a daemon that double-forked into its own session before the client exited', async () => {
    const daemon = '413.125'
    leftovers.push(daemon)
    // The intermediate shell exits at once: the daemon is adopted by init, out of any parent walk.
    const result = await run(
      `sh -c 'setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null &'; until pgrep -f '^sleep ${daemon}' > /dev/null; do sleep 0.05; done; echo spawned`,
    )
    expect(result).toMatchObject({ exitCode: 0, stdout: 'spawned\n' })
    expect(pidsWith(daemon)).toEqual([])
  }, 10_000)

  it('closes the pipes after a grace when something it cannot reach holds them', async () => {
    const stray = '414.125'
    leftovers.push(stray)
    // A cleared environment in a new session, orphaned: nothing marks it as the client's.
    const result = await run(
      `sh -c 'exec env -i setsid sleep ${stray}' & until pgrep -f '^sleep ${stray}' > /dev/null; do sleep 0.05; done; echo started`,
    )
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'started\n' })
  }, 10_000)
})
