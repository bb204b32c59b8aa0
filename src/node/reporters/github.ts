// GitHub Actions annotations: each failed rule as an `::error` workflow command, so a pull request
// shows it beside the run, titled by its rule id. conform adds it by itself inside GitHub Actions.
import type { Check, CaseResult, Reporter, RunResult } from '../../core/rules/types.js'

/** Escapes a workflow command's message (and, with `property`, a property value) as GitHub documents it. */
function escape(text: string, property = false): string {
  let out = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C')
  return out
}

function annotation(kase: CaseResult, check: Check): string {
  return `::error title=${escape(`${check.rule} in ${kase.id}`, true)}::${escape(check.message)}`
}

/**
 * The annotations of a run (pure): one `::error` line per failed rule per case, then a notice.
 * @example toGitHubAnnotations(result).join('\n')
 */
export function toGitHubAnnotations(result: RunResult): string[] {
  const lines = result.cases.flatMap((kase) => kase.checks.filter((check) => check.status === 'failed').map((check) => annotation(kase, check)))
  const { summary } = result
  const cases = `${summary.total} case${summary.total === 1 ? '' : 's'}`
  const notPassed = summary.failed + (summary.flaky ?? 0)
  const verdict = notPassed === 0 ? `${cases} passed` : `${notPassed} of ${cases} failed${summary.flaky ? ` (${summary.flaky} flaky)` : ''}; rules broken: ${summary.rulesBroken.join(', ')}`
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
