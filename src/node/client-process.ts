// Runs a location's client command once: through the shell, in its own process group so that the
// whole tree can be killed (after --timeout, after it exits, and when the runner is interrupted),
// with its output capped. One result shape whether it passed, failed or hung (execa's).
import { spawn } from 'node:child_process'
import type { ClientRun } from '../core/rules/types.js'

export interface ClientProcessOptions {
  command: string
  env: NodeJS.ProcessEnv
  cwd?: string
  /** Kill the process tree after this long. */
  timeoutMs: number
  /** How many bytes of stdout and of stderr to keep (the rest is counted, not kept). */
  outputLimit?: number
  /** Kills the process tree when aborted (the run it belongs to has failed). */
  signal?: AbortSignal
}

/** How the process ended: a ClientRun before its result file is read. */
export type ClientProcessResult = Omit<ClientRun, 'report' | 'reportError'>

/** Process groups still running: killed on interrupt or exit so that no client outlives the runner. */
const liveGroups = new Set<number>()
let exitHookInstalled = false

function killGroup(pid: number): void {
  try {
    // A negative pid names the process group: the shell, the client and everything they started.
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Kills every client process tree still running. Synchronous, so it is safe in an exit handler. */
export function killAllClients(): void {
  for (const pid of liveGroups) killGroup(pid)
  liveGroups.clear()
}

class Capped {
  #chunks: Buffer[] = []
  #kept = 0
  #dropped = 0
  constructor(readonly limit: number) {}
  push(chunk: Buffer): void {
    const room = this.limit - this.#kept
    if (room <= 0) {
      this.#dropped += chunk.length
      return
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk
    this.#chunks.push(part)
    this.#kept += part.length
    this.#dropped += chunk.length - part.length
  }
  toString(): string {
    const text = Buffer.concat(this.#chunks).toString('utf8')
    return this.#dropped > 0 ? `${text}\n[... ${this.#dropped} more bytes not kept]` : text
  }
}

/**
 * Runs `command` through the shell and resolves when it has exited (or been killed after the timeout).
 * @example
 * const run = await runClientProcess({ command: 'python3 client.py', env: { ...process.env, RELAY_FLOW: 'simple' }, timeoutMs: 30_000 })
 * run.exitCode // 0
 */
export function runClientProcess(options: ClientProcessOptions): Promise<ClientProcessResult> {
  const { command, env, cwd, timeoutMs, outputLimit = 64 * 1024, signal: abortSignal } = options
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.once('exit', killAllClients)
  }
  return new Promise((resolve) => {
    const started = performance.now()
    const stdout = new Capped(outputLimit)
    const stderr = new Capped(outputLimit)
    let timedOut = false
    let settled = false
    const child = spawn(command, { shell: true, detached: true, env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    const pid = child.pid
    if (pid !== undefined) liveGroups.add(pid)
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))

    const timer = setTimeout(() => {
      timedOut = true
      if (pid !== undefined) killGroup(pid)
    }, timeoutMs)
    const onAbort = () => {
      if (pid !== undefined) killGroup(pid)
    }
    if (abortSignal?.aborted) onAbort()
    else abortSignal?.addEventListener('abort', onAbort, { once: true })

    const finish = (exitCode: number | null, signal: string | null, durationMs: number, extra = '') => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      abortSignal?.removeEventListener('abort', onAbort)
      if (pid !== undefined) {
        // Whatever the client left running in its group (a background child holding our pipes) goes too.
        killGroup(pid)
        liveGroups.delete(pid)
      }
      resolve({
        command,
        exitCode,
        signal,
        timedOut,
        durationMs: Math.round(durationMs),
        stdout: stdout.toString(),
        stderr: stderr.toString() + extra,
      })
    }

    child.once('error', (error) => finish(null, null, performance.now() - started, `\n${error.message}`))
    child.once('exit', (code, signal) => {
      const durationMs = performance.now() - started
      if (pid !== undefined) killGroup(pid)
      // The output streams end once every holder of the pipes is gone, which the kill above ensures.
      let open = 2
      const done = () => {
        if (--open === 0) finish(code, timedOut ? 'SIGKILL' : signal, durationMs)
      }
      for (const stream of [child.stdout, child.stderr]) {
        if (stream.closed) done()
        else stream.once('close', done)
      }
    })
  })
}
