// `relay-mock demo`'s work, loaded only when the command runs: both flows with the reference client
// against an in-process mock, narrated call by call; resolves with the exit code.
import type { Flow } from '../../core/rules/types.js'
import { createConsoleReporter } from '../../node/reporters/console.js'
import { createDemoReporter } from '../../node/reporters/demo.js'
import { referenceClient } from '../../node/reference-client/reference-client.js'
import { runConformance } from '../../node/runner/runner.js'

/** Runs the demo; 0 when the reference client passed every case. */
export async function demo(args: { flow?: Flow }): Promise<number> {
  // `relay-mock demo | head`: a reader that stops early ends the demo quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit()
  })
  const summary = createConsoleReporter()
  const result = await runConformance({
    client: referenceClient,
    name: 'the reference client',
    flows: args.flow ? [args.flow] : undefined,
    // Every case of the two flows and three cells of the fault matrix: the whole matrix, narrated one
    // case at a time, would take minutes (conform runs it).
    cases: [
      'advanced/*',
      'simple/*',
      'resilience/vehicle-lookup/unavailable/once',
      'resilience/payment-create/reset/once',
      'resilience/simple-payment/server-error/once',
    ],
    jobs: 1,
    reporters: [createDemoReporter(), { onRunEnd: (run) => summary.onRunEnd?.(run) }],
  })
  return result.summary.failed > 0 ? 1 : 0
}
