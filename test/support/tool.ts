// Runs a tool the tests need (tsc, dependency-cruiser, npm, javac, go) to its end, whatever it exits with:
// what it printed and its exit code, for an assertion or an error that shows the tool's own report.
import { execFile, type ExecFileOptions } from 'node:child_process'

export interface ToolRun {
  command: string
  /** null: ended by a signal. */
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `command args` (no shell) and resolves when it has ended, never rejecting.
 * @example const run = await runTool('javac', ['Client.java']); if (run.exitCode !== 0) throw new Error(explain(run))
 */
export function runTool(command: string, args: string[], options: ExecFileOptions = {}): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0
      resolve({ command: [command, ...args].join(' '), exitCode, stdout, stderr })
    })
  })
}

/** The message a failed run shows: what ran, and everything it printed. */
export const explain = (run: ToolRun) =>
  `${run.command} exited ${run.exitCode ?? 'on a signal'}:\n${run.stdout}\n${run.stderr}`
