// `relay-mock demo`: both flows end to end with the reference client against an in-process mock,
// printing each call and each verdict as it goes. Needs nothing but the package.
import pc from 'picocolors'
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { RelayMockError } from '../../core/mock.js'
import type { JournalEntry } from '../../core/journal.js'
import type { CaseResult, CaseStart, Flow, Reporter } from '../../core/rules/types.js'
import { createConsoleReporter, formatMs } from '../../node/reporters/console.js'
import { referenceClient } from '../../node/reference-client.js'
import { runConformance } from '../../node/runner.js'

interface DemoArgs {
  flow?: Flow
}

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
      write(c.dim(`  visit: plate ${v.plate}, owner ${v.ownerKennitala}, registered ${v.registrationDate}, ${v.visitStart} → ${v.visitEnd}, ${v.amount} ${v.currency}`))
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
      const outcome = result.report ? `${result.report.outcome}${result.report.paymentId ? ` (payment ${result.report.paymentId})` : ''}` : 'no report'
      if (failed.length === 0) {
        const passed = result.checks.filter((check) => check.status === 'passed').length
        write(`  ${c.green('✓')} ${outcome}; ${passed} rules passed, ${result.checks.length - passed} did not apply ${c.dim(`(${formatMs(result.durationMs)})`)}`)
      } else {
        write(`  ${c.red('✗')} ${outcome}; broke ${failed.map((check) => check.rule).join(', ')}`)
      }
    },
  }
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: 'demo',
  describe: 'Run both flows end to end with the reference client against an in-process mock',
  builder: (y: Argv) => y.option('flow', { alias: 'f', type: 'string', choices: ['advanced', 'simple'], describe: 'Show only this flow' }) as unknown as Argv<DemoArgs>,
  async handler(args: ArgumentsCamelCase<DemoArgs>) {
    // `relay-mock demo | head`: a reader that stops early ends the demo quietly.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      process.exit()
    })
    const summary = createConsoleReporter()
    try {
      const result = await runConformance({
        client: referenceClient,
        name: 'the reference client',
        flows: args.flow ? [args.flow] : undefined,
        jobs: 1,
        reporters: [createDemoReporter(), { onRunEnd: (run) => summary.onRunEnd?.(run) }],
      })
      process.exitCode = result.summary.failed > 0 ? 1 : 0
    } catch (error) {
      if (error instanceof RelayMockError) {
        console.error(pc.red(error.message))
        process.exitCode = 2
        return
      }
      throw error
    }
  },
}
