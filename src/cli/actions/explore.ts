// `relay-mock conform --explore N`: generated visits, and the smallest that breaks the client printed
// as a ready entry of a cases file. Resolves with the exit code: 0 when no visit broke it, 1 when one did.
import pc from 'picocolors'
import type { CaseResult } from '../../core/rules/types.js'
import { explore } from '../../node/runner/explore.js'
import type { ConformArgs } from '../conform-options.js'

/** The failed rules of a case, one line each. */
function failures(result: CaseResult): string[] {
  return result.checks
    .filter((check) => check.status === 'failed')
    .map((check) => `  ${pc.red('✗')} ${check.rule}: ${check.message}`)
}

export async function exploreCommand(args: ConformArgs, signal: AbortSignal): Promise<number> {
  const runs = args.explore!
  // A seed of its own when none is given, printed so that the run can be had again.
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 32)
  console.log(`relay-mock conform --explore ${runs} --seed ${seed} · ${args.client}`)
  const started = Date.now()
  let last = ''
  const result = await explore({
    client: args.client!,
    runs,
    seed,
    flows: args.flow ? [args.flow] : undefined,
    requestTimeoutMs: args.requestTimeout * 1000,
    jobs: args.jobs,
    timeoutMs: args.timeout * 1000,
    signal,
    onProgress(event) {
      if (event.kind === 'explored') {
        const broken = event.results.filter((r) => r.status === 'failed')
        console.log(
          `\n${runs} visits generated: ${event.results.length - broken.length} passed, ${broken.length} broke the client.`,
        )
        if (broken.length > 0)
          console.log(
            `Shrinking the first that broke it (${broken[0].id}) to the smallest visit that still does, one run at a time:`,
          )
      } else {
        const line = `${event.explored.flow} ${JSON.stringify(event.explored.visit)}`
        if (line !== last) console.log(`  ${pc.dim('still breaks it:')} ${line}`)
        last = line
      }
    },
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (!result.smallest) {
    console.log(pc.green(`\nNo visit of seed ${seed} broke the client (${runs} visits, ${seconds} s).`))
    return 0
  }
  const { smallest } = result
  console.log(
    `\nThe smallest visit that breaks the client (${smallest.shrinks} smaller ${smallest.shrinks === 1 ? 'visit' : 'visits'} found, ${seconds} s), in the ${smallest.explored.flow} flow:`,
  )
  for (const line of failures(smallest.result)) console.log(line)
  console.log(
    `\nAs an entry for --cases (save it as a file, then: relay-mock conform --client "..." --cases FILE --case '${String(smallest.entry.id)}'):\n`,
  )
  console.log(JSON.stringify({ cases: [smallest.entry] }, null, 2))
  return 1
}
