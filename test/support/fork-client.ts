// A Python client script run as a process per case, forked from one interpreter that imported its modules
// (python-forkserver.py), instead of a new interpreter per case: the same script, unchanged, with the case's
// environment, its own process, sockets and exit status, and its result file; without the interpreter's
// start and the imports (requests: about 0.2 s of CPU), which every case would pay again.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { runClientProcess } from '../../src/node/processes/client-process.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'

const FORKSERVER = resolve(import.meta.dirname, 'python-forkserver.py')

/** One forked run: its process once forked, and its exit status. */
interface Run {
  pid?: number
  killed?: boolean
  ended: (code: number) => void
  failed: (error: Error) => void
}

export interface ForkClient extends ClientFunction {
  /** Ends the interpreter the runs are forked from, killing any run still going. */
  close(): Promise<void>
}

/**
 * A runConformance client function that runs `python3 script ...args` forked per case from one interpreter
 * (python3 from PATH) that imported what the script imports. The runner reads RELAY_RESULT_FILE as it does
 * for a process; an exit status other than 0 counts as exit 1, with the script's output in the error.
 * @example runConformance({ client: forkClient('examples/clients/python/client.py') })
 */
export function forkClient(script: string, ...args: string[]): ForkClient {
  // fork() without exec is not safe on macOS once its system frameworks are loaded: a process per run there.
  if (process.platform !== 'linux') return processClient(script, args)
  const path = resolve(script)
  const label = `python3 ${[script, ...args].join(' ')} (forked)`
  const outputs = mkdtempSync(join(os.tmpdir(), 'relay-mock-fork-'))
  let server: { child: ChildProcessWithoutNullStreams; ready: Promise<void>; gone: Promise<string> } | undefined
  const runs = new Map<number, Run>()
  let nextId = 0

  function start() {
    const child = spawn('python3', [FORKSERVER, path], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)))
    let onReady: () => void
    const ready = new Promise<void>((resolve) => (onReady = resolve))
    const gone = new Promise<string>((resolve) => {
      const end = (why: string) => {
        const error = new Error(`the Python fork server for ${script} ${why}${stderr ? `:\n${stderr}` : ''}`)
        for (const run of runs.values()) run.failed(error)
        runs.clear()
        server = undefined
        resolve(error.message)
      }
      child.on('error', (error) => end(`could not start (${error.message})`))
      // Once its stdout is read to the end too: no run that ended is reported as lost with the server.
      child.on('close', (code, signal) => end(`ended (${signal ?? `exit ${code}`})`))
    })
    // A write to a server that has just ended: its runs fail with it, above.
    child.stdin.on('error', () => undefined)
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { ready?: true; id?: number; pid?: number; exit?: number }
      try {
        message = JSON.parse(line)
      } catch {
        stderr = `${stderr}${line}\n`.slice(-4000) // printed by a module as it was imported: kept for the error
        return
      }
      if (message.ready) return onReady()
      const run = runs.get(message.id!)
      if (!run) return
      if (message.pid !== undefined) {
        run.pid = message.pid
        if (run.killed) kill(run.pid)
      }
      if (message.exit !== undefined) {
        runs.delete(message.id!)
        run.ended(message.exit)
      }
    })
    return { child, ready: Promise.race([ready, gone.then((why) => Promise.reject(new Error(why)))]), gone }
  }

  const client = (async (_visit, env, { signal }) => {
    server ??= start()
    const { child, ready } = server
    await ready
    const id = nextId++
    const output = join(outputs, `${id}.log`)
    let run!: Run
    const exited = new Promise<number>((ended, failed) => (run = { ended, failed }))
    runs.set(id, run)
    child.stdin.write(`${JSON.stringify({ id, args, env: { ...process.env, ...env }, cwd: process.cwd(), output })}\n`)
    // The run gave up on the case (its timeout, an interrupt): kill the process, as the runner kills a client's.
    const stop = () => {
      run.killed = true
      if (run.pid) kill(run.pid)
    }
    signal.addEventListener('abort', stop, { once: true })
    // Given up on before it was forked (a slow start of the interpreter): killed once forked.
    if (signal.aborted) stop()
    try {
      const code = await exited
      if (code !== 0) throw new Error(`${label} exited ${code}:\n${readTail(output)}`)
      return undefined
    } finally {
      signal.removeEventListener('abort', stop)
      rmSync(output, { force: true })
    }
  }) as ForkClient
  client.close = async () => {
    const running = server
    if (running) {
      running.child.stdin.end()
      await running.gone
    }
    rmSync(outputs, { recursive: true, force: true })
  }
  Object.defineProperty(client, 'name', { value: label })
  return client
}

/** The same client function, running `python3 script ...args` as a client command for each run. */
function processClient(script: string, args: string[]): ForkClient {
  const command = ['python3', resolve(script), ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ')
  const client = (async (_visit, env, { signal }) => {
    // The runner's own timeout aborts the signal, which kills the process tree.
    const run = await runClientProcess({ command, env: { ...process.env, ...env }, timeoutMs: 2 ** 31 - 1, signal })
    if (run.exitCode !== 0)
      throw new Error(
        `${command} exited ${run.exitCode ?? 128 + (os.constants.signals[run.signal as NodeJS.Signals] ?? 0)}:\n${run.stdout}${run.stderr}`,
      )
    return undefined
  }) as ForkClient
  client.close = () => Promise.resolve()
  Object.defineProperty(client, 'name', { value: `python3 ${[script, ...args].join(' ')}` })
  return client
}

/** Kills a forked run's process group (it is the leader of its own). */
function kill(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-4000)
  } catch {
    return ''
  }
}
