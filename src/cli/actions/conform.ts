// `relay-mock conform`'s work, loaded only when the command runs: run the client through the cases
// (or check a captured HAR) with the chosen reporters; resolves with the exit code.
import os from 'node:os'
import { join } from 'node:path'
import pc from 'picocolors'
import { skippedForCapture } from '../../devtools/live/capture.js'
import type { Reporter } from '../../core/rules/types.js'
import { checkHarFile } from '../../node/from-har.js'
import { reporters } from '../../node/reporters/index.js'
import { runConformance } from '../../node/runner.js'
import { loadCases } from '../../node/user-files.js'
import { cases } from '../../../suites/index.js'
import { fileReports, type ConformArgs } from '../conform-options.js'

/** Runs conform; 0 when every case passed, 1 when a rule failed, 2 on a usage error. */
export async function conform(args: ConformArgs): Promise<number> {
  if (!args.client && !args.from) {
    console.error(pc.red('Failed to start: no client. Please pass --client "<command>" (or --from FILE.har to check a captured conversation).'))
    return 2
  }
  const chosen: Reporter[] = [reporters.console({})]
  const files: Array<{ format: string; file: string }> = []
  for (const report of fileReports) {
    const file = args[report.flag] ?? (args.reportDir ? join(args.reportDir, report.file) : undefined)
    if (typeof file !== 'string') continue
    chosen.push(reporters[report.reporter]({ file }))
    files.push({ format: report.flag, file })
  }
  // Inside GitHub Actions, failures also become annotations on the run and the pull request.
  if (args.github ?? process.env.GITHUB_ACTIONS === 'true') chosen.push(reporters.github({}))
  if (args.from) {
    const result = await checkHarFile(args.from, { reporters: chosen })
    const skipped = skippedForCapture(result)
    if (skipped.length) console.log(pc.dim(`Not checked (a capture has no visit inputs, no client exit status): ${skipped.join(', ')}.`))
    printReportFiles(files)
    return result.summary.failed > 0 ? 1 : 0
  }
  const own = args.cases ? await loadCases(args.cases) : undefined
  const interrupt = onStopSignals()
  try {
    const result = await runConformance({
      client: args.client!,
      ...(own ? { suite: [...cases, ...own.cases], scenarios: own.scenarios } : {}),
      flows: args.flow ? [args.flow] : undefined,
      cases: args.case,
      suites: args.suite,
      requestTimeoutMs: args.requestTimeout * 1000,
      jobs: args.jobs,
      timeoutMs: args.timeout * 1000,
      seed: args.seed,
      bail: args.bail,
      repeat: args.repeat,
      reporters: chosen,
      signal: interrupt.signal,
    })
    printReportFiles(files)
    // A shell's convention for a process ended by a signal: 128 + its number (130 for Ctrl-C).
    if (interrupt.received) return 128 + os.constants.signals[interrupt.received]
    return exitCode(result.summary, args.strict)
  } finally {
    interrupt.dispose()
  }
}

/** The report files written, last, so that they are the lines a reader finds at the end. */
function printReportFiles(files: Array<{ format: string; file: string }>): void {
  if (files.length === 0) return
  const width = Math.max(...files.map(({ format }) => format.length))
  console.log('')
  console.log(`Reports written:`)
  for (const { format, file } of files) console.log(`  ${format.toUpperCase().padEnd(width)}  ${file}`)
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Turns the first SIGINT, SIGTERM or SIGHUP into a graceful stop (clients ended, reports of the
 * finished cases written); a second one ends the process at once, for a reader who will not wait.
 */
function onStopSignals() {
  const controller = new AbortController()
  const state = {
    signal: controller.signal,
    received: undefined as (typeof STOP_SIGNALS)[number] | undefined,
    dispose: () => STOP_SIGNALS.forEach((name) => process.off(name, onSignal)),
  }
  function onSignal(name: (typeof STOP_SIGNALS)[number]) {
    if (state.received) process.exit(128 + os.constants.signals[state.received])
    state.received = name
    console.error(pc.yellow(`\nStopping on ${name}: ending the clients, writing the reports of the cases that finished (again to quit at once).`))
    controller.abort(name)
  }
  STOP_SIGNALS.forEach((name) => process.on(name, onSignal))
  return state
}

/** 1 when a case failed, was flaky or never reached its faulted step; warnings only with --strict. */
export function exitCode(summary: { failed: number; flaky?: number; warnings?: number; notReached?: number }, strict = false): number {
  return summary.failed + (summary.flaky ?? 0) + (summary.notReached ?? 0) > 0 || (strict && (summary.warnings ?? 0) > 0) ? 1 : 0
}
