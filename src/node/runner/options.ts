// What a conformance run is asked to do (its options), and the defaults, in one place.
import { REQUEST_TIMEOUT_MS, RUN_TIMEOUT_MS } from '../../core/defaults.js'
import os from 'node:os'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { FaultWaits } from '../../core/service/faults.js'
import type { Scenario } from '../../core/service/scenario.js'
import type { Flow, Reporter } from '../../core/rules/types.js'
import type { ClientFunction } from './contract.js'

export interface RunOptions {
  /** A shell command run once per case, or an in-process client function. */
  client: string | ClientFunction
  /** The client's name in reports, for a function client (default its function name). */
  name?: string
  /** Run only the cases of these flows (default both). */
  flows?: Flow[]
  /** Run only these cases: ids, prefixes ending in `/`, or globs (`*` any characters, `/` too; `?` one), e.g. `advanced/*` or `resilience/*-create/reset/once`. */
  cases?: string[]
  /** Run only the cases of these suites (advanced, simple, resilience, variants; default all). */
  suites?: string[]
  /** RELAY_REQUEST_TIMEOUT_MS, the client's own timeout per request (a case with a slow answer adds its delay). Default REQUEST_TIMEOUT_MS (2500). */
  requestTimeoutMs?: number
  /** The cases to choose from (default every suite's). */
  suite?: ReadonlyArray<ConformanceCase>
  /** Scenarios of your own that the cases name (beside the built-in ones), e.g. from loadCases. */
  scenarios?: ReadonlyArray<Scenario>
  /** The port of the per-case listener (default 0, a free one): a fixed port suits a run of one case. */
  port?: number
  /**
   * How many cases run at once, waiting ones included. Default: a case waiting on the service's
   * deliberate delays does not count, and the number of the others is fitted as the run goes to what
   * they cost the cores (from 4 a core, more while the machine idles): see schedule.ts.
   */
  jobs?: number
  /**
   * The order the cases start in: `longest-first` (the default: those whose faults make them wait
   * longest, then the rest in suite order) or `suite`.
   */
  order?: 'longest-first' | 'suite'
  /** The service's deliberate waits (slow answers, Retry-After), when not FAULT_WAITS: to measure a run against other values. */
  faultWaits?: Partial<FaultWaits>
  /** Kill a client (with its process tree) after this long. Default 30 s. */
  timeoutMs?: number
  reporters?: Reporter[]
  /** The client command's working directory (default the current one). */
  cwd?: string
  /** Variables added to the client's environment (before the RELAY_* ones). */
  env?: NodeJS.ProcessEnv
  /** The address the per-case listeners bind (default 127.0.0.1). */
  host?: string
  seed?: number
  vehicles?: number
  /** Bytes of stdout and of stderr kept per case. Default 64 KiB. */
  outputLimit?: number
  /** Stop at the first case that does not pass: the rest are cancelled, their clients ended. */
  bail?: boolean
  /** Run each case this many times; a case that fails some runs but not all is `flaky`. Default 1. */
  repeat?: number
  /**
   * Stops the run when aborted (e.g. on Ctrl-C): the clients in flight are ended, and the reporters
   * get the cases that finished, with `summary.interrupted`. Given one, the caller handles the process's
   * signals; without one, SIGINT, SIGTERM and SIGHUP end the run's clients and then the process.
   */
  signal?: AbortSignal
  /** A partial case (a rule not checked) does not fail the run (`--allow-partial`). */
  allowPartial?: boolean
  /** A warning fails the run (`--strict`). */
  strict?: boolean
  /**
   * Answer as the real service was seen to (`conform --calibrate`): an assumptions report of proxy or
   * probe, as its assumptions.json holds it. Every case runs under it; a calibrated assumption's variant
   * cases do not run (the service has answered it), the others still do.
   */
  calibration?: object
}

/** Defaults, in one place; options override them. */
export const RUN_DEFAULTS = {
  timeoutMs: RUN_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  host: '127.0.0.1',
  outputLimit: 64 * 1024,
  repeat: 1,
  // The fewest cases in flight unless --jobs fixes the number: a core's worth (see schedule.ts).
  jobs: () => os.availableParallelism(),
} as const
