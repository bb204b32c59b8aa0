// One run of one case: a fresh world and listener, the client, the rules, and the case's result.
import { join } from 'node:path'
import { maskToken } from '../../core/service/journal.js'
import { caseStatus, evaluate, expectedCalls } from '../../core/rules/index.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { CaseContext, CaseResult, CaseStart, CaseVisit, ClientRun } from '../../core/rules/types.js'
import { close, createServer, listen } from '../server/server.js'
import { watchWaits } from './case-waits.js'
import { runClient } from './client-run.js'
import { toRelayEnv, type ClientVisit } from './contract.js'
import type { RunContext } from './context.js'
import { caseRequestTimeoutMs } from './schedule.js'

/**
 * One run of one case: a fresh world and listener, the client, the rules. `slot` numbers the run's result
 * file; `onWait` hears when the run starts and stops waiting on the service's deliberate delays.
 */
export async function runCase(
  context: RunContext,
  kase: ConformanceCase,
  slot: number,
  onWait: (delta: 1 | -1) => void,
): Promise<CaseResult> {
  const { service, reporters } = context
  const faults = (kase.faults ?? []).map((fault) => (context.waits ? { ...fault, waits: context.waits } : fault))
  const world = await service.addWorld({
    scenario: kase.scenario,
    faults,
    ...(kase.variants ? { variants: kase.variants } : {}),
  })
  const server = createServer(service, { world })
  const unwatch = watchWaits(server, world, kase.faults, onWait)
  let closed = false
  try {
    const baseUrl = await listen(server, { port: context.options.port ?? 0, host: context.host })
    const visit: CaseVisit = { ...world.visit, ...kase.visit, locationId: world.location.id }
    const clientVisit: ClientVisit = { ...visit, flow: kase.flow }
    const start: CaseStart = {
      id: kase.id,
      flow: kase.flow,
      scenario: kase.scenario,
      title: kase.title,
      visit,
      baseUrl,
      worldId: world.id,
    }
    for (const reporter of reporters) await reporter.onCaseStart?.(start)
    // One subscription per reporter: one that throws is reported and stops neither the others nor the case.
    const unsubscribes = reporters.flatMap((reporter) =>
      reporter.onRequest ? [world.journal.subscribe((entry) => reporter.onRequest!(entry, start))] : [],
    )
    const requestTimeoutMs = caseRequestTimeoutMs(kase, context.requestTimeoutMs, context.waits)
    const env = toRelayEnv(
      clientVisit,
      baseUrl,
      world.token,
      join(context.dir, `run-${slot + 1}.json`),
      requestTimeoutMs,
    )
    const run = await runClient(context, clientVisit, env)
    // A request still held open (a hung one the client never gave up on) is journaled when its
    // connection closes: close the listener before reading the case's requests.
    closed = true
    await close(server)
    await new Promise((resolve) => setImmediate(resolve))
    for (const unsubscribe of unsubscribes) unsubscribe()

    const requests = world.journal.entries()
    const caseContext: CaseContext = {
      flow: kase.flow,
      requests,
      token: world.token,
      visit,
      client: run,
      outcome: kase.outcome,
      outcomes: kase.outcomes,
      faults: kase.faults,
      deadlineMs: context.timeoutMs,
      variants: kase.variants,
    }
    return toCaseResult(kase, caseContext, world, run)
  } finally {
    unwatch()
    if (!closed) await close(server)
    service.removeWorld(world)
  }
}

/** A case's result: its run of the client, judged by the rules on the requests its world journaled. */
function toCaseResult(
  kase: ConformanceCase,
  caseContext: CaseContext,
  world: { id: string; token: string },
  run: ClientRun,
): CaseResult {
  const { requests, visit } = caseContext
  const checks = evaluate(caseContext)
  return {
    id: kase.id,
    flow: kase.flow,
    scenario: kase.scenario,
    title: kase.title,
    status: caseStatus(checks, requests, kase.cell),
    durationMs: run.durationMs,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    stdout: run.stdout,
    stderr: run.stderr,
    visit,
    checks,
    expected: expectedCalls(caseContext),
    requests,
    expectedOutcome: kase.outcome,
    ...(kase.outcomes ? { expectedOutcomes: kase.outcomes } : {}),
    ...(run.report ? { report: run.report } : {}),
    ...(run.reportError !== undefined ? { reportError: run.reportError } : {}),
    worldId: world.id,
    token: maskToken(world.token),
    ...(kase.faults ? { faults: kase.faults } : {}),
    ...(kase.cell ? { cell: kase.cell } : {}),
    ...(kase.variants ? { variants: kase.variants } : {}),
    ...(kase.of ? { of: kase.of } : {}),
  }
}
