// The HAR reporter: every case's requests as one HAR 1.2 file, a page per case, for a browser's
// developer tools or any HTTP tool. Written by `relay-mock conform --har FILE`; tokens masked.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Har } from 'har-format'
import { toHar, type RelayHarPage } from '../../devtools/har.js'
import { plural } from '../../core/text.js'
import type { VisitInputs } from '../../core/rules/inputs.js'
import type { CaseResult, Reporter, RunResult } from '../../core/rules/types.js'

/** Where a case's requests went when no listener address is known (a run read back from JSON). */
const UNKNOWN_BASE = 'http://relay.test'

/**
 * A case's inputs as its HAR page carries them (`_relay`): what `conform --from` needs to check every rule.
 * An input the case did not have (a checked capture's, say) is left out rather than made up.
 */
export function toCaseInputs(kase: CaseResult): VisitInputs {
  const hadClient = !kase.checks.some((check) => check.missing?.includes('client'))
  return {
    case: kase.id,
    flow: kase.flow,
    scenario: kase.scenario,
    ...(kase.visit ? { visit: kase.visit } : {}),
    ...(kase.token ? { token: kase.token } : {}),
    ...(kase.expectedOutcome ? { outcome: kase.expectedOutcome } : {}),
    ...(kase.expectedOutcomes ? { outcomes: kase.expectedOutcomes } : {}),
    ...(kase.faults ? { faults: kase.faults } : {}),
    ...(kase.cell ? { cell: kase.cell } : {}),
    // The world's variants: `conform --from` judges the case under the same alternatives (the fidelity rules).
    ...(kase.variants ? { variants: { ...kase.variants } } : {}),
    ...(kase.of ? { of: kase.of } : {}),
    ...(hadClient
      ? {
          client: {
            exitCode: kase.exitCode,
            signal: kase.signal,
            timedOut: kase.timedOut,
            durationMs: kase.durationMs,
            ...(kase.report ? { report: kase.report } : {}),
            ...(kase.reportError !== undefined ? { reportError: kase.reportError } : {}),
          },
        }
      : {}),
  }
}

/**
 * A run as one HAR: each case a page (its id, title and inputs), each request an entry under its case's address.
 * @example toRunHar(result, new Map([['advanced/new-vehicle', 'http://127.0.0.1:41234']]))
 */
export function toRunHar(result: RunResult, baseUrls: ReadonlyMap<string, string> = new Map()): Har {
  const pages: RelayHarPage[] = []
  const entries: Har['log']['entries'] = []
  for (const kase of result.cases) {
    const har = toHar(kase.requests, { baseUrl: baseUrls.get(kase.id) ?? UNKNOWN_BASE })
    pages.push({
      id: kase.id,
      title: kase.title,
      startedDateTime: kase.requests[0]?.time ?? result.summary.startedAt,
      pageTimings: {},
      _relay: toCaseInputs(kase),
    })
    for (const entry of har.log.entries) entries.push({ ...entry, pageref: kase.id })
  }
  return {
    log: {
      version: '1.2',
      creator: { name: 'relay-mock', version: result.summary.version },
      pages,
      entries,
      comment: `relay-mock conform: ${result.summary.client} (${result.summary.passed} of ${plural(result.summary.total, 'case')} passed)`,
    },
  }
}

/**
 * Writes the run's requests to `file` as HAR when the run ends.
 * @example runConformance({ client, reporters: [createHarReporter({ file: 'conform.har' })] })
 */
export function createHarReporter({ file }: { file: string }): Reporter {
  const baseUrls = new Map<string, string>()
  return {
    onCaseStart(start) {
      baseUrls.set(start.id, start.baseUrl)
    },
    async onRunEnd(result) {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, `${JSON.stringify(toRunHar(result, baseUrls), null, 2)}\n`)
    },
  }
}
