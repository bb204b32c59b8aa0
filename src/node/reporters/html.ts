// The HTML conformance report: one self-contained page (inline CSS and script, nothing fetched)
// that shows, case by case, the calls a client made beside the calls its flow expects, and names
// each broken rule at the step where it broke. Written by `relay-mock conform --html FILE`.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { DIAGRAM_CSS, checkTally, inlineCode, toChecksList, toSequenceDiagram, type DiagramOptions } from '../../devtools/diagram.js'
import { html, raw, type SafeHtml } from '../../devtools/live/html.js'
import { ruleById } from '../../core/rules/index.js'
import { allOf, capitalize, plural } from '../../core/text.js'
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

/** Each case status: its mark and its word. */
const CASE_BADGES: Record<CaseStatus, { icon: string; text: string }> = {
  passed: { icon: '✓', text: 'Passed' },
  warning: { icon: '!', text: 'Warning' },
  partial: { icon: '?', text: 'Partial' },
  failed: { icon: '✗', text: 'Failed' },
  'not-reached': { icon: '–', text: 'Not reached' },
  flaky: { icon: '~', text: 'Flaky' },
}

function badge(status: CaseStatus): SafeHtml {
  const { icon, text } = CASE_BADGES[status]
  return html`<span class="pill ${status}"><span aria-hidden="true">${icon}</span> ${text}</span>`
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

const PAGE_CSS = raw(`
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:var(--sans);font-size:16px;line-height:1.5;color:#101828;background:#f5f6f8}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px;border-radius:3px}
code{font-size:.9em}
.page{max-width:72rem;margin:0 auto;padding:1.5rem 1.25rem 3rem}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:1rem}
.report-head{background:#fff;border:1px solid #e4e7ec;border-radius:10px;padding:1.4rem 1.6rem;margin-bottom:1.25rem}
.eyebrow{margin:0;color:#475467;font-size:.85rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase}
h1{margin:.3rem 0 .5rem;font-size:1.75rem;line-height:1.25}
h1 .verdict.failed{color:#b42318}
h1 .verdict.passed{color:#067647}
h1 .verdict.partial{color:#6941c6}
.lead{margin:.2rem 0 1rem;color:#344054;max-width:52rem}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.6rem 1.5rem;margin:0 0 1rem}
.facts dt{font-size:.78rem;font-weight:600;color:#475467;text-transform:uppercase;letter-spacing:.04em}
.facts dd{margin:0;overflow-wrap:anywhere}
.facts .wide{grid-column:1/-1}
.counts{display:flex;flex-wrap:wrap;gap:.6rem;margin:0 0 1rem;padding:0;list-style:none}
.counts li{padding:.35rem .8rem;border-radius:999px;font-weight:600;font-size:.9rem;border:1px solid #d0d5dd;background:#f9fafb}
.counts .passed{color:#067647;border-color:#abefc6;background:#ecfdf3}
.counts .failed{color:#b42318;border-color:#fda29b;background:#fef3f2}
.counts .partial{color:#6941c6;border-color:#d6bbfb;background:#f9f5ff}
.counts .warning{color:#b54708;border-color:#fedf89;background:#fffaeb}
h2{font-size:1.15rem;margin:0}
h3{font-size:1rem;margin:1.2rem 0 .4rem}
.head-section h2{font-size:1rem;margin:1rem 0 .4rem}
.broken{margin:0;padding:0;list-style:none}
.broken li{padding:.45rem .7rem;border-left:4px solid #b42318;background:#fef3f2;margin-bottom:.35rem;border-radius:0 6px 6px 0}
.broken .where{display:block;font-size:.85rem;color:#475467}
.index{width:100%;border-collapse:collapse;font-size:.9rem}
.index th,.index td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e4e7ec;vertical-align:top}
.index th{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:#475467}
.index td.num,.index th.num{text-align:right;white-space:nowrap}
.index td:first-child,.index td:nth-child(2){white-space:nowrap}
.legend{font-size:.88rem;color:#344054;background:#f9fafb;border:1px solid #e4e7ec;border-radius:8px;padding:.6rem .9rem;margin-top:1rem}
.legend p{margin:.2rem 0}
.toolbar{display:flex;gap:.5rem;margin:1rem 0 0}
button{font:inherit;font-size:.85rem;padding:.35rem .8rem;border:1px solid #98a2b3;border-radius:6px;background:#fff;color:#101828;cursor:pointer}
button:hover{background:#f2f4f7}
.pill{display:inline-block;font-size:.78rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em;padding:.15rem .55rem;border-radius:999px;vertical-align:.12em;margin-right:.3rem}
.pill.passed{color:#067647;background:#ecfdf3;border:1px solid #abefc6}
.pill.failed{color:#b42318;background:#fef3f2;border:1px solid #fda29b}
.pill.partial{color:#6941c6;background:#f9f5ff;border:1px solid #d6bbfb}
.pill.warning{color:#b54708;background:#fffaeb;border:1px solid #fedf89}
.pill.not-reached{color:#b42318;background:#fff;border:1px dashed #b42318}
.pill.flaky{color:#b42318;background:#fef3f2;border:1px dashed #fda29b}
.matrix-wrap{overflow-x:auto}
.matrix{border-collapse:collapse;font-size:.85rem}
.matrix th,.matrix td{border:1px solid #e4e7ec;padding:.2rem .35rem;text-align:center}
.matrix th[scope=row]{text-align:left;white-space:nowrap}
.matrix .mode{font-weight:400;color:#475467;font-size:.75rem}
.matrix .cell a{display:block;text-decoration:none;font-weight:700;min-width:1.6rem}
.matrix .passed{background:#ecfdf3}.matrix .passed a{color:#067647}
.matrix .warning{background:#fffaeb}.matrix .warning a{color:#93370d}
.matrix .failed,.matrix .flaky{background:#fef3f2}.matrix .failed a,.matrix .flaky a{color:#b42318}
.matrix .not-reached{background:#fff;outline:1px dashed #b42318;outline-offset:-3px}.matrix .not-reached a{color:#b42318}
.matrix .partial a{color:#6941c6}.matrix .none{color:#475467}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.muted{color:#475467}
.case{background:#fff;border:1px solid #e4e7ec;border-radius:10px;margin-bottom:1rem}
.case.failed{border-color:#fda29b;border-left:5px solid #b42318}
.case.passed{border-left:5px solid #067647}
.case.partial{border-left:5px solid #6941c6}
.case.warning{border-left:5px solid #b54708}
.case.not-reached{border-left:5px dashed #b42318}
.case.flaky{border-left:5px dashed #b42318}
.case-box>summary{cursor:pointer;padding:.9rem 1.2rem .9rem 2.6rem;list-style:none;position:relative;border-radius:8px}
.case-box>summary::-webkit-details-marker{display:none}
.case-box>summary::before{content:"▸";position:absolute;left:1rem;top:.95rem;font-size:1.1rem;color:#475467;line-height:1.4}
.case-box[open]>summary::before{content:"▾"}
.case-box>summary:hover{background:#f9fafb}
.case-box>summary h2{display:inline}
.case-id{font-size:1rem;font-weight:700}
.case-title{font-weight:400;color:#344054}
.case-meta{display:block;font-size:.85rem;color:#475467;margin-top:.2rem}
.case-body{padding:0 1.4rem 1.2rem}
.wrong{border:1px solid #fda29b;background:#fef3f2;border-radius:8px;padding:.2rem 1rem .6rem}
.wrong h3{color:#b42318;margin-top:.6rem}
.wrong ul{margin:0;padding-left:1.2rem}
.wrong li{margin:.3rem 0;overflow-wrap:anywhere}
.right{color:#067647;font-weight:600}
.unchecked{border:1px solid #d6bbfb;background:#f9f5ff;border-radius:8px;padding:.2rem 1rem .6rem;margin-top:.6rem}
.unchecked h3{color:#6941c6;margin-top:.6rem}
.warned{border:1px solid #fedf89;background:#fffaeb;border-radius:8px;padding:.2rem 1rem .6rem;margin-top:.6rem}
.warned h3{color:#b54708;margin-top:.6rem}
.unchecked p,.warned p{margin:.2rem 0;font-size:.9rem}
.unchecked ul,.warned ul{margin:0;padding-left:1.2rem}
.unchecked li,.warned li{margin:.3rem 0;overflow-wrap:anywhere}
.visit{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2rem 1rem;margin:0;font-size:.9rem;max-width:44rem}
.visit div{display:contents}
.visit dt{color:#475467}
.visit dd{margin:0;overflow-wrap:anywhere}
.output,.all-checks{margin-top:.8rem}
.output>summary,.all-checks>summary{cursor:pointer;font-weight:600;font-size:.9rem;color:#1d4ed8;width:max-content;max-width:100%}
.output h4{font-size:.8rem;margin:.5rem 0 .2rem;color:#475467}
.note{border-left:4px solid #1d4ed8;background:#eff4ff;padding:.5rem .8rem;border-radius:0 6px 6px 0}
footer{color:#475467;font-size:.85rem;text-align:center;margin-top:2rem}
@media print{
  body{background:#fff;font-size:11pt}
  .page{max-width:none;padding:0}
  .toolbar,.skip{display:none}
  .report-head,.case{border:1px solid #98a2b3;break-inside:auto}
  .case{break-before:auto}
  .case-box>summary{padding-left:1.2rem}
  .case-box>summary::before{display:none}
  details::details-content{content-visibility:visible;display:block}
  details>summary::marker{content:""}
  a{color:#101828;text-decoration:none}
}
`)

// Progressive only: the page reads fully without it. Print opens every fold (and restores them after);
// a link to a step inside a closed case opens that case.
const PAGE_SCRIPT = raw(`
(function(){
  var all=function(){return Array.prototype.slice.call(document.querySelectorAll('details'))};
  var saved=null;
  window.addEventListener('beforeprint',function(){saved=all().map(function(d){return d.open});all().forEach(function(d){d.open=true})});
  window.addEventListener('afterprint',function(){if(saved){all().forEach(function(d,i){d.open=saved[i]});saved=null}});
  document.querySelectorAll('[data-fold]').forEach(function(b){b.addEventListener('click',function(){var open=b.getAttribute('data-fold')==='open';document.querySelectorAll('details.case-box').forEach(function(d){d.open=open})})});
  function reveal(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;var el=document.getElementById(id);for(var p=el;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true}if(el)el.scrollIntoView()}
  window.addEventListener('hashchange',reveal);reveal();
})();
`)

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
<style>${DIAGRAM_CSS}${PAGE_CSS}</style>
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
${summary.warning ? html`<li class="warning"><span aria-hidden="true">!</span> ${summary.warning} warning</li>` : ''}
<li class="${summary.partial ? 'partial' : ''}"><span aria-hidden="true">?</span> ${summary.partial} partial</li>
<li class="${summary.failed ? 'failed' : ''}"><span aria-hidden="true">✗</span> ${summary.failed} failed</li>
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
</dl>
${options.note ? html`<p class="note">${options.note}</p>` : ''}
${summary.rulesBroken.length
    ? html`<section class="head-section" aria-labelledby="broken-title"><h2 id="broken-title">Rules broken</h2><ul class="broken">${summary.rulesBroken.map((rule) => {
        const described = options.describeRule?.(rule)
        return html`<li><code>${rule}</code>${described ? html` — ${inlineCode(described.title)}` : ''}<span class="where">in ${brokenWhere(rule).map(({ c, anchor }, i) => html`${i ? ', ' : ''}<a href="#${anchor}">${c.id}</a>`)}</span></li>`
      })}</ul></section>`
    : ''}
${matrix ? html`${matrixTable(matrix, (id) => anchors[cases.findIndex((c) => c.id === id)])}
` : ''}<section class="head-section" aria-labelledby="index-title"><h2 id="index-title">${captured ? 'Visits' : 'Cases'}</h2>
<table class="index"><thead><tr><th scope="col">Result</th><th scope="col">${captured ? 'Visit' : 'Case'}</th><th scope="col">What it exercises</th><th scope="col" class="num">Time</th></tr></thead>
<tbody>${cases.map((c, i) => html`<tr><td>${badge(c.status)}</td><td><a href="#${anchors[i]}"><code>${c.id}</code></a></td><td>${inlineCode(c.title)}${c.status === 'failed' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'failed').length, 'rule')} broken</span>` : ''}${c.status === 'partial' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'not-checked').length, 'rule')} not checked</span>` : ''}</td><td class="num">${seconds(c.durationMs)}</td></tr>`)}</tbody></table>
</section>
<div class="legend"><p><strong>How to read a ${noun}.</strong> Each ${noun} draws the conversation: your client on the left, the relay service on the right; a solid arrow is a request, the dashed arrow under it is the answer. The right-hand column lists the calls the flow expects: <span aria-hidden="true">✓</span> the call was expected there, <span aria-hidden="true">✗</span> an expected call the client never made, <span aria-hidden="true">!</span> a call the flow does not expect. A red box names the broken rule and explains it. Open a request to see its headers (the token masked) and bodies.</p></div>
<div class="toolbar"><button type="button" data-fold="open">Open all ${noun}s</button><button type="button" data-fold="close">Fold all ${noun}s</button></div>
</header>
<main id="cases" tabindex="-1">
${cases.map((c, i) => caseSection(c, anchors[i], options))}
</main>
<footer>Written by relay-mock ${summary.version} on ${readableTime(now.toISOString())}.</footer>
</div>
<script>${PAGE_SCRIPT}</script>
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
