// The terminal reporter: a line per case as it ends (✓/✗/~, id, time), then each failure's rule and
// explanation, then a summary. On a terminal, also a live progress line under them (cases done,
// the one running, elapsed), overwritten in place and cleared at the end; elsewhere (CI, a pipe)
// only the plain lines. Colour only when the stream is a terminal.
import pc from 'picocolors'
import { cellAt, toMatrix, type Matrix } from '../../core/rules/matrix.js'
import type { CaseResult, CaseStart, CaseStatus, Reporter, RunResult, RunStart } from '../../core/rules/types.js'

export interface ConsoleReporterOptions {
  /** Where to write. Default process.stdout. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean }
  /** Default: on when the stream is a terminal and NO_COLOR is not set. */
  color?: boolean
  /** A live progress line, rewritten in place. Default: on when the stream is a terminal. */
  progress?: boolean
  /** The clock of the elapsed time (ms), for tests. Default performance.now. */
  now?: () => number
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
  const progress = createProgress(stream, c, options.progress ?? Boolean(stream.isTTY), options.now ?? (() => performance.now()))
  const write = (text: string) => {
    if (closed) return
    progress.clear()
    stream.write(`${text}\n`)
  }
  let width = 0

  return {
    onRunStart(run: RunStart) {
      width = Math.max(...run.cases.map((kase) => kase.id.length))
      write(`${c.bold('relay-mock conform')} ${c.dim('·')} ${run.client} ${c.dim(`· ${plural(run.cases.length, 'case')} (${run.flows.join(', ')})`)}`)
      write('')
      progress.start(run.cases.length)
    },
    onCaseStart(start: CaseStart) {
      progress.started(start.id)
    },
    onCaseEnd(result: CaseResult) {
      const failed = result.checks.filter((check) => check.status === 'failed')
      const warned = result.checks.filter((check) => check.status === 'warning')
      const mark = paint(c, result.status, MARKS[result.status])
      const detail =
        failed.length > 0
          ? c.red(`  ${failed.length} rule${failed.length === 1 ? '' : 's'} failed`)
          : result.status === 'not-reached'
            ? c.yellow('  not reached: the client never made the request this case breaks')
            : warned.length > 0
              ? c.yellow(`  warning: ${warned.map((check) => check.rule).join(', ')}`)
              : ''
      const flaky = result.status === 'flaky' && result.runs ? c.yellow(`  flaky: failed ${result.runs.failed} of ${result.runs.total} runs`) : ''
      const timedOut = result.timedOut ? c.red('  timed out, killed') : ''
      write(`  ${mark} ${result.id.padEnd(width)}  ${c.dim(formatMs(result.durationMs))}${detail}${flaky}${timedOut}`)
      progress.ended(result.id)
    },
    onRunEnd(result: RunResult) {
      progress.stop()
      const failedCases = result.cases.filter((kase) => kase.status !== 'passed')
      for (const kase of failedCases) {
        write('')
        const mark = kase.status === 'flaky' ? c.yellow('~') : c.red('✗')
        const runs = kase.runs ? `; failed ${kase.runs.failed} of ${kase.runs.total} runs, this is the first that failed` : ''
        write(`${mark} ${c.bold(kase.id)} ${c.dim(`— ${kase.title} (scenario ${kase.scenario}${runs})`)}`)
        for (const check of kase.checks.filter((ch) => ch.status === 'failed')) {
          write(`    ${c.red(check.rule)}`)
          write(indent(check.message, '      '))
        }
      }
      for (const kase of result.cases.filter((k) => k.status === 'not-reached')) {
        write('')
        write(`${c.yellow('○')} ${c.bold(kase.id)} ${c.dim(`— ${kase.title} (scenario ${kase.scenario})`)}`)
        write(`      Not reached: the client never made the request this case's fault breaks, so the case judged nothing about it.`)
      }
      const warnedCases = result.cases.filter((kase) => kase.status === 'warning')
      if (warnedCases.length > 0) {
        write('')
        write(c.yellow(`Warnings (safe, but not the best a client can do; they fail the run only with --strict):`))
        for (const kase of warnedCases) {
          for (const check of kase.checks.filter((ch) => ch.status === 'warning')) write(`  ${c.yellow('!')} ${kase.id} ${c.yellow(check.rule)}: ${check.message}`)
        }
      }
      const matrix = toMatrix(result.cases)
      if (matrix) {
        write('')
        for (const line of matrixLines(matrix, c)) write(line)
      }
      const { summary } = result
      write('')
      const flaky = summary.flaky ?? 0
      const warnings = summary.warnings ?? 0
      const notReached = summary.notReached ?? 0
      const counts = [
        plural(summary.total, 'case'),
        c.green(`${summary.passed} passed`),
        ...(warnings > 0 ? [c.yellow(`${warnings} with warnings`)] : []),
        summary.failed > 0 ? c.red(`${summary.failed} failed`) : `${summary.failed} failed`,
        ...(flaky > 0 ? [c.yellow(`${flaky} flaky`)] : []),
        ...(notReached > 0 ? [c.yellow(`${notReached} not reached`)] : []),
      ]
      const stoppedEarly = summary.interrupted || summary.bailed
      const verdict = stoppedEarly ? c.yellow(summary.interrupted ? 'Interrupted' : 'Stopped at the first failure (--bail)') : summary.failed + flaky + notReached === 0 ? c.green('Conformant') : c.red('Not conformant')
      write(`${c.bold(verdict)}: ${counts.join(', ')}`)
      if (stoppedEarly) {
        const notRun = summary.notRun ?? 0
        write(c.yellow(`${plural(notRun, 'case')} did not run or finish; the reports hold the ${plural(summary.total, 'case')} that finished.`))
      }
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

type Colors = ReturnType<typeof pc.createColors>

/**
 * The live progress line: `3/15 · 4.2 s · advanced/new-vehicle +2`. It is redrawn in place
 * (carriage return, erase line) when something changes and each second, cleared before any other
 * line is written, and kept to the terminal's width so that it never wraps (a wrapped line
 * cannot be erased in place). Off, every method does nothing.
 */
function createProgress(stream: NodeJS.WritableStream & { columns?: number }, c: Colors, on: boolean, now: () => number) {
  let total = 0
  let done = 0
  let started = 0
  let shown = false
  let timer: NodeJS.Timeout | undefined
  // The same case may run several times at once (--repeat): count its runs.
  const running = new Map<string, number>()
  const draw = () => {
    if (!on || timer === undefined) return
    const [first, ...others] = running.keys()
    const what = first === undefined ? '' : ` · ${first}${others.length > 0 ? ` +${others.length}` : ''}`
    const line = `  ${done}/${total} · ${formatMs(now() - started)}${what}`
    // A terminal that does not say its width (a pty without a size) reports 0 columns.
    const room = Math.max(10, (stream.columns || 80) - 1)
    stream.write(`\r\x1b[2K${c.dim(line.length > room ? `${line.slice(0, room - 1)}…` : line)}`)
    shown = true
  }
  return {
    start(cases: number) {
      if (!on) return
      total = cases
      started = now()
      timer = setInterval(draw, 1000)
      timer.unref()
      draw()
    },
    started(id: string) {
      running.set(id, (running.get(id) ?? 0) + 1)
      draw()
    },
    ended(id: string) {
      running.delete(id)
      done++
      draw()
    },
    clear() {
      if (!shown) return
      stream.write('\r\x1b[2K')
      shown = false
    },
    stop() {
      clearInterval(timer)
      timer = undefined
      this.clear()
    },
  }
}

const MARKS: Record<CaseStatus, string> = { passed: '✓', warning: '!', partial: '◐', failed: '✗', 'not-reached': '○', flaky: '~' }

function paint(c: Colors, status: CaseStatus, text: string): string {
  if (status === 'passed') return c.green(text)
  if (status === 'failed') return c.red(text)
  if (status === 'warning' || status === 'not-reached' || status === 'flaky') return c.yellow(text)
  return c.dim(text)
}

/** Short column heads, so that the matrix fits 100 columns. */
const SHORT: Record<string, string> = {
  unavailable: '503',
  'rate-limited': '429',
  'server-error': '500',
  reset: 'reset',
  hang: 'hang',
  truncated: 'trunc',
  garbage: 'html',
  slow: 'slow',
  'token-revoked': '401',
}

/**
 * The compact matrix: a row per step, a column per fault kind, each cell two marks (once, always).
 * @example matrixLines(toMatrix(result.cases)!, pc.createColors(false)).join('\n')
 */
export function matrixLines(matrix: Matrix, c: Colors): string[] {
  const stepWidth = Math.max(...matrix.steps.map((step) => step.length), 'step'.length)
  const heads = matrix.kinds.map((kind) => SHORT[kind] ?? kind)
  const widths = heads.map((head) => Math.max(head.length, matrix.modes.length * 2 - 1))
  const lines = [
    `${c.bold('Resilience matrix')} ${c.dim(`(each cell: ${matrix.modes.join(' / ')}; ✓ pass, ! warning, ✗ fail, ○ not reached, · not run)`)}`,
    `  ${'step'.padEnd(stepWidth)}  ${heads.map((head, i) => head.padEnd(widths[i])).join('  ')}`,
  ]
  for (const step of matrix.steps) {
    const cells = matrix.kinds.map((kind, i) => {
      const marks = matrix.modes.map((mode) => {
        const cell = cellAt(matrix, step, kind, mode)
        return cell ? paint(c, cell.status, MARKS[cell.status]) : c.dim('·')
      })
      const visible = matrix.modes.length * 2 - 1
      return marks.join(' ') + ' '.repeat(widths[i] - visible)
    })
    lines.push(`  ${step.padEnd(stepWidth)}  ${cells.join('  ')}`)
  }
  return lines
}
