// `relay-mock conform`'s work, loaded only when the command runs: run the client through the cases
// (or check a captured HAR) with the chosen reporters; resolves with the exit code.
import os from 'node:os'
import { join } from 'node:path'
import pc from 'picocolors'
import type { Reporter } from '../../core/rules/types.js'
import { checkHarFile } from '../../node/files/from-har.js'
import { reporters } from '../../node/reporters/index.js'
import { runConformance } from '../../node/runner/runner.js'
import { readCalibrationFile } from '../../node/files/calibration-file.js'
import { loadCases } from '../../node/files/user-cases.js'
import { cases } from '../../../suites/index.js'
import { fileReports, type ConformArgs } from '../conform-options.js'

/** Runs conform; 0 when the run passed (summary.conformant), 1 when it did not, 2 on a usage error. */
export async function conform(args: ConformArgs): Promise<number> {
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
    const result = await checkHarFile(args.from, {
      reporters: chosen,
      visitsFile: args.visits,
      allowPartial: args.allowPartial,
      strict: args.strict,
      ...(args.calibrate ? { calibration: readCalibrationFile(args.calibrate).report } : {}),
    })
    printReportFiles(files)
    return result.summary.conformant ? 0 : 1
  }
  if (args.explore !== undefined) {
    const { exploreCommand } = await import('./explore.js')
    const interrupt = onStopSignals()
    try {
      const code = await exploreCommand(args, interrupt.signal)
      return interrupt.received ? 128 + os.constants.signals[interrupt.received] : code
    } finally {
      interrupt.dispose()
    }
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
      allowPartial: args.allowPartial,
      strict: args.strict,
      ...(args.calibrate ? { calibration: readCalibrationFile(args.calibrate).report } : {}),
    })
    printReportFiles(files)
    // A shell's convention for a process ended by a signal: 128 + its number (130 for Ctrl-C).
    if (interrupt.received) return 128 + os.constants.signals[interrupt.received]
    return result.summary.conformant ? 0 : 1
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
    console.error(
      pc.yellow(
        `\nStopping on ${name}: ending the clients, writing the reports of the cases that finished (again to quit at once).`,
      ),
    )
    controller.abort(name)
  }
  STOP_SIGNALS.forEach((name) => process.on(name, onSignal))
  return state
}
