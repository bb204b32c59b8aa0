// A captured conversation (a HAR from a proxy, the real service's staging, or relay-mock's own export)
// judged like a conformance run: one case per visit, the same rules, the same reporters. A conversation
// that carries its case's inputs (relay-mock's own HAR: `_relay` on each page) is that one case, checked
// in full; the visits of any other capture are checked with the inputs a `--visits` file gives, and the
// rules that need an input nobody gave come back not-checked, saying which.
import type { JournalEntry } from '../../core/service/journal.js'
import { caseStatus, countCases, evaluate, expectedCalls, type VerdictPolicy } from '../../core/rules/index.js'
import type { VisitInputs, VisitsFile } from '../../core/rules/inputs.js'
import { judgeVariants } from '../../core/rules/echoes.js'
import { RelayMockError } from '../../core/errors.js'
import { plural } from '../../core/text.js'
import type { CaseContext, CaseResult, ClientRun, Flow, RunResult } from '../../core/rules/types.js'
import { flowOf, groupVisits } from './visits.js'
import { toRunCalibration, underCalibration } from '../../core/rules/calibrated.js'
import type { Calibration } from '../../core/service/calibration.js'

export interface CaptureOptions extends VerdictPolicy {
  /** Where the conversation came from, e.g. the HAR file's name: the run's "client" in reports. */
  source: string
  /** relay-mock's version, for the summary. */
  version: string
  /** The visits' inputs (a `--visits` file): in the order the visits were made, or keyed by visit id. */
  visits?: VisitsFile
  /** Where `visits` came from, for messages, e.g. `visits.json`. */
  visitsSource?: string
  /** A calibration (`--calibrate`): the visits judged as a run calibrated by it would judge them. */
  calibration?: Calibration
}

/** A conversation of a capture (see fromHarConversations): an id, maybe a title, its requests, maybe its case's inputs. */
export interface Conversation {
  id: string
  title?: string
  entries: ReadonlyArray<JournalEntry>
  /** The case's inputs, when the capture carries them (relay-mock's own HAR): the conversation is then one case. */
  inputs?: VisitInputs
}

/** How to give what a capture lacks: the end of every not-checked message of a capture. */
const HINT = 'a capture does not carry it: pass the visits with --visits FILE'

function clientRun(source: string, client: NonNullable<VisitInputs['client']>): ClientRun {
  return {
    command: source,
    exitCode: client.exitCode,
    signal: client.signal ?? null,
    timedOut: client.timedOut,
    durationMs: client.durationMs ?? 0,
    stdout: '',
    stderr: '',
    ...(client.report ? { report: client.report } : {}),
    ...(client.reportError !== undefined ? { reportError: client.reportError } : {}),
  }
}

/** One case of a capture: its requests judged with whatever inputs it has. */
function toCase(
  id: string,
  title: string | undefined,
  requests: JournalEntry[],
  inputs: VisitInputs | undefined,
  source: string,
): CaseResult {
  const flow: Flow = inputs?.flow ?? flowOf(requests)
  const client = inputs?.client ? clientRun(source, inputs.client) : undefined
  const context: CaseContext = {
    flow,
    requests,
    ...(inputs?.visit ? { visit: inputs.visit } : {}),
    ...(inputs?.token ? { token: inputs.token } : {}),
    ...(client ? { client } : {}),
    ...(inputs?.outcome ? { outcome: inputs.outcome } : {}),
    ...(inputs?.faults ? { faults: inputs.faults } : {}),
    ...(inputs?.outcomes ? { outcomes: inputs.outcomes } : {}),
    ...(inputs?.variants ? { variants: inputs.variants } : {}),
  }
  const checks = evaluate(context, { hint: HINT })
  const first = requests[0]
  const last = requests[requests.length - 1]
  const span = first && last ? Math.max(0, Date.parse(last.time) + last.durationMs - Date.parse(first.time)) || 0 : 0
  const described = `${flow === 'advanced' ? 'an advanced' : 'a simple'} visit of ${plural(requests.length, 'request')}${first ? `, from ${first.time}` : ''}`
  return {
    id,
    flow,
    scenario: 'captured',
    title: title ?? described.charAt(0).toUpperCase() + described.slice(1),
    status: caseStatus(checks, requests, inputs?.cell),
    durationMs: client?.durationMs || span,
    exitCode: client?.exitCode ?? null,
    signal: client?.signal ?? null,
    timedOut: client?.timedOut ?? false,
    stdout: '',
    stderr: '',
    ...(inputs?.visit ? { visit: inputs.visit } : {}),
    checks,
    expected: expectedCalls(context),
    requests,
    ...(inputs?.outcome ? { expectedOutcome: inputs.outcome } : {}),
    ...(inputs?.outcomes ? { expectedOutcomes: inputs.outcomes } : {}),
    ...(client?.report ? { report: client.report } : {}),
    ...(client?.reportError !== undefined ? { reportError: client.reportError } : {}),
    ...(first?.worldId ? { worldId: first.worldId } : {}),
    ...(inputs?.faults ? { faults: inputs.faults } : {}),
    ...(inputs?.cell ? { cell: inputs.cell } : {}),
    ...(inputs?.variants ? { variants: inputs.variants } : {}),
    ...(inputs?.of ? { of: inputs.of } : {}),
  }
}

/** The visits file's inputs for each visit, by position or by id; refuses a file that does not fit the capture. */
function matchVisits(ids: string[], visits: VisitsFile | undefined, source: string): Array<VisitInputs | undefined> {
  if (!visits) return ids.map(() => undefined)
  if (Array.isArray(visits)) {
    if (visits.length !== ids.length) {
      throw new RelayMockError(
        'VISITS_MISMATCH',
        `Failed to match ${source} to the capture: it lists ${plural(visits.length, 'visit')}, the capture has ${plural(ids.length, 'visit')} (${ids.join(', ')}). Please list one visit per visit of the capture, in the order they were made, or key them by visit id.`,
      )
    }
    return visits
  }
  const unknown = Object.keys(visits).filter((key) => !ids.includes(key))
  if (unknown.length > 0) {
    throw new RelayMockError(
      'VISITS_MISMATCH',
      `Failed to match ${source} to the capture: it names ${unknown.map((k) => `"${k}"`).join(', ')}, which the capture does not have. Please key the visits by the capture's visit ids: ${ids.join(', ')}.`,
    )
  }
  return ids.map((id) => visits[id])
}

/**
 * The visits of captured conversations as a run result: a conversation that carries its case's inputs is
 * that case; any other is cut into visits, each a case named `visit-1`, `visit-2`, … (numbered in the order
 * they were made, as the live page numbers them) for a single conversation, else after its conversation.
 * @example checkCapture(fromHarConversations(har), { source: 'capture.har', version: '0.1.0' }).summary.partial
 */
export function checkCapture(conversations: ReadonlyArray<Conversation>, options: CaptureOptions): RunResult {
  const entries = conversations.flatMap((c) => c.entries).sort((a, b) => Date.parse(a.time) - Date.parse(b.time))
  const planned = conversations.flatMap((conversation) => {
    if (conversation.inputs)
      return [
        {
          id: conversation.inputs.case ?? conversation.id,
          title: conversation.title,
          requests: [...conversation.entries],
          inputs: conversation.inputs,
          given: true,
        },
      ]
    const visits = groupVisits(conversation.entries)
    return visits.map(({ requests }, i) => ({
      id:
        conversations.length === 1
          ? `visit-${i + 1}`
          : visits.length === 1
            ? conversation.id
            : `${conversation.id} · visit ${i + 1}`,
      title: conversation.title,
      requests,
      inputs: undefined as VisitInputs | undefined,
      given: false,
    }))
  })
  const open = planned.filter((p) => !p.given)
  const matched = matchVisits(
    open.map((p) => p.id),
    options.visits,
    options.visitsSource ?? 'the visits file',
  )
  open.forEach((p, i) => (p.inputs = matched[i]))
  const judged = underCalibration(
    planned.map((p) => ({
      ...p,
      flow: p.inputs?.flow ?? flowOf(p.requests),
      scenario: p.inputs?.scenario,
      outcome: p.inputs?.outcome,
      outcomes: p.inputs?.outcomes,
      variants: p.inputs?.variants,
    })),
    options.calibration,
    // The service recorded the unknown owner's payment only where the recording shows it answered with an id.
    (p) => p.requests.some((entry) => entry.route === 'POST /payment' && entry.response.status < 300),
  )
  const cases = judgeVariants(
    judged.cases.map((p) =>
      toCase(
        p.id,
        p.title,
        p.requests,
        p.inputs && { ...p.inputs, outcome: p.outcome, outcomes: p.outcomes },
        options.source,
      ),
    ),
  )
  const firstTime = entries[0]?.time
  const lastEntry = entries[entries.length - 1]
  return {
    summary: {
      ...countCases(cases, options),
      clientMs: cases.reduce((sum, c) => sum + c.durationMs, 0),
      wallMs:
        firstTime && lastEntry
          ? Math.max(0, Date.parse(lastEntry.time) + lastEntry.durationMs - Date.parse(firstTime)) || 0
          : 0,
      startedAt: firstTime ?? new Date(0).toISOString(),
      version: options.version,
      client: options.source,
      flows: [...new Set(cases.map((c) => c.flow))],
      ...(options.calibration ? { calibration: toRunCalibration(options.calibration, judged.leftOut) } : {}),
    },
    cases,
  }
}
