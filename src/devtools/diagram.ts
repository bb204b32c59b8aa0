// The sequence diagram of one conversation, shared by the HTML report and the live page: the calls
// a client made (client on the left, relay service on the right) beside the calls the flow expects,
// with each broken rule marked at the step where it broke. HTML and CSS (diagram.css), no script, no
// SVG: text wraps, each exchange opens with <details>, and it prints.
import { statusText } from '../core/status.js'
import { plural } from '../core/text.js'
import type { JournalEntry } from '../core/service/journal.js'
import type { ServiceRouteId } from '../core/service/handlers/index.js'
import { html, inlineCode, raw, type SafeHtml } from './live/html.js'
import type { Check, ExpectedCall } from '../core/rules/types.js'
import { DIAGRAM_CSS as css } from './assets.generated.js'

export { inlineCode } from './live/html.js'

/** What a diagram draws: a CaseResult, or a live visit, has these. */
export interface DiagramInput {
  /** The calls the flow expects; empty or absent when they are not known. */
  expected?: ReadonlyArray<ExpectedCall>
  requests: ReadonlyArray<JournalEntry>
  checks: ReadonlyArray<Check>
}

export interface DiagramOptions {
  /** Makes element ids unique on a page that holds several diagrams, e.g. the case id. */
  idPrefix: string
  /** How the conversation ended, shown as its last step, e.g. "The client exited with code 0". */
  end?: { text: string; failed?: boolean }
  /** The conversation may go on (a live visit): expected calls after the last one made are still to come, not missing. */
  inProgress?: boolean
  /** A rule's one-line title, to say what a broken rule checks. */
  describeRule?: (id: string) => { title: string; cite?: string } | undefined
}

/** One row of the diagram: an exchange that happened, or a call the flow expected that never came. */
export type DiagramStep =
  | { kind: 'exchange'; entry: JournalEntry; expected?: ExpectedCall; unexpected: boolean }
  | { kind: 'missing'; expected: ExpectedCall }

/** The key a call is compared by: its documented endpoint, else what was sent. */
function actualKey(entry: JournalEntry): string {
  return entry.route ?? `${entry.request.method} ${entry.request.path}`
}

function expectedKey(call: ExpectedCall): string {
  return `${call.method.toUpperCase()} ${call.path}`
}

/**
 * Lines up the calls made with the calls expected (longest common subsequence), so a skipped call
 * shows as missing where it belonged and an extra call as unexpected where it was made.
 * @example alignSteps(entries, [{ method: 'GET', path: '/rental-companies' }])
 */
export function alignSteps(
  requests: ReadonlyArray<JournalEntry>,
  expected: ReadonlyArray<ExpectedCall>,
): DiagramStep[] {
  const a = requests.map(actualKey)
  const b = expected.map(expectedKey)
  const known = expected.length > 0
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1])
    }
  }
  const steps: DiagramStep[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      steps.push({ kind: 'exchange', entry: requests[i++], expected: expected[j++], unexpected: false })
    } else if (j < b.length && (i === a.length || lengths[i][j + 1] > lengths[i + 1][j])) {
      steps.push({ kind: 'missing', expected: expected[j++] })
    } else {
      steps.push({ kind: 'exchange', entry: requests[i++], unexpected: known })
    }
  }
  return steps
}

/** A field of an answer's record as text: a string or number as it reads, anything else as JSON. */
const scalar = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value)
const short = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…` : id)

function clip(text: string, max = 96): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** One line saying what an answer carried, e.g. "1 company: Hekla Bílaleiga ehf." or "id 3f2b8c1e…". */
export function summarizeAnswer(entry: JournalEntry): string {
  const body = entry.response.body
  if (Array.isArray(body)) {
    if (body.length === 0) return 'an empty list'
    const first = body[0] as Record<string, unknown>
    // The lists by the endpoint that answered them (a HEAD's answer has no body to summarize).
    if (entry.route === ('GET /rental-companies' satisfies ServiceRouteId)) {
      return `${plural(body.length, 'company', 'companies')}: ${clip(scalar(first?.name ?? first?.id ?? ''), 48)}${body.length > 1 ? ', …' : ''}`
    }
    if (entry.route === ('GET /vehicles' satisfies ServiceRouteId)) {
      return `${plural(body.length, 'vehicle', 'vehicles')}: ${clip(scalar(first?.plate ?? ''), 16)} id ${short(scalar(first?.id ?? ''))}${body.length > 1 ? ', …' : ''}`
    }
    return plural(body.length, 'item', 'items')
  }
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>
    const parts: string[] = []
    if (typeof record.id === 'string') parts.push(`id ${short(record.id)}`)
    if (typeof record.message === 'string') parts.push(`“${clip(record.message, 110)}”`)
    if (parts.length > 0) return parts.join(' · ')
    return clip(JSON.stringify(body))
  }
  if (typeof body === 'string') return clip(body)
  return ''
}

function statusClass(status: number): string {
  return status >= 200 && status < 300 ? 'ok' : status >= 400 ? 'err' : 'other'
}

function headerList(headers: Record<string, string>): SafeHtml {
  const names = Object.keys(headers)
  if (names.length === 0) return html`<p class="muted">No headers.</p>`
  return html`<dl class="headers">${names.map((name) => html`<div><dt>${name}</dt><dd>${headers[name]}</dd></div>`)}</dl>`
}

function pretty(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

function requestBody(entry: JournalEntry): SafeHtml {
  const { request } = entry
  if (request.bodyText === undefined) return html`<p class="muted">No body.</p>`
  // The text as sent when it is not JSON; the parsed value, indented, when it is.
  const shown = request.body !== undefined && request.bodyError === undefined ? pretty(request.body) : request.bodyText
  return html`${request.bodyError ? html`<p class="body-error">⚠ ${request.bodyError}</p>` : ''}<pre class="body"><code>${shown}</code></pre>`
}

/** The request and the answer in full: headers (the token masked) and bodies. */
export function exchangeDetails(entry: JournalEntry): SafeHtml {
  const { request, response } = entry
  return html`<div class="panes">
<section class="pane"><h5>Request <span class="muted">#${entry.seq} · ${entry.time}</span></h5>
<p class="reqline"><code>${request.method} ${request.path}${request.search}</code></p>
<h6>Headers</h6>${headerList(request.headers)}
<h6>Body</h6>${requestBody(entry)}</section>
<section class="pane"><h5>Response <span class="muted">${entry.durationMs} ms</span></h5>
<p class="reqline"><code>${response.status} ${statusText(response.status)}</code></p>
<h6>Headers</h6>${headerList(response.headers)}
<h6>Body</h6>${response.body === undefined || response.status === 204 || request.method === 'HEAD' ? html`<p class="muted">No body.</p>` : html`<pre class="body"><code>${pretty(response.body)}</code></pre>`}</section>
</div>`
}

function finding(check: Check, describe: DiagramOptions['describeRule']): SafeHtml {
  const rule = describe?.(check.rule)
  // The message already ends by citing the interface (defineRule appends it), so the cite is not repeated.
  return html`<div class="finding" role="note"><p><span class="rule-badge"><span aria-hidden="true">✗</span> Broken rule <code>${check.rule}</code></span>${rule ? html` <span class="rule-title">${inlineCode(rule.title)}</span>` : ''}</p><p class="finding-message">${inlineCode(check.message)}</p></div>`
}

/** What the armed fault did to this answer, drawn on the arrow it broke. */
const FAULT_SAYS: Record<string, string> = {
  unavailable: '503 with Retry-After',
  'rate-limited': '429 with a Retry-After date',
  'server-error': '500 after recording the request',
  reset: 'connection reset after recording the request',
  hang: 'no answer: the request was held until the client gave up',
  truncated: 'the body was cut in half, then the connection closed',
  garbage: "a proxy's HTML page instead of JSON",
  slow: 'the right answer, late',
  'token-revoked': 'the token was revoked: 401 from here on',
}

function faultBadge(entry: JournalEntry): SafeHtml {
  const fault = entry.fault!
  const held = fault.kind === 'hang' ? ` (${Math.round(entry.durationMs)} ms)` : ''
  return html`<span class="fault-badge" title="${FAULT_SAYS[fault.kind] ?? fault.kind}"><span aria-hidden="true">⚡</span> fault <code>${fault.kind}</code>${fault.mode === 'once' ? ' once' : ''}: ${FAULT_SAYS[fault.kind] ?? fault.kind}${held}</span> `
}

function expectedCell(step: DiagramStep, pending = false): SafeHtml {
  if (step.kind === 'missing' && pending) {
    return html`<div class="expect pending"><span class="mark" aria-hidden="true">…</span> <span class="visually-hidden">Expected next:</span><code>${step.expected.method} ${step.expected.path}</code>${step.expected.note ? html`<small>${inlineCode(step.expected.note)}</small>` : ''}</div>`
  }
  if (step.kind === 'missing') {
    return html`<div class="expect missing"><span class="mark" aria-hidden="true">✗</span> <span class="visually-hidden">Expected but not sent:</span><code>${step.expected.method} ${step.expected.path}</code>${step.expected.note ? html`<small>${inlineCode(step.expected.note)}</small>` : ''}</div>`
  }
  if (step.expected) {
    return html`<div class="expect match"><span class="mark" aria-hidden="true">✓</span> <span class="visually-hidden">Expected here:</span><code>${step.expected.method} ${step.expected.path}</code>${step.expected.note ? html`<small>${inlineCode(step.expected.note)}</small>` : ''}</div>`
  }
  if (step.unexpected) {
    return html`<div class="expect extra"><span class="mark" aria-hidden="true">!</span> <span>Not a call the flow expects here</span></div>`
  }
  return html`<div class="expect"></div>`
}

/**
 * The diagram of one conversation as an HTML fragment (style it with DIAGRAM_CSS).
 * @example
 * toSequenceDiagram({ expected: result.expected, requests: result.requests, checks: result.checks }, { idPrefix: result.id })
 */
export function toSequenceDiagram(input: DiagramInput, options: DiagramOptions): SafeHtml {
  const expected = input.expected ?? []
  const hasExpected = expected.length > 0
  const steps = alignSteps(input.requests, expected)
  const { bySeq, atEnd } = failuresBySeq(input)
  const firstFailingSeq = steps.find((s) => s.kind === 'exchange' && bySeq.has(s.entry.seq))
  const firstFailure =
    firstFailingSeq?.kind === 'exchange' ? firstFailingSeq.entry.seq : atEnd.length > 0 ? 'end' : undefined
  const prefix = options.idPrefix.replace(/[^A-Za-z0-9_-]/g, '-')
  const drawing: Drawing = { hasExpected, bySeq, firstFailure, prefix, describeRule: options.describeRule }

  let number = 0
  // In a live visit, the expected calls after the last call made may still come.
  const lastMade = steps.reduce((at, step, i) => (step.kind === 'exchange' ? i : at), -1)
  const rows = steps.map((step, index) => {
    if (step.kind === 'missing' && options.inProgress && index > lastMade) return pendingRow(step, hasExpected)
    if (step.kind === 'missing') return missingRow(step, hasExpected)
    number++
    return exchangeRow(step, number, drawing)
  })
  rows.push(endRow(input, options, atEnd, drawing))

  return html`<figure class="diagram${hasExpected ? '' : ' no-expected'}" aria-labelledby="${prefix}-diagram-caption">
<figcaption id="${prefix}-diagram-caption" class="visually-hidden">Sequence diagram: the calls the client made${hasExpected ? ', beside the calls the flow expects' : ''}</figcaption>
<div class="actors" aria-hidden="true"><span class="step-no"></span><div class="actor-lane"><span class="actor client">Client</span><span class="actor service">Relay service</span></div>${hasExpected ? html`<span class="actor expected-head">The flow expects</span>` : ''}</div>
<ol class="steps">${rows}</ol>
</figure>`
}

/** What every row of one diagram is drawn with. */
interface Drawing {
  /** The flow's expected calls are known: each row has their column. */
  hasExpected: boolean
  /** The failed checks of each exchange, by its seq. */
  bySeq: ReadonlyMap<number, Check[]>
  /** Where it first went wrong: an exchange's seq, the end, or nowhere. */
  firstFailure: number | 'end' | undefined
  /** The diagram's element ids begin with it. */
  prefix: string
  describeRule: DiagramOptions['describeRule']
}

/** The failed checks, each at the exchange it names, or at the end when it names none the conversation has. */
function failuresBySeq(input: DiagramInput): { bySeq: Map<number, Check[]>; atEnd: Check[] } {
  const failed = input.checks.filter((c) => c.status === 'failed')
  const bySeq = new Map<number, Check[]>()
  const seqs = new Set(input.requests.map((e) => e.seq))
  const atEnd: Check[] = []
  for (const check of failed) {
    if (check.seq !== undefined && seqs.has(check.seq)) bySeq.set(check.seq, [...(bySeq.get(check.seq) ?? []), check])
    else atEnd.push(check)
  }
  return { bySeq, atEnd }
}

/** An expected call that may still come (a live visit). */
function pendingRow(step: DiagramStep & { kind: 'missing' }, hasExpected: boolean): SafeHtml {
  return html`<li class="step pending-step">
<div class="step-grid"><span class="step-no" aria-hidden="true">…</span>
<div class="lane"><div class="arrow req pending"><span class="label"><span class="visually-hidden">Expected next: </span>${step.expected.method} ${step.expected.path} <em>not yet</em></span></div></div>
${hasExpected ? expectedCell(step, true) : ''}</div></li>`
}

/** An expected call the client never sent. */
function missingRow(step: DiagramStep & { kind: 'missing' }, hasExpected: boolean): SafeHtml {
  return html`<li class="step missing-step">
<div class="step-grid"><span class="step-no" aria-hidden="true">–</span>
<div class="lane"><div class="arrow req ghost"><span class="label"><span class="visually-hidden">Not sent: </span>${step.expected.method} ${step.expected.path} <em>not sent</em></span></div></div>
${hasExpected ? expectedCell(step) : ''}</div></li>`
}

/** An exchange the client made: its request and answer as arrows, the rules it broke, its headers and bodies. */
function exchangeRow(
  step: DiagramStep & { kind: 'exchange' },
  number: number,
  { hasExpected, bySeq, firstFailure, prefix, describeRule }: Drawing,
): SafeHtml {
  const { entry } = step
  const here = bySeq.get(entry.seq) ?? []
  const isFirst = firstFailure === entry.seq
  const status = entry.response.status
  return html`<li class="step${here.length ? ' failed' : ''}${isFirst ? ' first-failure' : ''}" id="${prefix}-seq-${entry.seq}">
<div class="step-grid"><span class="step-no">${number}</span>
<div class="lane">
<div class="arrow req"><span class="label"><span class="visually-hidden">Client to service: </span><span class="method">${entry.request.method}</span> <span class="path">${entry.request.path}</span><span class="query">${entry.request.search}</span>${entry.auth !== 'ok' ? html` <span class="auth-flag">auth ${entry.auth}</span>` : ''}</span></div>
<div class="arrow res${entry.fault ? ' broken' : ''}"><span class="label"><span class="visually-hidden">Service to client: </span>${entry.fault ? faultBadge(entry) : ''}${status === 0 ? html`<span class="status s5xx">no answer</span>` : html`<span class="status ${statusClass(status)}">${status} ${statusText(status)}</span> <span class="answer">${summarizeAnswer(entry)}</span>`}</span></div>
</div>
${hasExpected ? expectedCell(step) : ''}</div>
${isFirst ? html`<p class="went-wrong"><span aria-hidden="true">▲</span> This is where it went wrong</p>` : ''}
${here.map((check) => finding(check, describeRule))}
<details class="exchange" id="${prefix}-exchange-${entry.seq}"><summary>Request and response #${number}: headers and bodies</summary>${exchangeDetails(entry)}</details>
</li>`
}

/** How the conversation ended, with the broken rules that name no exchange. */
function endRow(
  input: DiagramInput,
  options: DiagramOptions,
  atEnd: Check[],
  { hasExpected, firstFailure, prefix }: Drawing,
): SafeHtml {
  const endText =
    options.end?.text ?? (input.requests.length === 0 ? 'The client made no call.' : 'End of the conversation.')
  const endFailed = atEnd.length > 0 || options.end?.failed
  return html`<li id="${prefix}-end" class="step end-step${endFailed ? ' failed' : ''}${firstFailure === 'end' ? ' first-failure' : ''}">
<div class="step-grid"><span class="step-no" aria-hidden="true">■</span><div class="lane end-lane"><span class="end-text">${endText}</span></div>${hasExpected ? html`<div class="expect"></div>` : ''}</div>
${firstFailure === 'end' ? html`<p class="went-wrong"><span aria-hidden="true">▲</span> This is where it went wrong</p>` : ''}
${atEnd.map((check) => finding(check, options.describeRule))}
</li>`
}

/** The diagram's and the checks' styles (diagram.css), shared by the report and the live page. */
export const DIAGRAM_CSS = raw(css)
