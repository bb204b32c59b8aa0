// Runs a location's client command once: through the shell, in its own process group, with its
// output capped. One result shape whether it passed, failed or hung (execa's). Nothing it starts
// outlives it: after it exits, after --timeout, and when the runner is interrupted, its whole tree
// is killed, including descendants that left its group (setsid, daemons) while still holding our pipes.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import type { ClientRun } from '../../core/rules/types.js'
import { endTree, killTree, startTimeOf, TREE_VARIABLE, type ProcessTree } from './process-tree.js'

export interface ClientProcessOptions {
  command: string
  env: NodeJS.ProcessEnv
  cwd?: string
  /** Kill the process tree after this long. */
  timeoutMs: number
  /** How many bytes of stdout and of stderr to keep (the rest is counted, not kept). */
  outputLimit?: number
  /** Kills the process tree when aborted (the run it belongs to has failed, bailed or been interrupted). */
  signal?: AbortSignal
}

/** How the process ended: a ClientRun before its result file is read. */
export type ClientProcessResult = Omit<ClientRun, 'report' | 'reportError'>

/**
 * How long the output pipes may stay open once the client's tree has been killed. Something we
 * could not kill (outside /proc's reach, or another user's) may hold them for ever; past this
 * grace our ends are closed and the case goes on with what was read.
 */
const PIPE_GRACE_MS = 500

/** Clients still running: killed on interrupt or exit so that no client outlives the runner. */
const liveTrees = new Set<ProcessTree>()
let exitHookInstalled = false

/** The root pids of the client processes still running (what a run's CPU time reads while they go). */
export function* liveClientPids(): Generator<number> {
  for (const tree of liveTrees) yield tree.pid
}

/** Kills every client process tree still running. Synchronous, so it is safe in an exit handler. */
export function killAllClients(): void {
  for (const tree of liveTrees) killTree(tree)
  liveTrees.clear()
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
    const marker = randomUUID()
    let timedOut = false
    let settled = false
    let ending: Promise<void> | undefined
    // The marker travels in the environment to every descendant, whatever group or session it
    // moves to and whoever adopts it, so that the tree can be found after its root has gone.
    const child = spawn(command, {
      shell: true,
      detached: true,
      env: { ...env, [TREE_VARIABLE]: marker },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const tree: ProcessTree | undefined =
      child.pid === undefined ? undefined : { pid: child.pid, marker, startTime: startTimeOf(child.pid) }
    if (tree) liveTrees.add(tree)
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    const pipesClosed = Promise.all(
      [child.stdout, child.stderr].map((stream) =>
        stream.closed
          ? Promise.resolve()
          : once(stream, 'close').then(
              () => undefined,
              () => undefined,
            ),
      ),
    )

    // A failure to read /proc leaves the group kill done: the case goes on.
    const endClientTree = () => (ending ??= tree ? endTree(tree).catch(() => undefined) : Promise.resolve())
    /** Ends the tree; should its root still not have exited a grace later, the case ends without it. */
    const stop = () => {
      void endClientTree()
        .then(() => delay(PIPE_GRACE_MS, undefined, { ref: false }))
        .then(() => finish(null, 'SIGKILL', performance.now() - started))
    }
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, timeoutMs)
    if (abortSignal?.aborted) stop()
    else abortSignal?.addEventListener('abort', stop, { once: true })

    const finish = (exitCode: number | null, signal: string | null, durationMs: number, extra = '') => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      abortSignal?.removeEventListener('abort', stop)
      if (tree) liveTrees.delete(tree)
      // Our ends of the pipes, in case something we could not kill still holds the others.
      child.stdout.destroy()
      child.stderr.destroy()
      resolve({
        command,
        exitCode,
        signal: timedOut ? 'SIGKILL' : signal,
        timedOut,
        durationMs: Math.round(durationMs),
        stdout: stdout.toString(),
        stderr: stderr.toString() + extra,
      })
    }

    child.once('error', (error) => finish(null, null, performance.now() - started, `\n${error.message}`))
    const onExit = async (code: number | null, signal: NodeJS.Signals | null): Promise<void> => {
      const durationMs = performance.now() - started
      clearTimeout(timer)
      // Whatever the client left running (a background child holding our pipes) goes too; the
      // output streams end once every holder of the pipes is gone, which the kill ensures.
      await endClientTree()
      await Promise.race([pipesClosed, delay(PIPE_GRACE_MS, undefined, { ref: false })])
      finish(code, signal, durationMs)
    }
    child.once('exit', (code, signal) => void onExit(code, signal))
  })
}
