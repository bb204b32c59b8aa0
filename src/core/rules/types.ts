// The conformance kit's vocabulary: rules, what they read (a case's requests and inputs), what
// they find, and the results every reporter, the live page and the HTML report consume.
import type { JournalEntry } from '../service/journal.js'
import type { Visit } from '../service/scenario.js'
import type { ArmedFault, FaultKind, FaultMode, FaultStep } from '../service/faults.js'
import type { Flow, Outcome } from './vocabulary.js'

export type { Flow, Outcome }

/** One cell of the resilience matrix: the step a fault breaks, the kind of fault, and whether it lasts. */
export interface MatrixCell {
  step: FaultStep
  kind: FaultKind
  mode: FaultMode
}

/**
 * What one rule found in one case: `passed`; `failed`; `skipped` (it does not apply here);
 * `not-checked` (it applies, but an input it compares against was not given: the message says which);
 * `warning` (safe but not the best the interface allows: a pass, unless the run is `--strict`);
 * `echo` (in a variant case: it failed where the flow case the variant repeats had already failed, the same
 * defect; shown once, by that case: neither a pass nor a second failure; see echoes.ts).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'not-checked' | 'warning' | 'echo'
/**
 * A case's verdict: `failed` when a rule failed; else `partial` when a rule was not checked; else `warning`
 * when a rule warned; else `echo` when a rule echoed what the flow case the variant case repeats found (the same
 * defect: that case fails the run, this one does not fail it again); else `passed`. `not-reached`: the flow never made the request the case
 * is about (e.g. the faulted one), so nothing it exists to check was seen; never a pass. `flaky`: with
 * `conform --repeat`, it did not pass some of its runs but did others (the failing run's details are shown).
 */
export type CaseStatus = 'passed' | 'warning' | 'partial' | 'failed' | 'not-reached' | 'flaky' | 'echo'
/** The inputs of a case a rule may compare the requests with. */
export type CaseInput = 'visit' | 'token' | 'client'
/** A visit as a case hands it to a client: the scenario's visit and the location that reports it. */
export interface CaseVisit extends Visit {
  locationId: string
}

/** What the client wrote to RELAY_RESULT_FILE, when it wrote anything. */
export interface ClientReport {
  outcome: Outcome
  paymentId?: string
  message?: string
}

/** How the client process ended (execa's shape). */
export interface ClientRun {
  command: string
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  durationMs: number
  stdout: string
  stderr: string
  /** The parsed RELAY_RESULT_FILE, when the client wrote one. */
  report?: ClientReport
  /** Why RELAY_RESULT_FILE could not be read as a report, when it could not. */
  reportError?: string
}

/** Everything a rule may read. Live checks (the serve page) have neither `visit`, `token` nor `client`. */
export interface CaseContext {
  flow: Flow
  /** The requests of this case (or this visit), in the order the mock received them. */
  requests: JournalEntry[]
  /** The bearer token the case issued. */
  token?: string
  visit?: CaseVisit
  client?: ClientRun
  /** The outcome a correct client reaches in this case (the suite's), when known. */
  outcome?: Outcome
  /** The faults armed on the case's world, when any. */
  faults?: ReadonlyArray<ArmedFault>
  /** The time the case gave the client to finish its visit (conform --timeout), when known. */
  deadlineMs?: number
  /** The alternatives of the assumption ledger the case's world was served under, when any (see variants.ts). */
  variants?: Readonly<Record<string, string>>
  /** Every outcome a correct client may reach in this case, when the suite lists more than one. */
  outcomes?: ReadonlyArray<Outcome>
}

/** What one rule found in one case. */
export interface RuleOutcome {
  status: CheckStatus
  /**
   * For a failure: what was expected, what the client did instead (request, field, value), and the rule it
   * breaks. For `not-checked`: which input was missing, and what could be checked without it.
   */
  message: string
  /** For `not-checked`: the inputs the check lacked. */
  missing?: CaseInput[]
  /** The journal seq of the request at fault, when one is. */
  seq?: number
  expected?: unknown
  actual?: unknown
  /** The interface's clause that applies to this finding, where it is narrower than the rule's own `cite`. */
  cite?: string
  /**
   * The check compared the visit with the same visit under relay-mock's choice (a fidelity rule's): in a
   * variant case it is judged again against the flow case the variant repeats (echoes.ts).
   */
  versusChoice?: true
}

export interface Check extends RuleOutcome {
  rule: string
  /** For an `echo`: the message the rule gave, before it was found to be the flow case's defect again. */
  echoed?: string
}

/** A rule: a stable id, what it checks, the clause of the interface it enforces, and a pure check. */
export interface Rule {
  id: string
  /** The flows it applies to. */
  flows: ReadonlyArray<Flow>
  /** What it checks, one line (docs/rules.md's rule table). */
  title: string
  /** The interface clause, e.g. "§1 Advanced flow, rule 2". */
  cite: string
  /** True when the check cannot run at all without the inputs it `needs`; false ones run live too. */
  needsCase: boolean
  /**
   * The case's inputs the check compares the requests with (default: the visit for a `needsCase` rule,
   * none otherwise), or a function of the context saying which it needs there. Where one is missing,
   * evaluate() reports the check `not-checked` (saying which), unless it failed or did not apply on
   * what it could see: the rules never guess.
   */
  needs?: ReadonlyArray<CaseInput> | ((context: CaseContext) => ReadonlyArray<CaseInput>)
  /**
   * Whether the rule is judged in this context at all (default: always). A rule that applies to a few
   * cases only (a `fidelity` rule, to the cases of its assumption's variants) is left out of the others'
   * checks instead of being listed as skipped in every case.
   */
  applies?(context: CaseContext): boolean
  check(context: CaseContext): RuleOutcome
}

/** One call the flow expects in a case, for the side-by-side diagram. */
export interface ExpectedCall {
  method: string
  path: string
  /** Why this call is expected here, e.g. "the plate is not known: create it". */
  note?: string
}

export interface CaseResult {
  id: string
  flow: Flow
  scenario: string
  /** One line: what the case exercises. */
  title: string
  status: CaseStatus
  durationMs: number
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** The visit the case gave the client; absent for a conversation checked from a capture (`conform --from`). */
  visit?: CaseVisit
  checks: Check[]
  expected: ExpectedCall[]
  requests: JournalEntry[]
  /** The outcome a correct client reaches in this case (the suite's). */
  expectedOutcome?: Outcome
  /** Every outcome a correct client may reach in this case, when the suite lists more than one (e.g. `rejected` or `paid` where a call fails). */
  expectedOutcomes?: Outcome[]
  /** What the client wrote to RELAY_RESULT_FILE, when it wrote a valid report. */
  report?: ClientReport
  /** Why RELAY_RESULT_FILE could not be read as a report, when it could not. */
  reportError?: string
  /** The world the case ran in, e.g. `world-3`: the journal's `worldId` of its requests. */
  worldId?: string
  /** With `conform --repeat N`: how many times the case ran and how many of those failed. */
  runs?: { total: number; failed: number }
  /**
   * When relay-mock itself ran late (its process held up: a busy machine, or an in-process client holding
   * its event loop) in a run of the case whose verdict that may have decided (a run that did not pass, or
   * one that passed a case with faults): that run's status, how late, in ms, and how long it took; the case
   * ran again and this is its second run, with `lateMs` when the same held of it (its verdict may then be
   * the machine's).
   */
  late?: { firstStatus: CaseStatus; firstLateMs: number; firstDurationMs: number; lateMs?: number }
  /** The case's token, masked as everywhere it is shown (`…wxyz`). */
  token?: string
  /** The faults armed on the case's world, when any. */
  faults?: ArmedFault[]
  /** The matrix cell the case is, when it is one (resilience). */
  cell?: MatrixCell
  /** The alternatives of the assumption ledger the case's world was served under, when any (the suite `variants`). */
  variants?: Readonly<Record<string, string>>
  /** For a variant case: the flow case it repeats, whose result it is judged against (echoes.ts). */
  of?: string
  /** For a variant case that echoes its flow case: that case and the rules that failed there (or warned there and here: `warned`). */
  sameAs?: { case: string; rules: string[]; warned?: true }
  /** Not selected: run because the selected variant cases repeat it, to judge them against it. */
  addedFor?: string[]
}

/** How many cases ended each way, the rules behind them, and whether the run passes. */
export interface CaseCounts {
  total: number
  passed: number
  warning: number
  partial: number
  failed: number
  /** Variant cases whose failures are the same defect as the failure of the flow case they repeat (not counted in `failed`). */
  echo: number
  notReached: number
  /** Cases that did not pass some of their `--repeat` runs but did others (not counted in `failed`). */
  flaky: number
  /** The ids of the rules that failed in at least one case. */
  rulesBroken: string[]
  /** The ids of the rules not checked in at least one case (an input was missing). */
  rulesNotChecked: string[]
  /** The ids of the rules that warned in at least one case. */
  rulesWarned: string[]
  /** Partial cases count as passing (`--allow-partial`). */
  allowPartial: boolean
  /** Warnings count as failures (`--strict`). */
  strict: boolean
  /**
   * The run passes: no case failed, was flaky or was not reached; no case is partial unless
   * `allowPartial`; no case warned if `strict`. The exit status is 0 exactly when this is true (and the
   * run was not interrupted).
   */
  conformant: boolean
}

export interface RunSummary extends CaseCounts {
  /** Sum of the cases' client process times. */
  clientMs: number
  /** Wall time of the whole run. */
  wallMs: number
  startedAt: string
  version: string
  /** The client command, or a name for an in-process client. */
  client: string
  flows: Flow[]
  /** The run was stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): the cases are those that finished. */
  interrupted?: true
  /** The run stopped at the first case that did not pass (`--bail`): the cases are those that finished. */
  bailed?: true
  /** Cases selected that did not finish because the run was interrupted or bailed. */
  notRun?: number
  /** Set when the run was calibrated (`conform --calibrate`): against what, and what it changed. */
  calibration?: RunCalibration
  /** Where the run's time went (a run of the runner; absent from a capture checked with `conform --from`). */
  time?: RunTime
}

/** Where a run's time went: the run's wall time is `wallMs` of the summary. */
export interface RunTime {
  /** CPU time of the client processes that ended during the run (and their children); undefined for in-process clients, or without /proc. */
  clientCpuMs?: number
  /** CPU time of the kit's own process: the service, the rules, and in-process clients. */
  kitCpuMs: number
  /** The case that took longest, when any ran. */
  longest?: { id: string; durationMs: number }
  /** Of the cases' time (the sum of their durations), how much was spent waiting on the service's deliberate delays: slow answers, hung requests, Retry-After. */
  delayMs: number
  casesMs: number
  /** delayMs / casesMs, 0 to 1. */
  delayShare: number
  /** How many cases ran at once: fixed by --jobs, or fitted as the run went (the most, and the last). */
  jobs: { fixed: boolean; most: number; last: number }
  /** Set when the client's own start outweighs its work: the CPU each run of it cost, in ms. */
  startDominates?: { cpuPerRunMs: number }
  /** Set when cases ran again because relay-mock ran late in a run whose verdict that may have decided (`late` on each): how many, and in how many it was so again. */
  ranAgain?: { cases: number; lateAgain: number }
}

/** What a calibrated run answered as the real service was seen to. */
export interface RunCalibration {
  /** The real service the report was made against. */
  upstream: string
  /** When the report was made, ISO 8601 (undefined when it does not say). */
  date?: string
  /** The assumptions served as observed: no longer varied (their variant cases do not run). */
  calibrated: string[]
  /** The assumptions contradicted there that calibration does not learn: served as relay-mock chose. */
  notCalibrated: string[]
  /** How many variant cases did not run, their assumption being calibrated. */
  variantCasesLeftOut: number
  /** Each assumption the calibration's report settled, in the ledger's order, and what the service answered. */
  settled: SettledInRun[]
}

/** An assumption a calibration settled, as a run's reports mark it in their table of assumptions. */
export interface SettledInRun {
  assumption: string
  /** `confirmed`: the service answered as relay-mock chose; `contradicted`: otherwise. */
  status: 'confirmed' | 'contradicted'
  /** What the service answered, in a few words, e.g. `201 without Location`. */
  answered: string
  /** The ledger's alternative the service made, when one matched. */
  alternative?: string
  /** Whether the run answered as the service did (a contradicted assumption calibration learns). */
  served: boolean
}

export interface RunResult {
  summary: RunSummary
  cases: CaseResult[]
}

/** What a reporter learns when a run starts. */
export interface RunStart {
  cases: ReadonlyArray<{ id: string; flow: Flow; scenario: string; title: string }>
  client: string
  flows: Flow[]
  startedAt: string
}

/** A case about to run: its world is ready and its client is starting. */
export interface CaseStart {
  id: string
  flow: Flow
  scenario: string
  title: string
  visit: CaseVisit
  baseUrl: string
  worldId: string
}

/**
 * Consumes a run's results as they come (vitest style: every hook optional). Reporters read
 * results, never the runner.
 * @example
 * const reporter: Reporter = { onCaseEnd: (result) => console.log(result.id, result.status) }
 */
export interface Reporter {
  onRunStart?(run: RunStart): void | Promise<void>
  onCaseStart?(start: CaseStart): void | Promise<void>
  /** Each request of a case, as the mock answers it. */
  onRequest?(entry: JournalEntry, start: CaseStart): void
  onCaseEnd?(result: CaseResult): void | Promise<void>
  onRunEnd?(result: RunResult): void | Promise<void>
}
