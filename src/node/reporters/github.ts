// GitHub Actions annotations: each failed rule as an `::error` workflow command, each rule not checked
// and each warning as a `::warning`, so a pull request shows it beside the run, titled by its rule id;
// then a notice with the verdict. conform adds it by itself inside GitHub Actions.
import { capitalize, plural } from '../../core/text.js'
import type { Check, CaseResult, Reporter, RunResult } from '../../core/rules/types.js'
import { lateWords } from './time.js'

/** Escapes a workflow command's message (and, with `property`, a property value) as GitHub documents it. */
function escape(text: string, property = false): string {
  let out = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C')
  return out
}

/** The level of a check's annotation, or none for a check that passed or did not apply. */
function levelOf(check: Check): 'error' | 'warning' | undefined {
  if (check.status === 'failed') return 'error'
  if (check.status === 'not-checked' || check.status === 'warning') return 'warning'
  return undefined
}

function annotation(kase: CaseResult, check: Check, level: 'error' | 'warning'): string {
  const what = check.status === 'not-checked' ? ' (not checked)' : check.status === 'warning' ? ' (warning)' : ''
  // A case that ran again, relay-mock having run late, says so: its verdict may be the machine's.
  const late = kase.late ? `\n(${capitalize(lateWords(kase.late, kase.id))}.)` : ''
  return `::${level} title=${escape(`${check.rule} in ${kase.id}${what}`, true)}::${escape(`${check.message}${late}`)}`
}

/**
 * The annotations of a run (pure): a line per failed, unchecked or warning rule per case, then a notice.
 * @example toGitHubAnnotations(result).join('\n')
 */
export function toGitHubAnnotations(result: RunResult): string[] {
  const { summary } = result
  const lines = result.cases.flatMap((kase) =>
    kase.checks.flatMap((check) => {
      const level = levelOf(check)
      return level ? [annotation(kase, check, level)] : []
    }),
  )
  for (const kase of result.cases.filter((k) => k.status === 'not-reached'))
    lines.push(`::error title=${escape(`${kase.id} not reached`, true)}::${escape(kase.title)}`)
  const counts = [
    `${summary.passed} passed`,
    summary.warning ? `${summary.warning} warned` : '',
    summary.partial ? `${summary.partial} partial` : '',
    `${summary.failed} failed`,
    summary.echo ? `${summary.echo} the same defect again` : '',
    summary.flaky ? `${summary.flaky} flaky` : '',
    summary.notReached ? `${summary.notReached} not reached` : '',
  ].filter(Boolean)
  const verdict = `${summary.conformant ? 'Conformant' : 'Not conformant'}: ${plural(summary.total, 'case')}, ${counts.join(', ')}${summary.rulesBroken.length ? `; rules broken: ${summary.rulesBroken.join(', ')}` : ''}${summary.rulesNotChecked.length ? `; not checked: ${summary.rulesNotChecked.join(', ')}` : ''}`
  lines.push(`::notice title=relay-mock conform::${escape(verdict)}`)
  return lines
}

/**
 * Writes the annotations to `stream` (standard output, where the runner reads them) when the run ends.
 * @example runConformance({ client, reporters: [createGitHubReporter()] })
 */
export function createGitHubReporter({ stream = process.stdout }: { stream?: NodeJS.WritableStream } = {}): Reporter {
  return {
    onRunEnd(result) {
      stream.write(`${toGitHubAnnotations(result).join('\n')}\n`)
    },
  }
}
