// `relay-mock conform`'s work, loaded only when the command runs: run the client through the cases
// (or check a captured HAR) with the chosen reporters; resolves with the exit code.
import { join } from 'node:path'
import pc from 'picocolors'
import { skippedForCapture } from '../../devtools/live/capture.js'
import type { Reporter } from '../../core/rules/types.js'
import { checkHarFile } from '../../node/from-har.js'
import { reporters } from '../../node/reporters/index.js'
import { runConformance } from '../../node/runner.js'
import { loadCases } from '../../node/user-files.js'
import { cases } from '../../../suites/index.js'
import { fileReports, type ConformArgs } from '../conform-options.js'

/** Runs conform; 0 when every case passed, 1 when a rule failed, 2 on a usage error. */
export async function conform(args: ConformArgs): Promise<number> {
  if (!args.client && !args.from) {
    console.error(pc.red('Failed to start: no client. Please pass --client "<command>" (or --from FILE.har to check a captured conversation).'))
    return 2
  }
  const chosen: Reporter[] = [reporters.console({})]
  for (const report of fileReports) {
    const file = args[report.flag] ?? (args.reportDir ? join(args.reportDir, report.file) : undefined)
    if (typeof file === 'string') chosen.push(reporters[report.reporter]({ file }))
  }
  // Inside GitHub Actions, failures also become annotations on the run and the pull request.
  if (args.github ?? process.env.GITHUB_ACTIONS === 'true') chosen.push(reporters.github({}))
  if (args.from) {
    const result = await checkHarFile(args.from, { reporters: chosen })
    const skipped = skippedForCapture(result)
    if (skipped.length) console.log(pc.dim(`Not checked (a capture has no visit inputs, no client exit status): ${skipped.join(', ')}.`))
    return result.summary.failed > 0 ? 1 : 0
  }
  const own = args.cases ? await loadCases(args.cases) : undefined
  const result = await runConformance({
    client: args.client!,
    ...(own ? { suite: [...cases, ...own.cases], scenarios: own.scenarios } : {}),
    flows: args.flow ? [args.flow] : undefined,
    cases: args.case,
    jobs: args.jobs,
    timeoutMs: args.timeout * 1000,
    seed: args.seed,
    reporters: chosen,
  })
  return result.summary.failed > 0 ? 1 : 0
}
