// One run of the client in a case's world: a command (a process tree) or an in-process function, and the report it left.
import { readFile, rm } from 'node:fs/promises'
import { toClientReport } from '../../core/rules/report.js'
import type { ClientRun } from '../../core/rules/types.js'
import { runClientProcess } from '../processes/client-process.js'
import type { ClientFunction, ClientVisit, RelayEnv } from './contract.js'
import type { RunContext } from './context.js'
import { RUN_DEFAULTS } from './options.js'

const TIMED_OUT = Symbol('timed out')

async function runFunctionClient(
  client: ClientFunction,
  visit: ClientVisit,
  env: RelayEnv,
  timeoutMs: number,
  name: string,
  stop: AbortSignal,
): Promise<ClientRun & { value?: unknown }> {
  const controller = new AbortController()
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  let onStop: (() => void) | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
    // A stopped run does not wait for its function clients either (the run is dropped).
    onStop = () => resolve(TIMED_OUT)
    if (stop.aborted) onStop()
    else stop.addEventListener('abort', onStop, { once: true })
  })
  const base = { command: name, signal: null, stdout: '', stderr: '' }
  try {
    const value = await Promise.race([
      Promise.resolve().then(() => client(visit, env, { signal: controller.signal })),
      timeout,
    ])
    const durationMs = Math.round(performance.now() - started)
    if (value === TIMED_OUT) {
      // A function cannot be killed: it is told to stop, and the case moves on.
      controller.abort()
      return { ...base, exitCode: null, timedOut: true, durationMs }
    }
    return { ...base, exitCode: 0, timedOut: false, durationMs, value }
  } catch (error) {
    const err = error as Error
    return {
      ...base,
      exitCode: 1,
      timedOut: false,
      durationMs: Math.round(performance.now() - started),
      stderr: err?.stack ?? String(error),
    }
  } finally {
    clearTimeout(timer)
    stop.removeEventListener('abort', onStop!)
  }
}

async function readReport(file: string): Promise<Pick<ClientRun, 'report' | 'reportError'>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return {}
  }
  const read = toClientReport(text)
  return 'report' in read
    ? { report: read.report }
    : { reportError: `RELAY_RESULT_FILE could not be read as a report: ${read.error}` }
}

/** Runs the client once in the case's world and reads what it reported (in RELAY_RESULT_FILE, or returned). */
export async function runClient(context: RunContext, visit: ClientVisit, env: RelayEnv): Promise<ClientRun> {
  const { client, options } = context
  // A report left by an earlier run in the same file (a case run again) is never read as this run's.
  await rm(env.RELAY_RESULT_FILE, { force: true })
  if (typeof client === 'string') {
    const ran = await runClientProcess({
      command: client,
      env: { ...process.env, ...options.env, ...env },
      cwd: options.cwd,
      timeoutMs: context.timeoutMs,
      outputLimit: options.outputLimit ?? RUN_DEFAULTS.outputLimit,
      signal: context.stop.signal,
    })
    return { ...ran, ...(await readReport(env.RELAY_RESULT_FILE)) }
  }
  const { value, ...ran } = await runFunctionClient(
    client,
    visit,
    env,
    context.timeoutMs,
    context.clientName,
    context.stop.signal,
  )
  if (value === undefined) return { ...ran, ...(await readReport(env.RELAY_RESULT_FILE)) }
  const read = toClientReport(value)
  return {
    ...ran,
    ...('report' in read
      ? { report: read.report }
      : { reportError: `the function's return value could not be read as a report: ${read.error}` }),
  }
}
