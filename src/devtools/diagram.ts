// The sequence diagram of one conversation, shared by the HTML report and the live page: the calls
// a client made (client on the left, relay service on the right) beside the calls the flow expects,
// with each broken rule marked at the step where it broke. HTML and CSS, no script, no SVG: text
// wraps, each exchange opens with <details>, and it prints.
import { statusText } from '../core/status.js'
import { plural } from '../core/text.js'
import type { JournalEntry } from '../core/journal.js'
import { html, raw, type SafeHtml } from './live/html.js'
import type { Check, ExpectedCall } from '../core/rules/types.js'

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
export function alignSteps(requests: ReadonlyArray<JournalEntry>, expected: ReadonlyArray<ExpectedCall>): DiagramStep[] {
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
    if (entry.request.path.startsWith('/rental-companies')) {
      return `${plural(body.length, 'company', 'companies')}: ${clip(String(first?.name ?? first?.id ?? ''), 48)}${body.length > 1 ? ', …' : ''}`
    }
    if (entry.request.path.startsWith('/vehicles')) {
      return `${plural(body.length, 'vehicle', 'vehicles')}: ${clip(String(first?.plate ?? ''), 16)} id ${short(String(first?.id ?? ''))}${body.length > 1 ? ', …' : ''}`
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
<h6>Body</h6><pre class="body"><code>${pretty(response.body)}</code></pre></section>
</div>`
}

/**
 * A rule title with its backticked spans (`/rental-companies`) as code.
 * @example inlineCode('POST `/vehicles` with the plate') // POST <code>/vehicles</code> with the plate
 */
export function inlineCode(text: string): SafeHtml {
  return html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`
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
  const failed = input.checks.filter((c) => c.status === 'failed')
  const bySeq = new Map<number, Check[]>()
  const seqs = new Set(input.requests.map((e) => e.seq))
  const atEnd: Check[] = []
  for (const check of failed) {
    if (check.seq !== undefined && seqs.has(check.seq)) bySeq.set(check.seq, [...(bySeq.get(check.seq) ?? []), check])
    else atEnd.push(check)
  }
  const firstFailingSeq = steps.find((s) => s.kind === 'exchange' && bySeq.has(s.entry.seq))
  const firstFailure = firstFailingSeq?.kind === 'exchange' ? firstFailingSeq.entry.seq : atEnd.length > 0 ? 'end' : undefined
  const prefix = options.idPrefix.replace(/[^A-Za-z0-9_-]/g, '-')

  let number = 0
  // In a live visit, the expected calls after the last call made may still come.
  const lastMade = steps.reduce((at, step, i) => (step.kind === 'exchange' ? i : at), -1)
  const rows = steps.map((step, index) => {
    if (step.kind === 'missing' && options.inProgress && index > lastMade) {
      return html`<li class="step pending-step">
<div class="step-grid"><span class="step-no" aria-hidden="true">…</span>
<div class="lane"><div class="arrow req pending"><span class="label"><span class="visually-hidden">Expected next: </span>${step.expected.method} ${step.expected.path} <em>not yet</em></span></div></div>
${hasExpected ? expectedCell(step, true) : ''}</div></li>`
    }
    if (step.kind === 'missing') {
      return html`<li class="step missing-step">
<div class="step-grid"><span class="step-no" aria-hidden="true">–</span>
<div class="lane"><div class="arrow req ghost"><span class="label"><span class="visually-hidden">Not sent: </span>${step.expected.method} ${step.expected.path} <em>not sent</em></span></div></div>
${hasExpected ? expectedCell(step) : ''}</div></li>`
    }
    const { entry } = step
    number++
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
${here.map((check) => finding(check, options.describeRule))}
<details class="exchange" id="${prefix}-exchange-${entry.seq}"><summary>Request and response #${number}: headers and bodies</summary>${exchangeDetails(entry)}</details>
</li>`
  })

  const endText = options.end?.text ?? (input.requests.length === 0 ? 'The client made no call.' : 'End of the conversation.')
  const endFailed = atEnd.length > 0 || options.end?.failed
  rows.push(html`<li id="${prefix}-end" class="step end-step${endFailed ? ' failed' : ''}${firstFailure === 'end' ? ' first-failure' : ''}">
<div class="step-grid"><span class="step-no" aria-hidden="true">■</span><div class="lane end-lane"><span class="end-text">${endText}</span></div>${hasExpected ? html`<div class="expect"></div>` : ''}</div>
${firstFailure === 'end' ? html`<p class="went-wrong"><span aria-hidden="true">▲</span> This is where it went wrong</p>` : ''}
${atEnd.map((check) => finding(check, options.describeRule))}
</li>`)

  return html`<figure class="diagram${hasExpected ? '' : ' no-expected'}" aria-labelledby="${prefix}-diagram-caption">
<figcaption id="${prefix}-diagram-caption" class="visually-hidden">Sequence diagram: the calls the client made${hasExpected ? ', beside the calls the flow expects' : ''}</figcaption>
<div class="actors" aria-hidden="true"><span class="step-no"></span><div class="actor-lane"><span class="actor client">Client</span><span class="actor service">Relay service</span></div>${hasExpected ? html`<span class="actor expected-head">The flow expects</span>` : ''}</div>
<ol class="steps">${rows}</ol>
</figure>`
}

/** A check's status as a person reads it. */
export const STATUS_WORDS: Record<Check['status'], string> = { passed: 'passed', failed: 'failed', warning: 'warning', 'not-checked': 'not checked', skipped: 'skipped' }

const ICONS: Record<Check['status'], string> = { passed: '✓', failed: '✗', warning: '!', 'not-checked': '?', skipped: '–' }

/**
 * How a case's or visit's checks came out, in words: failed and passed always, the other statuses when any.
 * @example checkTally(checks) // '1 failed, 2 not checked, 9 passed, 3 did not apply'
 */
export function checkTally(checks: ReadonlyArray<Check>): string {
  const count = (status: Check['status']) => checks.filter((check) => check.status === status).length
  return [
    `${count('failed')} failed`,
    count('not-checked') ? `${count('not-checked')} not checked` : '',
    count('warning') ? `${count('warning')} warned` : '',
    `${count('passed')} passed`,
    count('skipped') ? `${count('skipped')} did not apply` : '',
  ]
    .filter(Boolean)
    .join(', ')
}

/**
 * Every check of a case or visit, failed first, each with its rule id, status in words and message.
 * @example toChecksList(result.checks)
 */
export function toChecksList(checks: ReadonlyArray<Check>, describeRule?: DiagramOptions['describeRule']): SafeHtml {
  const order: Record<Check['status'], number> = { failed: 0, 'not-checked': 1, warning: 2, passed: 3, skipped: 4 }
  const sorted = [...checks].sort((a, b) => order[a.status] - order[b.status])
  return html`<ul class="checks">${sorted.map((check) => {
    const rule = describeRule?.(check.rule)
    return html`<li class="check ${check.status}"><span class="check-status"><span aria-hidden="true">${ICONS[check.status]}</span> ${STATUS_WORDS[check.status]}</span> <code class="check-rule">${check.rule}</code>${rule ? html` <span class="rule-title">${inlineCode(rule.title)}</span>` : ''}${check.message ? html`<div class="check-message">${inlineCode(check.message)}</div>` : ''}</li>`
  })}</ul>`
}

/** The diagram's and the checks' styles, shared by the report and the live page. */
export const DIAGRAM_CSS = raw(`
.fault-badge{display:inline-block;font-size:.8em;font-weight:600;color:#93370d;background:#fffaeb;border:1px solid #fec84b;border-radius:4px;padding:0 .35rem;margin-right:.3rem}
.arrow.res.broken{border-color:#dc6803}
:root{--sans:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace}
code,pre{font-family:var(--mono)}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.diagram{margin:1rem 0;--line:#98a2b3;--pad-l:1.1rem;--pad-r:3.9rem}
.diagram .actors,.diagram .step-grid{display:grid;grid-template-columns:2.2rem minmax(0,1fr) minmax(11rem,30%);gap:0 1rem;align-items:stretch}
.diagram.no-expected .actors,.diagram.no-expected .step-grid{grid-template-columns:2.2rem minmax(0,1fr)}
.diagram .actor-lane{display:flex;justify-content:space-between;margin:0 var(--pad-r) 0 var(--pad-l)}
.diagram .actor{font-weight:600;font-size:.85rem;padding:.35rem .7rem;border:1.5px solid #344054;border-radius:6px;background:#fff;color:#101828;white-space:nowrap}
.diagram .actor.client{transform:translateX(-50%)}
.diagram .actor.service{transform:translateX(50%)}
.diagram .actor.expected-head{border-style:dashed;color:#475467;justify-self:start;align-self:center}
.diagram .steps{list-style:none;margin:0;padding:0}
.diagram .step{margin:0;padding:0}
.diagram .step-no{font:600 .8rem/1 var(--mono);color:#475467;text-align:right;padding-top:1.15rem}
.diagram .lane{position:relative;margin:0 var(--pad-r) 0 var(--pad-l);border-left:2px solid var(--line);border-right:2px solid var(--line);padding:.55rem 0 .45rem;min-width:0}
.diagram .arrow{position:relative;margin:0 .1rem .55rem;padding:0 .6rem .2rem;border-bottom:2px solid #344054;min-height:1.2rem}
.diagram .arrow .label{display:block;font-family:var(--mono);font-size:.82rem;overflow-wrap:anywhere;line-height:1.35}
.diagram .arrow.req::after,.diagram .arrow.res::after{content:"";position:absolute;bottom:-6px;border:5px solid transparent}
.diagram .arrow.req::after{right:-1px;border-right:0;border-left:9px solid #344054}
.diagram .arrow.res{border-bottom-style:dashed;border-bottom-color:#667085;text-align:right}
.diagram .arrow.res::after{left:-1px;border-left:0;border-right:9px solid #667085}
.diagram .arrow.ghost{border-bottom-color:#b42318;border-bottom-style:dotted;color:#b42318}
.diagram .arrow.ghost::after{border-left-color:#b42318}
.diagram .arrow.ghost em{font-family:var(--sans);font-style:normal;font-weight:600;margin-left:.4rem}
.diagram .arrow.pending{border-bottom-color:#98a2b3;border-bottom-style:dotted;color:#475467}
.diagram .arrow.pending::after{border-left-color:#98a2b3}
.diagram .arrow.pending em{font-family:var(--sans);font-style:normal;margin-left:.4rem}
.diagram .expect.pending{color:#475467}
.diagram .method{font-weight:700}
.diagram .query{color:#475467}
.diagram .auth-flag{font-family:var(--sans);font-size:.75rem;font-weight:600;color:#b42318;border:1px solid currentColor;border-radius:4px;padding:0 .3rem;margin-left:.3rem;white-space:nowrap}
.diagram .status{font-weight:700}
.diagram .status.ok{color:#067647}
.diagram .status.err{color:#b42318}
.diagram .answer{color:#344054}
.diagram .expect{font-size:.85rem;padding:.7rem 0 .4rem;min-width:0;overflow-wrap:anywhere}
.diagram .expect code{font-size:.8rem}
.diagram .expect small{display:block;color:#475467;margin-top:.15rem}
.diagram .expect .mark{display:inline-block;width:1.1rem;font-weight:700}
.diagram .expect.match .mark{color:#067647}
.diagram .expect.missing{color:#b42318}
.diagram .expect.missing .mark{color:#b42318}
.diagram .expect.extra{color:#93370d}
.diagram .expect.extra .mark{color:#93370d}
.diagram .step.failed>.step-grid .lane{background:linear-gradient(90deg,transparent,#fef3f2 12%,#fef3f2 88%,transparent)}
.diagram .went-wrong{margin:.1rem 0 .3rem 3.2rem;font-weight:700;color:#b42318;font-size:.85rem}
.diagram .finding{margin:.2rem 0 .6rem 3.2rem;padding:.55rem .8rem;border:1px solid #fda29b;border-left:4px solid #b42318;border-radius:6px;background:#fef3f2;color:#101828}
.diagram .finding p{margin:0}
.diagram .finding-message{margin-top:.25rem!important;line-height:1.45;overflow-wrap:anywhere}
.rule-badge{display:inline;font-weight:700;color:#b42318;overflow-wrap:anywhere}
.rule-badge code{font-size:.85rem}
.rule-title{color:#344054}
.diagram .exchange{margin:0 0 .5rem 3.2rem}
.diagram .exchange>summary{cursor:pointer;font-size:.8rem;color:#1d4ed8;padding:.15rem .2rem;width:max-content;max-width:100%;border-radius:4px}
.diagram .exchange[open]>summary{margin-bottom:.4rem}
.diagram .end-lane{padding:.6rem .8rem;font-size:.85rem;color:#344054}
.diagram .end-step.failed .end-text{color:#b42318;font-weight:600}
.diagram .missing-step .step-no{color:#b42318}
.panes{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:.75rem}
.pane{border:1px solid #d0d5dd;border-radius:6px;padding:.5rem .75rem;background:#fcfcfd;min-width:0}
.pane h5{margin:.1rem 0 .4rem;font-size:.85rem}
.pane h6{margin:.6rem 0 .2rem;font-size:.72rem;text-transform:uppercase;letter-spacing:.04em;color:#475467}
.pane .reqline{margin:0}
.pane .reqline code{font-weight:600;overflow-wrap:anywhere}
.headers{margin:0;font-family:var(--mono);font-size:.78rem;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0 .8rem}
.headers div{display:contents}
.headers dt{color:#475467}
.headers dd{margin:0;overflow-wrap:anywhere}
.body{margin:0;padding:.5rem .6rem;background:#f2f4f7;border-radius:4px;font-family:var(--mono);font-size:.78rem;line-height:1.45;white-space:pre-wrap;overflow-wrap:anywhere;max-height:24rem;overflow:auto}
.body-error{color:#b42318;font-size:.8rem;margin:.2rem 0}
.muted{color:#475467;font-weight:400}
.checks{list-style:none;margin:.5rem 0;padding:0}
.check{padding:.4rem .6rem;border-left:4px solid #d0d5dd;margin-bottom:.3rem;background:#f9fafb;border-radius:0 4px 4px 0}
.check.failed{border-left-color:#b42318;background:#fef3f2}
.check.passed{border-left-color:#067647}
.check-status{display:inline-block;min-width:7.2rem;font-weight:700;font-size:.8rem;text-transform:uppercase;letter-spacing:.03em}
.check.failed .check-status{color:#b42318}
.check.passed .check-status{color:#067647}
.check.skipped .check-status{color:#475467}
.check.not-checked{border-left-color:#6941c6;background:#f9f5ff}
.check.not-checked .check-status{color:#6941c6}
.check.warning{border-left-color:#b54708;background:#fffaeb}
.check.warning .check-status{color:#b54708}
.check-rule{font-size:.82rem;font-weight:600}
.check-message{margin:.2rem 0 0 7.5rem;font-size:.85rem;color:#344054;overflow-wrap:anywhere}
@media (max-width:720px){.diagram .actors,.diagram .step-grid{grid-template-columns:1.6rem minmax(0,1fr)}.diagram .expect{grid-column:2;padding-top:0}.diagram .expected-head{display:none}.diagram .expect.match::before,.diagram .expect.missing::before,.diagram .expect.pending::before{content:"Expected: ";color:#475467}.diagram .finding,.diagram .exchange,.diagram .went-wrong{margin-left:1.6rem}.check-message{margin-left:0}}
@media print{.diagram .exchange>summary{color:#101828}.diagram .step{break-inside:avoid}.body{max-height:none;overflow:visible;background:#fff;border:1px solid #d0d5dd}.pane{background:#fff}}
`)
