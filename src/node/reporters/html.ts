// The HTML conformance report: one self-contained page (report.css, report.js and the diagram's CSS
// inlined, nothing fetched) that shows, case by case, the calls a client made beside the calls its
// flow expects, and names each broken rule at the step where it broke. Written by `relay-mock conform --html FILE`.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { calibrationLine } from './console.js'
import { DIAGRAM_CSS, checkTally, inlineCode, toChecksList, toSequenceDiagram, type DiagramOptions } from '../../devtools/diagram.js'
import { CASE_BADGES } from '../../devtools/marks.js'
import { html, raw, type SafeHtml } from '../../devtools/live/html.js'
import { REPORT_CSS, REPORT_JS } from './assets.generated.js'
import { ruleById } from '../../core/rules/index.js'
import { allOf, capitalize, plural } from '../../core/text.js'
import { describeSettled, toHeld, type HeldAssumption } from '../../core/rules/held.js'
import { cellAt, toMatrix, type Matrix } from '../../core/rules/matrix.js'
import type { CaseResult, CaseStatus, Check, Reporter, RunResult } from '../../core/rules/types.js'

/** The matrix: a row per step, a column per fault kind and mode; each cell links to its case's diagram. */
function matrixTable(matrix: Matrix, anchorOf: (caseId: string) => string): SafeHtml {
  return html`<section class="head-section" aria-labelledby="matrix-title"><h2 id="matrix-title">Resilience matrix</h2>
<p class="muted">Each cell is a case: the step on the left failed in the way its column names, once (the first request only) or always. Open a cell to see the conversation, the fault drawn on the arrow it broke.</p>
<div class="matrix-wrap"><table class="matrix"><thead><tr><th scope="col" rowspan="2">Step</th>${matrix.kinds.map((kind) => html`<th scope="colgroup" colspan="${matrix.modes.length}"><code>${kind}</code></th>`)}</tr>
<tr>${matrix.kinds.map(() => matrix.modes.map((mode) => html`<th scope="col" class="mode">${mode}</th>`))}</tr></thead>
<tbody>${matrix.steps.map((step) => html`<tr><th scope="row"><code>${step}</code></th>${matrix.kinds.map((kind) => matrix.modes.map((mode) => {
    const cell = cellAt(matrix, step, kind, mode)
    if (!cell) return html`<td class="cell none" title="not run">·</td>`
    const why = cell.rules.length ? `: ${cell.rules.join(', ')}` : ''
    const { icon, text } = CASE_BADGES[cell.status]
    return html`<td class="cell ${cell.status}"><a href="#${anchorOf(cell.caseId)}" title="${step} · ${kind} · ${mode}: ${text}${why}"><span aria-hidden="true">${icon}</span><span class="visually-hidden">${step} ${kind} ${mode}: ${text}${why}</span></a></td>`
  }))}</tr>`)}</tbody></table></div></section>`
}

export interface HtmlReportOptions {
  /** The time the page says it was written; default now. Tests freeze it. */
  now?: Date
  /** A rule's title and interface clause, by id (default: the rule table). */
  describeRule?: DiagramOptions['describeRule']
  /** The page's title; default "relay-mock conformance report". */
  title?: string
  /** A note under the summary, e.g. that a HAR was checked without a client. */
  note?: string
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'case'
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** `2026-11-21 10:00:00 UTC` from an ISO time; the text as given when it is not one. */
function readableTime(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

function badge(status: CaseStatus): SafeHtml {
  const { icon, text } = CASE_BADGES[status]
  return html`<span class="pill ${status}"><span aria-hidden="true">${icon}</span> ${text}</span>`
}

/** A case id that may break after each `/` on a narrow screen (the long variant ids would squeeze the titles beside them). */
function breakable(id: string): SafeHtml {
  return html`${id.split('/').map((part, i) => html`${i ? html`/<wbr>` : ''}${part}`)}`
}

/**
 * The variant cases beside the matrix: a row per assumption, whether the client held, and under each
 * alternative a badge per case that ran there, with that case's own status, named by the flow case it
 * repeats (the last part of its id: `variants/create.status=200-no-location/advanced-new-vehicle`).
 */
function heldTable(held: ReadonlyArray<HeldAssumption>, caseOf: (caseId: string) => { anchor: string; status: CaseStatus }): SafeHtml {
  const caseBadge = (id: string) => {
    const { anchor, status } = caseOf(id)
    const { icon, text } = CASE_BADGES[status]
    return html`<a class="pill case-pill ${status}" href="#${anchor}" title="${id}: ${text}"><span aria-hidden="true">${icon}</span> ${id.slice(id.lastIndexOf('/') + 1)}<span class="visually-hidden">: ${text}</span></a>`
  }
  return html`<section class="head-section" aria-labelledby="variants-title"><h2 id="variants-title">Where the interface is silent</h2>
<p class="muted">The flow cases again, where the mock answered as a real service may instead of as relay-mock chose (<code>relay-mock assumptions</code> lists the choices). Each badge is a case, named by the flow case it repeats.</p>
<table class="index held"><thead><tr><th scope="col">Held</th><th scope="col">Assumption</th><th scope="col">Under each alternative</th></tr></thead>
<tbody>${held.map((entry) => html`<tr${entry.settled ? html` class="settled"` : ''}><td>${entry.alternatives.length > 0 ? badge(entry.held ? 'passed' : 'failed') : html`<span class="muted">settled</span>`}</td><td><code>${entry.assumption}</code> <span class="muted">${inlineCode(entry.question)}</span>${entry.settled ? html`<p class="settled">${inlineCode(describeSettled(entry.settled))}</p>` : ''}</td><td><ul class="alternatives">${entry.alternatives.map((alternative) => html`<li><code>${alternative.id}</code> ${alternative.caseIds.map(caseBadge)}</li>`)}</ul></td></tr>`)}</tbody></table>
</section>`
}

/** How the client process ended, in a sentence: the diagram's last step. */
export function endOfCase(result: CaseResult): { text: string; failed: boolean } {
  const time = seconds(result.durationMs)
  let text: string
  let failed = false
  if (!result.visit && result.exitCode === null && !result.signal && !result.timedOut) {
    return { text: 'End of the captured visit.', failed: false }
  }
  if (result.timedOut) {
    text = `The client did not finish: it was stopped after ${time} (the time limit).`
    failed = true
  } else if (result.signal) {
    text = `The client was ended by the signal ${result.signal} after ${time}.`
    failed = true
  } else if (result.exitCode === null) {
    text = `The client finished after ${time}.`
  } else {
    text = `The client exited with code ${result.exitCode} after ${time}${result.exitCode === 0 ? '' : ' (not 0: the customer’s payment did not complete)'}.`
    failed = result.exitCode !== 0
  }
  if (result.report) {
    text += ` It reported: ${result.report.outcome}${result.report.paymentId ? ` (payment ${result.report.paymentId})` : ''}${result.report.message ? `, “${result.report.message}”` : ''}.`
  }
  if (result.expectedOutcomes && result.expectedOutcomes.length > 1) text += ` Expected outcome of this case: ${result.expectedOutcomes.join(' or ')}.`
  else if (result.expectedOutcome) text += ` Expected outcome of this case: ${result.expectedOutcome}.`
  return { text, failed }
}

function visitFacts(result: CaseResult): SafeHtml {
  const v = result.visit
  if (!v) return html`<p class="muted">Not known: this conversation was captured, not run by relay-mock, and no visit was given for it (<code>--visits FILE</code>), so the rules that compare the requests with the visit’s plate, owner, dates or amount were not checked.</p>`
  const rows: Array<[string, string]> = [
    ['Plate', v.plate],
    ['Owner kennitala', v.ownerKennitala],
    ['Registration date', v.registrationDate],
    ['Visit', v.visitStart === v.visitEnd ? `${v.visitStart} (start equals end)` : `${v.visitStart} → ${v.visitEnd}`],
    ['Amount', `${v.amount} ${v.currency}`],
    ['Location id', v.locationId],
  ]
  return html`<dl class="visit">${rows.filter(([, value]) => value).map(([name, value]) => html`<div><dt>${name}</dt><dd><code>${value}</code></dd></div>`)}</dl>`
}

function processOutput(result: CaseResult): SafeHtml {
  const out = result.stdout.trim()
  const err = result.stderr.trim()
  if (!out && !err && !result.reportError) return html``
  return html`<details class="output"><summary>Client output${err ? ' (stderr has text)' : ''}</summary>
${result.reportError ? html`<p class="body-error">⚠ RELAY_RESULT_FILE: ${result.reportError}</p>` : ''}
${out ? html`<h4>stdout</h4><pre class="body"><code>${out}</code></pre>` : ''}
${err ? html`<h4>stderr</h4><pre class="body"><code>${err}</code></pre>` : ''}
</details>`
}

/** The checks of one status as a list: rule id (linked to its step when it has one) and message. */
function checkItems(checks: Check[], result: CaseResult, anchor: string): SafeHtml {
  return html`<ul>${checks.map((check) => html`<li><a href="#${check.seq !== undefined && result.requests.some((e) => e.seq === check.seq) ? `${anchor}-seq-${check.seq}` : `${anchor}-end`}"><code>${check.rule}</code></a> ${inlineCode(check.message)}</li>`)}</ul>`
}

function caseSection(result: CaseResult, anchor: string, options: HtmlReportOptions): SafeHtml {
  const of = (status: Check['status']) => result.checks.filter((c) => c.status === status)
  const failed = of('failed')
  const unchecked = of('not-checked')
  const warned = of('warning')
  const ok = result.status === 'passed'
  const end = endOfCase(result)
  return html`<section class="case ${result.status}" id="${anchor}" aria-labelledby="${anchor}-title">
<details class="case-box"${ok || result.status === 'warning' ? '' : ' open'}>
<summary><h2 id="${anchor}-title">${badge(result.status)} <code class="case-id">${result.id}</code> <span class="case-title">${inlineCode(result.title)}</span></h2>
<span class="case-meta">${result.flow} flow · scenario <code>${result.scenario}</code> · ${plural(result.requests.length, 'request')} · ${seconds(result.durationMs)}</span></summary>
<div class="case-body">
${failed.length ? html`<div class="wrong"><h3>What went wrong</h3>${checkItems(failed, result, anchor)}</div>` : ''}
${result.sameAs ? html`<div class="echoed"><h3>The same ${result.sameAs.warned ? 'warning' : 'defect'} as in <code>${result.sameAs.case}</code></h3><p>The client ${result.sameAs.warned ? 'was warned on' : 'failed'} this visit under relay-mock's choice already (${result.sameAs.rules.map((rule, i) => html`${i > 0 ? ', ' : ''}<code>${rule}</code>`)}): what ${result.sameAs.warned ? 'it found' : 'failed'} here again is counted there, once, and not as this alternative's.</p>${checkItems(of('echo').map((check) => ({ ...check, message: check.echoed ?? check.message })), result, anchor)}</div>` : ''}
${result.addedFor ? html`<p class="note">Not selected: run to judge the variant cases that repeat it (${result.addedFor.map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id}</code>`)}).</p>` : ''}
${result.status === 'not-reached' ? html`<div class="wrong"><h3>Not reached</h3><p>The client never made the request this case's fault breaks${result.faults?.length ? html` (<code>${result.faults.map((f) => `${f.route}=${f.kind}:${f.mode}`).join(', ')}</code>)` : ''}, so what the case exists to check was not seen: not a pass.</p></div>` : ''}
${unchecked.length ? html`<div class="unchecked"><h3>What could not be checked</h3><p>These rules need an input this ${result.scenario === 'captured' ? 'capture' : 'case'} did not have, so the ${result.scenario === 'captured' ? 'visit' : 'case'} is partial, not passed.</p>${checkItems(unchecked, result, anchor)}</div>` : ''}
${warned.length ? html`<div class="warned"><h3>Warnings</h3><p>Safe, but not the best a client can do (a run fails on them only with <code>--strict</code>).</p>${checkItems(warned, result, anchor)}</div>` : ''}
${ok ? html`<p class="right"><span aria-hidden="true">✓</span> The client made the calls this case expects and broke no rule.</p>` : ''}
<h3>${result.visit ? 'The visit the client was given' : 'The visit'}</h3>
${visitFacts(result)}
<h3>The conversation</h3>
${toSequenceDiagram({ expected: result.expected, requests: result.requests, checks: result.checks }, { idPrefix: anchor, end, describeRule: options.describeRule })}
${processOutput(result)}
<details class="all-checks"><summary>${capitalize(plural(result.checks.length, 'check'))}: ${checkTally(result.checks)}</summary>${toChecksList(result.checks, options.describeRule)}</details>
</div>
</details>
</section>`
}

/** The page's headline: what the run came to, e.g. "2 of 5 cases failed" or "All 3 visits passed". */
function headingOf(summary: RunResult['summary'], noun: string): string {
  const { total } = summary
  if (total === 0) return `No ${noun} ran`
  const of = (n: number) => (n === total ? capitalize(allOf(total, noun)) : `${n} of ${plural(total, noun)}`)
  // A flaky case (conform --repeat) failed some of its runs: it did not pass.
  const failed = summary.failed + summary.flaky
  if (failed > 0) return `${of(failed)} failed${summary.flaky ? ` (${summary.flaky} flaky)` : ''}`
  const be = (n: number, past = false) => (n === 1 ? (past ? 'was' : 'is') : past ? 'were' : 'are')
  if (summary.notReached > 0) return `${of(summary.notReached)} ${be(summary.notReached, true)} not reached`
  if (summary.partial > 0) return `${of(summary.partial)} ${be(summary.partial)} partial: not every rule could be checked${summary.allowPartial ? ' (allowed)' : ''}`
  if (summary.warning > 0) return `${capitalize(allOf(total, noun))} passed, ${summary.warning} with a warning${summary.strict ? ' (--strict: not conformant)' : ''}`
  return `${capitalize(allOf(total, noun))} passed`
}

/**
 * The report as one HTML page.
 * @example
 * const page = toHtmlReport(await runConformance({ client: './client.sh' }))
 */
export function toHtmlReport(result: RunResult, options: HtmlReportOptions = {}): string {
  const { summary, cases } = result
  options = { describeRule: ruleById, ...options }
  const now = options.now ?? new Date()
  const title = options.title ?? 'relay-mock conformance report'
  const used = new Set<string>()
  const anchors = cases.map((c) => {
    let anchor = `case-${slug(c.id)}`
    for (let n = 2; used.has(anchor); n++) anchor = `case-${slug(c.id)}-${n}`
    used.add(anchor)
    return anchor
  })
  const matrix = toMatrix(cases)
  const held = toHeld(cases, summary.calibration)
  // A capture (conform --from) has visits, not cases: no client ran for it here.
  const captured = cases.length > 0 && cases.every((c) => c.scenario === 'captured')
  const noun = captured ? 'visit' : 'case'
  const allPassed = summary.conformant
  const verdictClass = summary.conformant ? 'passed' : summary.failed + summary.flaky + summary.notReached === 0 && summary.partial > 0 ? 'partial' : 'failed'
  const heading = headingOf(summary, noun)
  const brokenWhere = (rule: string) =>
    cases.map((c, i) => ({ c, anchor: anchors[i] })).filter(({ c }) => c.checks.some((k) => k.rule === rule && k.status === 'failed'))

  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<meta name="generator" content="relay-mock ${summary.version}">
<title>${allPassed ? '✓' : '✗'} ${heading} · ${title}</title>
<style>${DIAGRAM_CSS}${raw(REPORT_CSS)}</style>
</head>
<body>
<a class="skip" href="#cases">Skip to the ${captured ? 'visits' : 'cases'}</a>
<div class="page">
<header class="report-head">
<p class="eyebrow">${title}</p>
<h1><span class="verdict ${verdictClass}"><span aria-hidden="true">${allPassed ? '✓' : verdictClass === 'partial' ? '?' : '✗'}</span> ${heading}</span></h1>
${captured
    ? html`<p class="lead">relay-mock read the conversation below, cut it into visits (each starts at <code>GET /rental-companies</code> or <code>POST /payment</code>), and checked every call against the rules of the vehicle visit payment relay service’s interface. No client ran here: the rules that need a visit’s inputs (the visit, the token, the client’s exit status) were checked where the capture carried them (relay-mock’s own HAR does, and <code>--visits FILE</code> gives them) and are marked <em>not checked</em> where it did not.</p>`
    : html`<p class="lead">relay-mock ran the client below against a mock of the vehicle visit payment relay service, once per case, each case with its own world and token, and checked every call against the rules of the service’s interface.</p>`}
<ul class="counts" aria-label="Totals">
<li>${plural(summary.total, noun)}</li>
<li class="passed"><span aria-hidden="true">✓</span> ${summary.passed} passed</li>
${summary.warning ? html`<li class="warning"><span aria-hidden="true">!</span> ${summary.warning} warned</li>` : ''}
<li class="${summary.partial ? 'partial' : ''}"><span aria-hidden="true">?</span> ${summary.partial} partial</li>
<li class="${summary.failed ? 'failed' : ''}"><span aria-hidden="true">✗</span> ${summary.failed} failed</li>
${summary.echo ? html`<li class="echo"><span aria-hidden="true">=</span> ${summary.echo} the same defect again</li>` : ''}
${summary.notReached ? html`<li class="failed"><span aria-hidden="true">–</span> ${summary.notReached} not reached</li>` : ''}
<li class="${summary.rulesBroken.length ? 'failed' : ''}">${plural(summary.rulesBroken.length, 'rule')} broken</li>
${summary.rulesNotChecked.length ? html`<li class="partial">${plural(summary.rulesNotChecked.length, 'rule')} not checked</li>` : ''}
</ul>
<dl class="facts">
<div class="wide"><dt>${captured ? 'Source' : 'Client'}</dt><dd><code>${summary.client}</code></dd></div>
<div><dt>Flows</dt><dd>${summary.flows.join(', ')}</dd></div>
<div><dt>Started</dt><dd>${readableTime(summary.startedAt)}</dd></div>
<div><dt>Time</dt><dd>${seconds(summary.wallMs)} in all; ${seconds(summary.clientMs)} in the client</dd></div>
<div><dt>relay-mock</dt><dd>version ${summary.version}</dd></div>
${summary.calibration ? html`<div class="wide"><dt>Calibrated</dt><dd>${calibrationLine(summary.calibration)}</dd></div>` : ''}
</dl>
${options.note ? html`<p class="note">${options.note}</p>` : ''}
${summary.rulesBroken.length
    ? html`<section class="head-section" aria-labelledby="broken-title"><h2 id="broken-title">Rules broken</h2><ul class="broken">${summary.rulesBroken.map((rule) => {
        const described = options.describeRule?.(rule)
        return html`<li><code>${rule}</code>${described ? html` — ${inlineCode(described.title)}` : ''}<span class="where">in ${brokenWhere(rule).map(({ c, anchor }, i) => html`${i ? ', ' : ''}<a href="#${anchor}">${c.id}</a>`)}</span></li>`
      })}</ul></section>`
    : ''}
${matrix ? html`${matrixTable(matrix, (id) => anchors[cases.findIndex((c) => c.id === id)])}
` : ''}${held ? html`${heldTable(held, (id) => {
    const i = cases.findIndex((c) => c.id === id)
    return { anchor: anchors[i], status: cases[i].status }
  })}
` : ''}<section class="head-section" aria-labelledby="index-title"><h2 id="index-title">${captured ? 'Visits' : 'Cases'}</h2>
<table class="index cases"><thead><tr><th scope="col">Result</th><th scope="col">${captured ? 'Visit' : 'Case'}</th><th scope="col">What it exercises</th><th scope="col" class="num">Time</th></tr></thead>
<tbody>${cases.map((c, i) => html`<tr><td>${badge(c.status)}</td><td><a href="#${anchors[i]}"><code>${breakable(c.id)}</code></a></td><td>${inlineCode(c.title)}${c.status === 'failed' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'failed').length, 'rule')} broken</span>` : ''}${c.status === 'partial' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'not-checked').length, 'rule')} not checked</span>` : ''}${c.sameAs ? html` <span class="muted">— same ${c.sameAs.warned ? 'warning' : 'defect'} as in <code>${c.sameAs.case}</code></span>` : ''}</td><td class="num">${seconds(c.durationMs)}</td></tr>`)}</tbody></table>
</section>
<div class="legend"><p><strong>How to read a ${noun}.</strong> Each ${noun} draws the conversation: your client on the left, the relay service on the right; a solid arrow is a request, the dashed arrow under it is the answer. The right-hand column lists the calls the flow expects: <span aria-hidden="true">✓</span> the call was expected there, <span aria-hidden="true">✗</span> an expected call the client never made, <span aria-hidden="true">!</span> a call the flow does not expect. A red box names the broken rule and explains it. Open a request to see its headers (the token masked) and bodies.</p></div>
<div class="toolbar"><button type="button" data-fold="open">Open all ${noun}s</button><button type="button" data-fold="close">Fold all ${noun}s</button></div>
</header>
<main id="cases" tabindex="-1">
${cases.map((c, i) => caseSection(c, anchors[i], options))}
</main>
<footer>Written by relay-mock ${summary.version} on ${readableTime(now.toISOString())}.</footer>
</div>
<script>${raw(REPORT_JS)}</script>
</body>
</html>
`
  return page.value
}

/**
 * A reporter that writes the HTML report to `file` when the run ends.
 * @example runConformance({ client: './client.sh', reporters: [createHtmlReporter({ file: 'report.html' })] })
 */
export function createHtmlReporter({ file, ...options }: HtmlReportOptions & { file: string }): Reporter {
  return {
    async onRunEnd(result: RunResult) {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, toHtmlReport(result, options), 'utf8')
    },
  }
}
