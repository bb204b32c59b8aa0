// The terminal reporter: a line per case as it ends (✓ ! ? ✗ ~, id, time), then each failure's rule and
// explanation, the rules not checked and why, the warnings, then a summary. On a terminal, also a live
// progress line under them (cases done, the one running, elapsed), overwritten in place and cleared at
// the end; elsewhere (CI, a pipe) only the plain lines. Colour only when the stream is a terminal.
import pc from 'picocolors'
import { plural } from '../../core/text.js'
import { CASE_BADGES } from '../../devtools/marks.js'
import { describeSettled, toHeld, type HeldAssumption } from '../../core/rules/held.js'
import { cellAt, toMatrix, type Matrix } from '../../core/rules/matrix.js'
import { lateWords, timeLines } from './time.js'
import type { CaseResult, CaseStart, CaseStatus, Check, Reporter, RunResult, RunStart } from '../../core/rules/types.js'

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
 * The checks of `status` across cases, grouped by what they say: the rules that say it and the cases they
 * say it in. A not-checked message is grouped without what each case could check without the input.
 */
function grouped(
  cases: ReadonlyArray<CaseResult>,
  status: Check['status'],
): Array<{ rules: string[]; cases: string[]; reason: string }> {
  const byReason = new Map<string, Map<string, string[]>>()
  for (const kase of cases) {
    for (const check of kase.checks.filter((c) => c.status === status)) {
      const reason = status === 'not-checked' ? check.message.replace(/ Without it: .*$/s, '') : check.message
      const rules = byReason.get(reason) ?? new Map<string, string[]>()
      rules.set(check.rule, [...(rules.get(check.rule) ?? []), kase.id])
      byReason.set(reason, rules)
    }
  }
  const groups = new Map<string, { rules: string[]; cases: string[]; reason: string }>()
  for (const [reason, rules] of byReason) {
    for (const [rule, ids] of rules) {
      const key = `${reason}\u0000${ids.join('\u0000')}`
      const group = groups.get(key) ?? { rules: [], cases: ids, reason }
      group.rules.push(rule)
      groups.set(key, group)
    }
  }
  return [...groups.values()]
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
  const progress = createProgress(
    stream,
    c,
    options.progress ?? Boolean(stream.isTTY),
    options.now ?? (() => performance.now()),
  )
  const write = (text: string) => {
    if (closed) return
    progress.clear()
    stream.write(`${text}\n`)
  }
  let width = 0

  return {
    onRunStart(run: RunStart) {
      width = Math.max(...run.cases.map((kase) => kase.id.length))
      write(
        `${c.bold('relay-mock conform')} ${c.dim('·')} ${run.client} ${c.dim(`· ${plural(run.cases.length, 'case')} (${run.flows.join(', ')})`)}`,
      )
      write('')
      progress.start(run.cases.length)
    },
    onCaseStart(start: CaseStart) {
      progress.started(start.id)
    },
    onCaseEnd(result: CaseResult) {
      const count = (status: Check['status']) => result.checks.filter((check) => check.status === status).length
      const failed = count('failed')
      const unchecked = count('not-checked')
      const warned = count('warning')
      const detail = [
        failed > 0 ? c.red(`${plural(failed, 'rule')} failed`) : '',
        unchecked > 0 ? c.magenta(`${plural(unchecked, 'rule')} not checked`) : '',
        warned > 0 ? c.yellow(plural(warned, 'warning')) : '',
        result.status === 'flaky' && result.runs
          ? c.yellow(`flaky: failed ${result.runs.failed} of ${result.runs.total} runs`)
          : '',
        result.status === 'not-reached' ? c.red('not reached: the client never made the request this case breaks') : '',
        result.timedOut ? c.red('timed out, killed') : '',
        result.sameAs ? c.cyan(sameAsWords(result.sameAs)) : '',
        result.late ? c.yellow(lateWords(result.late, result.id)) : '',
        result.addedFor
          ? c.dim(
              `run to judge ${plural(result.addedFor.length, 'variant case')} that ${result.addedFor.length === 1 ? 'repeats' : 'repeat'} it`,
            )
          : '',
      ].filter(Boolean)
      write(
        `  ${mark(c, result.status)} ${result.id.padEnd(width)}  ${c.dim(formatMs(result.durationMs))}${detail.length ? `  ${detail.join('  ')}` : ''}`,
      )
      progress.ended(result.id)
    },
    onRunEnd(result: RunResult) {
      progress.stop()
      for (const line of runEndLines(result, c)) write(line)
    },
  }
}

/** What a run's end writes: each failure's rules and explanations, the cases not reached, the matrix, the rules not checked, the warnings, the summary. */
function runEndLines(result: RunResult, c: Colors): string[] {
  const lines: string[] = []
  // The cases with a broken rule: failed ones, and flaky ones (their first failing run).
  for (const kase of result.cases.filter((k) => k.status === 'failed' || k.status === 'flaky')) {
    const runs = kase.runs
      ? `; failed ${kase.runs.failed} of ${kase.runs.total} runs, this is the first that failed`
      : ''
    lines.push(
      '',
      `${mark(c, kase.status)} ${c.bold(kase.id)} ${c.dim(`— ${kase.title} (scenario ${kase.scenario}${runs})`)}`,
    )
    for (const check of kase.checks.filter((ch) => ch.status === 'failed'))
      lines.push(`    ${c.red(check.rule)}`, indent(check.message, '      '))
    if (kase.sameAs) lines.push(`    ${c.cyan(`and ${sameAsWords(kase.sameAs)}`)}`)
    if (kase.late) lines.push(`    ${c.yellow(lateWords(kase.late, kase.id))}`)
  }
  const echoes = result.cases.filter((k) => k.status === 'echo')
  if (echoes.length > 0) {
    lines.push(
      '',
      `${mark(c, 'echo')} ${c.bold('The same defect again')} ${c.dim('(variant cases that failed only where the flow case they repeat had failed: counted once, there)')}`,
    )
    for (const base of [...new Set(echoes.map((k) => k.sameAs!.case))]) {
      lines.push(
        `    ${c.cyan(base)} ${c.dim(
          `in ${echoes
            .filter((k) => k.sameAs!.case === base)
            .map((k) => k.id)
            .join(', ')}`,
        )}`,
      )
    }
  }
  for (const kase of result.cases.filter((k) => k.status === 'not-reached')) {
    lines.push(
      '',
      `${mark(c, 'not-reached')} ${c.bold(kase.id)} ${c.dim(`— ${kase.title} (scenario ${kase.scenario})`)}`,
    )
    lines.push(
      `      Not reached: the client never made the request this case's fault breaks, so the case judged nothing about it.`,
    )
  }
  const matrix = toMatrix(result.cases)
  if (matrix) lines.push('', ...matrixLines(matrix, c))
  const held = toHeld(result.cases, result.summary.calibration)
  if (held) lines.push('', ...heldLines(held, c))
  const { summary } = result
  // A captured conversation (conform --from) ran no client: its cases are visits, with no client time.
  const captured = result.cases.length > 0 && result.cases.every((kase) => kase.scenario === 'captured')
  const where = (ids: string[]) =>
    ids.length === result.cases.length && ids.length > 1
      ? `all ${ids.length} ${captured ? 'visits' : 'cases'}`
      : ids.join(', ')
  const section = (status: 'not-checked' | 'warning', heading: string, paint: (text: string) => string) => {
    const groups = grouped(result.cases, status)
    if (groups.length === 0) return
    lines.push('', `${mark(c, status === 'not-checked' ? 'partial' : 'warning')} ${heading}`)
    for (const { rules, cases, reason } of groups)
      lines.push(
        `    ${rules.map((rule) => paint(rule)).join(', ')} ${c.dim(`in ${where(cases)}`)}`,
        indent(reason, '      '),
      )
  }
  section(
    'not-checked',
    `${c.bold('Not checked')} ${c.dim(`(an input was missing; ${summary.allowPartial ? '--allow-partial accepts the partial cases' : 'a partial case fails the run unless --allow-partial'})`)}`,
    c.magenta,
  )
  section(
    'warning',
    `${c.bold('Warnings')} ${c.dim(summary.strict ? '(--strict: they fail the run)' : '(safe, but not the best the interface allows; --strict fails on them)')}`,
    c.yellow,
  )
  lines.push('', ...summaryLines(summary, captured, c))
  return lines
}

/** The last lines: the verdict with the counts, what did not run, the rules broken, the times. */
function summaryLines(summary: RunResult['summary'], captured: boolean, c: Colors): string[] {
  const counts = [
    plural(summary.total, 'case'),
    c.green(`${summary.passed} passed`),
    summary.warning > 0 ? c.yellow(`${summary.warning} warned`) : '',
    summary.partial > 0 ? c.magenta(`${summary.partial} partial`) : '',
    summary.failed > 0 ? c.red(`${summary.failed} failed`) : `${summary.failed} failed`,
    summary.echo > 0 ? c.cyan(`${summary.echo} the same defect again`) : '',
    summary.flaky > 0 ? c.yellow(`${summary.flaky} flaky`) : '',
    summary.notReached > 0 ? c.red(`${summary.notReached} not reached`) : '',
  ].filter(Boolean)
  const stoppedEarly = summary.interrupted || summary.bailed
  const verdict = stoppedEarly
    ? c.yellow(summary.interrupted ? 'Interrupted' : 'Stopped at the first failure (--bail)')
    : summary.conformant
      ? c.green('Conformant')
      : c.red('Not conformant')
  const lines = [`${c.bold(verdict)}: ${counts.join(', ')}`]
  if (stoppedEarly)
    lines.push(
      c.yellow(
        `${plural(summary.notRun ?? 0, 'case')} did not run or finish; the reports hold the ${plural(summary.total, 'case')} that finished.`,
      ),
    )
  if (summary.rulesBroken.length > 0)
    lines.push(`Rules broken: ${summary.rulesBroken.map((rule) => c.red(rule)).join(', ')}`)
  if (summary.calibration) lines.push(calibrationLine(summary.calibration))
  const times = captured
    ? `Checked in ${formatMs(summary.wallMs)}`
    : `Client time ${formatMs(summary.clientMs)}, wall time ${formatMs(summary.wallMs)}`
  lines.push(c.dim(`${times} · relay-mock ${summary.version}`))
  if (summary.time && !captured) lines.push(...timeLines(summary.time, summary.wallMs).map((line) => c.dim(line)))
  return lines
}

/** What a calibrated run answered as: against what, and which assumptions. */
export function calibrationLine(calibration: NonNullable<RunResult['summary']['calibration']>): string {
  const { upstream, date, calibrated, notCalibrated, variantCasesLeftOut } = calibration
  return `Calibrated against ${upstream}${date ? `, as seen on ${date.slice(0, 10)}` : ''}: ${calibrated.length ? `answered as observed for ${calibrated.join(', ')} (${plural(variantCasesLeftOut, 'variant case')} of those no longer run)` : 'nothing was contradicted there'}${notCalibrated.length ? `; ${notCalibrated.join(', ')} served as relay-mock chose` : ''}.`
}

type Colors = ReturnType<typeof pc.createColors>

/** `same defect as in advanced/new-vehicle (advanced.payment-body)`: what a variant case echoes. */
const sameAsWords = (sameAs: NonNullable<CaseResult['sameAs']>) =>
  `same ${sameAs.warned ? 'warning' : 'defect'} as in ${sameAs.case} (${sameAs.rules.join(', ')})`

/**
 * The live progress line: `3/15 · 4.2 s · advanced/new-vehicle +2`. It is redrawn in place
 * (carriage return, erase line) when something changes and each second, cleared before any other
 * line is written, and kept to the terminal's width so that it never wraps (a wrapped line
 * cannot be erased in place). Off, every method does nothing.
 */
function createProgress(
  stream: NodeJS.WritableStream & { columns?: number },
  c: Colors,
  on: boolean,
  now: () => number,
) {
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

/** A case's mark in its status's colour, in the case lines, the headings and the matrix alike. */
function mark(c: Colors, status: CaseStatus): string {
  const colour = {
    passed: c.green,
    warning: c.yellow,
    partial: c.magenta,
    failed: c.red,
    'not-reached': c.red,
    flaky: c.yellow,
    echo: c.cyan,
  }[status]
  return colour(CASE_BADGES[status].icon)
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
 * The variant cases beside the matrix: a row per assumption, whether the client held under each alternative.
 * @example heldLines(toHeld(result.cases)!, pc.createColors(false)).join('\n')
 */
export function heldLines(held: ReadonlyArray<HeldAssumption>, c: Colors): string[] {
  const width = Math.max(...held.map((entry) => entry.assumption.length))
  return [
    `${c.bold('Where the interface is silent')} ${c.dim("(the variants: the client under a real service's other answers; relay-mock assumptions lists them)")}`,
    ...held.flatMap((entry) => {
      const alternatives = entry.alternatives
        .map((alternative) => `${alternative.id} ${mark(c, alternative.status)}`)
        .join('  ')
      // An assumption the calibration settled and the run no longer varied: no case, so no mark of the client's.
      const head = entry.alternatives.length === 0 ? c.dim('=') : mark(c, entry.held ? 'passed' : 'failed')
      const row = `  ${head} ${entry.assumption.padEnd(width)}  ${alternatives}`.trimEnd()
      return entry.settled ? [row, c.dim(`      ${describeSettled(entry.settled)}`)] : [row]
    }),
  ]
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
    `${c.bold('Resilience matrix')} ${c.dim(`(each cell: ${matrix.modes.join(' / ')}; ✓ pass, ! warning, ✗ fail, – not reached, · not run)`)}`,
    `  ${'step'.padEnd(stepWidth)}  ${heads.map((head, i) => head.padEnd(widths[i])).join('  ')}`,
  ]
  for (const step of matrix.steps) {
    const cells = matrix.kinds.map((kind, i) => {
      const marks = matrix.modes.map((mode) => {
        const cell = cellAt(matrix, step, kind, mode)
        return cell ? mark(c, cell.status) : c.dim('·')
      })
      const visible = matrix.modes.length * 2 - 1
      return marks.join(' ') + ' '.repeat(widths[i] - visible)
    })
    lines.push(`  ${step.padEnd(stepWidth)}  ${cells.join('  ')}`)
  }
  return lines
}
