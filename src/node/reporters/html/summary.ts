// The HTML report's head: the headline, the totals, the run's facts, the rules broken and the index of cases.
import { calibrationLine } from '../console.js'
import { inlineCode, type DiagramOptions } from '../../../devtools/diagram.js'
import { html, type SafeHtml } from '../../../devtools/live/html.js'
import { allOf, capitalize, plural } from '../../../core/text.js'
import type { CaseResult, RunResult } from '../../../core/rules/types.js'
import { badge, breakable, readableTime, seconds } from './format.js'

/** The page's headline: what the run came to, e.g. "2 of 5 cases failed" or "All 3 visits passed". */
export function headingOf(summary: RunResult['summary'], noun: string): string {
  const { total } = summary
  if (total === 0) return `No ${noun} ran`
  const of = (n: number) => (n === total ? capitalize(allOf(total, noun)) : `${n} of ${plural(total, noun)}`)
  // A flaky case (conform --repeat) failed some of its runs: it did not pass.
  const failed = summary.failed + summary.flaky
  if (failed > 0) return `${of(failed)} failed${summary.flaky ? ` (${summary.flaky} flaky)` : ''}`
  const be = (n: number, past = false) => (n === 1 ? (past ? 'was' : 'is') : past ? 'were' : 'are')
  if (summary.notReached > 0) return `${of(summary.notReached)} ${be(summary.notReached, true)} not reached`
  if (summary.partial > 0)
    return `${of(summary.partial)} ${be(summary.partial)} partial: not every rule could be checked${summary.allowPartial ? ' (allowed)' : ''}`
  if (summary.warning > 0)
    return `${capitalize(allOf(total, noun))} passed, ${summary.warning} with a warning${summary.strict ? ' (--strict: not conformant)' : ''}`
  return `${capitalize(allOf(total, noun))} passed`
}

/** What relay-mock did: ran a client case by case, or read a capture with no client. */
export function leadOf(captured: boolean): SafeHtml {
  return captured
    ? html`<p class="lead">relay-mock read the conversation below, cut it into visits (each starts at <code>GET /rental-companies</code> or <code>POST /payment</code>), and checked every call against the rules of the vehicle visit payment relay service’s interface. No client ran here: the rules that need a visit’s inputs (the visit, the token, the client’s exit status) were checked where the capture carried them (relay-mock’s own HAR does, and <code>--visits FILE</code> gives them) and are marked <em>not checked</em> where it did not.</p>`
    : html`<p class="lead">relay-mock ran the client below against a mock of the vehicle visit payment relay service, once per case, each case with its own world and token, and checked every call against the rules of the service’s interface.</p>`
}

/** The totals under the headline: cases (or visits) by status, and the rules broken and not checked. */
export function countsList(summary: RunResult['summary'], noun: string): SafeHtml {
  return html`<ul class="counts" aria-label="Totals">
<li>${plural(summary.total, noun)}</li>
<li class="passed"><span aria-hidden="true">✓</span> ${summary.passed} passed</li>
${summary.warning ? html`<li class="warning"><span aria-hidden="true">!</span> ${summary.warning} warned</li>` : ''}
<li class="${summary.partial ? 'partial' : ''}"><span aria-hidden="true">?</span> ${summary.partial} partial</li>
<li class="${summary.failed ? 'failed' : ''}"><span aria-hidden="true">✗</span> ${summary.failed} failed</li>
${summary.echo ? html`<li class="echo"><span aria-hidden="true">=</span> ${summary.echo} the same defect again</li>` : ''}
${summary.notReached ? html`<li class="failed"><span aria-hidden="true">–</span> ${summary.notReached} not reached</li>` : ''}
<li class="${summary.rulesBroken.length ? 'failed' : ''}">${plural(summary.rulesBroken.length, 'rule')} broken</li>
${summary.rulesNotChecked.length ? html`<li class="partial">${plural(summary.rulesNotChecked.length, 'rule')} not checked</li>` : ''}
</ul>`
}

/** The run's facts: the client (or the capture's source), the flows, when it started, how long it took, the version. */
export function runFacts(summary: RunResult['summary'], captured: boolean): SafeHtml {
  return html`<dl class="facts">
<div class="wide"><dt>${captured ? 'Source' : 'Client'}</dt><dd><code>${summary.client}</code></dd></div>
<div><dt>Flows</dt><dd>${summary.flows.join(', ')}</dd></div>
<div><dt>Started</dt><dd>${readableTime(summary.startedAt)}</dd></div>
<div><dt>Time</dt><dd>${seconds(summary.wallMs)} in all; ${seconds(summary.clientMs)} in the client</dd></div>
<div><dt>relay-mock</dt><dd>version ${summary.version}</dd></div>
${summary.calibration ? html`<div class="wide"><dt>Calibrated</dt><dd>${calibrationLine(summary.calibration)}</dd></div>` : ''}
</dl>`
}

/** The rules broken, each with its title and a link to every case that broke it; nothing when none was. */
export function rulesBroken(
  summary: RunResult['summary'],
  cases: ReadonlyArray<CaseResult>,
  anchors: ReadonlyArray<string>,
  describeRule?: DiagramOptions['describeRule'],
): SafeHtml | '' {
  if (!summary.rulesBroken.length) return ''
  const brokenWhere = (rule: string) =>
    cases
      .map((c, i) => ({ c, anchor: anchors[i] }))
      .filter(({ c }) => c.checks.some((k) => k.rule === rule && k.status === 'failed'))
  return html`<section class="head-section" aria-labelledby="broken-title"><h2 id="broken-title">Rules broken</h2><ul class="broken">${summary.rulesBroken.map(
    (rule) => {
      const described = describeRule?.(rule)
      return html`<li><code>${rule}</code>${described ? html` — ${inlineCode(described.title)}` : ''}<span class="where">in ${brokenWhere(rule).map(({ c, anchor }, i) => html`${i ? ', ' : ''}<a href="#${anchor}">${c.id}</a>`)}</span></li>`
    },
  )}</ul></section>`
}

/** The index of cases (or visits): a row each, with its result, a link to it, what it exercises and its time. */
export function casesIndex(
  cases: ReadonlyArray<CaseResult>,
  anchors: ReadonlyArray<string>,
  captured: boolean,
): SafeHtml {
  return html`<section class="head-section" aria-labelledby="index-title"><h2 id="index-title">${captured ? 'Visits' : 'Cases'}</h2>
<table class="index cases"><thead><tr><th scope="col">Result</th><th scope="col">${captured ? 'Visit' : 'Case'}</th><th scope="col">What it exercises</th><th scope="col" class="num">Time</th></tr></thead>
<tbody>${cases.map((c, i) => html`<tr><td>${badge(c.status)}</td><td><a href="#${anchors[i]}"><code>${breakable(c.id)}</code></a></td><td>${inlineCode(c.title)}${c.status === 'failed' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'failed').length, 'rule')} broken</span>` : ''}${c.status === 'partial' ? html` <span class="muted">— ${plural(c.checks.filter((k) => k.status === 'not-checked').length, 'rule')} not checked</span>` : ''}${c.sameAs ? html` <span class="muted">— same ${c.sameAs.warned ? 'warning' : 'defect'} as in <code>${c.sameAs.case}</code></span>` : ''}</td><td class="num">${seconds(c.durationMs)}</td></tr>`)}</tbody></table>
</section>`
}
