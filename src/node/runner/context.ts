// What every case of one run shares, and how the run stops early.
import type { RelayService } from '../../core/service/mock.js'
import type { FaultWaits } from '../../core/service/faults.js'
import type { Reporter } from '../../core/rules/types.js'
import type { ClientFunction } from './contract.js'
import type { CpuTime } from './cpu-time.js'
import type { RunOptions } from './options.js'

/** What every case of one run shares: the mock, the folder of result files, the client and how to run it. */
export interface RunContext {
  service: RelayService
  dir: string
  client: string | ClientFunction
  clientName: string
  reporters: Reporter[]
  host: string
  timeoutMs: number
  /** The request timeout the run gives the client (a case with a slow answer adds its delay: caseRequestTimeoutMs). */
  requestTimeoutMs: number
  /** The CPU the run has cost, counted from its start (cpu-time.ts). */
  cpu: CpuTime
  /** Fixed by --jobs, or fitted as the run goes. */
  jobs: number | undefined
  repeat: number
  options: RunOptions
  /** The service's waits, when the options change them. */
  waits?: FaultWaits
  /** Aborted when the run stops early: ends the clients in flight, whose runs are then dropped. */
  stop: AbortController
  /** Why the run stopped early, once it has. */
  stopped?: 'interrupted' | 'bailed'
}

/** Stops the run early: no case starts any more, and the clients in flight are ended. */
export function stopRun(context: RunContext, why: NonNullable<RunContext['stopped']>): void {
  context.stopped ??= why
  context.stop.abort()
}
