// The demo's narration: each case, its visit, each call and answer as it happens, and the verdict.
import pc from 'picocolors'
import type { JournalEntry } from '../../core/service/journal.js'
import type { CaseResult, CaseStart, Reporter } from '../../core/rules/types.js'
import { formatMs } from './console.js'
import { plural } from '../../core/text.js'

function short(value: unknown, limit = 90): string {
  if (value === undefined) return ''
  const text = JSON.stringify(value)
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}

/** Narrates a run: the case, its visit, each call and answer, the verdict. */
export function createDemoReporter(stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): Reporter {
  const c = pc.createColors(Boolean(stream.isTTY) && !('NO_COLOR' in process.env))
  const write = (text: string) => stream.write(`${text}\n`)
  return {
    onCaseStart(start: CaseStart) {
      const v = start.visit
      write('')
      write(`${c.bold(start.id)} ${c.dim(`— ${start.title}`)}`)
      write(
        c.dim(
          `  visit: plate ${v.plate}, owner ${v.ownerKennitala}, registered ${v.registrationDate}, ${v.visitStart} → ${v.visitEnd}, ${v.amount} ${v.currency}`,
        ),
      )
    },
    onRequest(entry: JournalEntry) {
      const status = entry.response.status
      const shown = status < 300 ? c.green(String(status)) : c.yellow(String(status))
      const sent = entry.request.body === undefined ? '' : `  ${c.dim(short(entry.request.body, 70))}`
      write(`  → ${entry.request.method} ${entry.request.path}${entry.request.search}${sent}`)
      write(`    ← ${shown} ${c.dim(short(entry.response.body))}`)
    },
    onCaseEnd(result: CaseResult) {
      const failed = result.checks.filter((check) => check.status === 'failed')
      const outcome = result.report
        ? `${result.report.outcome}${result.report.paymentId ? ` (payment ${result.report.paymentId})` : ''}`
        : 'no report'
      if (failed.length === 0) {
        const passed = result.checks.filter((check) => check.status === 'passed').length
        const skipped = result.checks.filter((check) => check.status === 'skipped').length
        const other = result.checks.length - passed - skipped
        write(
          `  ${c.green('✓')} ${outcome}; ${plural(passed, 'rule')} passed, ${skipped} did not apply${other ? `, ${other} not checked or warned` : ''} ${c.dim(`(${formatMs(result.durationMs)})`)}`,
        )
      } else {
        write(`  ${c.red('✗')} ${outcome}; broke ${failed.map((check) => check.rule).join(', ')}`)
      }
    },
  }
}
