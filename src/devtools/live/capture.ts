// A captured conversation (a HAR from a proxy, the real service's staging, or relay-mock's own export)
// judged like a conformance run: one case per visit, the same rules, the same reporters. No client ran,
// so the visit's inputs are unknown and the rules that need them come back skipped.
import type { JournalEntry } from '../../core/journal.js'
import type { CaseResult, RunResult } from '../../core/rules/types.js'
import { checkVisits } from './visits.js'

export interface CaptureOptions {
  /** Where the conversation came from, e.g. the HAR file's name: the run's "client" in reports. */
  source: string
  /** relay-mock's version, for the summary. */
  version: string
}

/** A conversation of a capture (see fromHarConversations): an id, maybe a title, its requests. */
export interface Conversation {
  id: string
  title?: string
  entries: ReadonlyArray<JournalEntry>
}

/**
 * The visits of captured conversations as a run result: each visit a case, named `visit-1`, `visit-2`, …
 * for a single conversation, else after its conversation (relay-mock's run export keeps each case's id).
 * @example checkCapture(fromHarConversations(har), { source: 'capture.har', version: '0.1.0' }).summary.failed
 */
export function checkCapture(conversations: ReadonlyArray<Conversation>, options: CaptureOptions): RunResult {
  const entries = conversations.flatMap((c) => c.entries).sort((a, b) => Date.parse(a.time) - Date.parse(b.time))
  const cases: CaseResult[] = conversations.flatMap((conversation) => {
    const visits = checkVisits(conversation.entries)
    return visits.map((visit, i): CaseResult => {
      const id = conversations.length === 1 ? `visit-${i + 1}` : visits.length === 1 ? conversation.id : `${conversation.id} · visit ${i + 1}`
      const first = Date.parse(visit.startedAt)
      const lastEntry = visit.requests[visit.requests.length - 1]
      const durationMs = Math.max(0, Date.parse(lastEntry.time) + lastEntry.durationMs - first) || 0
      const described = `${visit.flow === 'advanced' ? 'an advanced' : 'a simple'} visit of ${visit.requests.length} request${visit.requests.length === 1 ? '' : 's'}, from ${visit.startedAt}`
      return {
        id,
        flow: visit.flow,
        scenario: 'captured',
        title: conversation.title ?? described.charAt(0).toUpperCase() + described.slice(1),
        status: visit.status === 'failed' ? 'failed' : 'passed',
        durationMs,
        exitCode: null,
        signal: null,
        timedOut: false,
        stdout: '',
        stderr: '',
        checks: visit.checks,
        expected: visit.expected,
        requests: visit.requests,
      }
    })
  })
  const failed = cases.filter((c) => c.status === 'failed')
  const firstTime = entries[0]?.time
  const lastEntry = entries[entries.length - 1]
  return {
    summary: {
      total: cases.length,
      passed: cases.length - failed.length,
      failed: failed.length,
      rulesBroken: [...new Set(failed.flatMap((c) => c.checks.filter((k) => k.status === 'failed').map((k) => k.rule)))],
      clientMs: cases.reduce((sum, c) => sum + c.durationMs, 0),
      wallMs: firstTime && lastEntry ? Math.max(0, Date.parse(lastEntry.time) + lastEntry.durationMs - Date.parse(firstTime)) || 0 : 0,
      startedAt: firstTime ?? new Date(0).toISOString(),
      version: options.version,
      client: options.source,
      flows: [...new Set(cases.map((c) => c.flow))],
    },
    cases,
  }
}

/** The ids of the rules skipped in every case because they need a visit's inputs: what a capture cannot check. */
export function skippedForCapture(result: RunResult): string[] {
  const skipped = new Set<string>()
  for (const kase of result.cases) for (const check of kase.checks) if (check.status === 'skipped' && /inputs/.test(check.message)) skipped.add(check.rule)
  return [...skipped]
}
