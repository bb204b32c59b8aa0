// The JSON reporter: the run as one document, `{ summary: { total, passed, warning, partial, failed,
// echo, notReached, flaky, rulesBroken, rulesNotChecked, rulesWarned, allowPartial, strict, conformant, ... },
// matrix?, cases: [{ id, flow, scenario, status, durationMs, exitCode, checks: [{ rule, status,
// message, missing? }], requests, faults?, cell?, ... }] }`. A case's status is passed | warning |
// partial | failed | not-reached | flaky | echo; a check's passed | failed | skipped | not-checked |
// warning | echo. An echo (a variant case's failure where the flow case it repeats had failed: `sameAs`
// names that case and its rules, `echoed` keeps the rule's message) is in `summary.echo`, not `failed`.
// `matrix` (when the run had fault cells): each cell's step, kind, mode, status, case and rules.
// `variants` (when the run had variant cases, or a calibration): [{ assumption, question, held, alternatives: [{ id,
// status, caseIds }], settled?: { status, answered, alternative?, served } }]; `settled` marks what a calibration settled.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { toHeld } from '../../core/rules/held.js'
import { toMatrix } from '../../core/rules/matrix.js'
import type { CaseResult, Reporter, RunResult } from '../../core/rules/types.js'

/** The documented fields first (in the documented order), then the rest. */
function toJsonCase(kase: CaseResult) {
  const { id, flow, scenario, status, durationMs, exitCode, checks, requests, ...rest } = kase
  return {
    id,
    flow,
    scenario,
    status,
    durationMs,
    exitCode,
    checks: checks.map(({ rule, status: checkStatus, message, ...more }) => ({
      rule,
      status: checkStatus,
      message,
      ...more,
    })),
    requests,
    ...rest,
  }
}

/**
 * The run as a JSON document (pure).
 * @example JSON.stringify(toJsonReport(result), null, 2)
 */
export function toJsonReport(result: RunResult) {
  const matrix = toMatrix(result.cases)
  const variants = toHeld(result.cases, result.summary.calibration)
  // The matrix (when the run had fault cells): each cell's step, kind, mode, status, case and rules. The
  // variants (when the run had variant cases): each assumption, whether the client held, each alternative's status and cases.
  return {
    summary: result.summary,
    ...(matrix ? { matrix } : {}),
    ...(variants ? { variants } : {}),
    cases: result.cases.map(toJsonCase),
  }
}

/**
 * Writes the run to `file` as JSON when it ends.
 * @example runConformance({ client, reporters: [createJsonReporter({ file: 'conform.json' })] })
 */
export function createJsonReporter({ file }: { file: string }): Reporter {
  return {
    async onRunEnd(result) {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, `${JSON.stringify(toJsonReport(result), null, 2)}\n`)
    },
  }
}
