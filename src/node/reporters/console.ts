// The terminal reporter: a line per case as it ends (✓/✗, id, time), then each failure's rule and
// explanation, then a summary. Colour only when the stream is a terminal.
import pc from 'picocolors'
import type { CaseResult, Reporter, RunResult, RunStart } from '../../core/rules/types.js'

export interface ConsoleReporterOptions {
  /** Where to write. Default process.stdout. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean }
  /** Default: on when the stream is a terminal and NO_COLOR is not set. */
  color?: boolean
}

/** `1.2 s` or `340 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n')
}

/**
 * Writes a conformance run to a terminal.
 * @example runConformance({ client, reporters: [createConsoleReporter()] })
 */
export function createConsoleReporter(options: ConsoleReporterOptions = {}): Reporter {
  const stream = options.stream ?? process.stdout
  const color = options.color ?? (Boolean(stream.isTTY) && !('NO_COLOR' in process.env))
  const c = pc.createColors(color)
  // A reader that stops early (`relay-mock conform ... | head`) must not crash the run: the run
  // ends as usual, with its exit status and its file reports; the terminal just stops listening.
  let closed = false
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    closed = true
  })
  const write = (text: string) => {
    if (!closed) stream.write(`${text}\n`)
  }
  let width = 0

  return {
    onRunStart(run: RunStart) {
      width = Math.max(...run.cases.map((kase) => kase.id.length))
      write(`${c.bold('relay-mock conform')} ${c.dim('·')} ${run.client} ${c.dim(`· ${plural(run.cases.length, 'case')} (${run.flows.join(', ')})`)}`)
      write('')
    },
    onCaseEnd(result: CaseResult) {
      const failed = result.checks.filter((check) => check.status === 'failed')
      const mark = result.status === 'passed' ? c.green('✓') : c.red('✗')
      const detail = failed.length > 0 ? c.red(`  ${failed.length} rule${failed.length === 1 ? '' : 's'} failed`) : ''
      const timedOut = result.timedOut ? c.red('  timed out, killed') : ''
      write(`  ${mark} ${result.id.padEnd(width)}  ${c.dim(formatMs(result.durationMs))}${detail}${timedOut}`)
    },
    onRunEnd(result: RunResult) {
      const failedCases = result.cases.filter((kase) => kase.status === 'failed')
      for (const kase of failedCases) {
        write('')
        write(`${c.red('✗')} ${c.bold(kase.id)} ${c.dim(`— ${kase.title} (scenario ${kase.scenario})`)}`)
        for (const check of kase.checks.filter((ch) => ch.status === 'failed')) {
          write(`    ${c.red(check.rule)}`)
          write(indent(check.message, '      '))
        }
      }
      const { summary } = result
      write('')
      const counts = [plural(summary.total, 'case'), c.green(`${summary.passed} passed`), summary.failed > 0 ? c.red(`${summary.failed} failed`) : `${summary.failed} failed`]
      write(`${c.bold(summary.failed === 0 ? c.green('Conformant') : c.red('Not conformant'))}: ${counts.join(', ')}`)
      if (summary.rulesBroken.length > 0) write(`Rules broken: ${summary.rulesBroken.map((rule) => c.red(rule)).join(', ')}`)
      // A captured conversation (conform --from) ran no client: there is no client time to show.
      const captured = result.cases.length > 0 && result.cases.every((kase) => !kase.visit)
      const times = captured ? `Checked in ${formatMs(summary.wallMs)}` : `Client time ${formatMs(summary.clientMs)}, wall time ${formatMs(summary.wallMs)}`
      write(c.dim(`${times} · relay-mock ${summary.version}`))
    },
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
