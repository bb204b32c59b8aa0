// One case of the HTML report: what it came to, the visit it was given, the conversation drawn beside the
// flow's expected calls, the client's output and every check.
import { inlineCode, toSequenceDiagram, type DiagramOptions } from '../../../devtools/diagram.js'
import { checkTally, toChecksList } from '../../../devtools/checks-list.js'
import { html, type SafeHtml } from '../../../devtools/live/html.js'
import { capitalize, plural } from '../../../core/text.js'
import type { CaseResult, Check } from '../../../core/rules/types.js'
import { badge, seconds } from './format.js'
import { lateWords } from '../time.js'

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
  if (result.expectedOutcomes && result.expectedOutcomes.length > 1)
    text += ` Expected outcome of this case: ${result.expectedOutcomes.join(' or ')}.`
  else if (result.expectedOutcome) text += ` Expected outcome of this case: ${result.expectedOutcome}.`
  return { text, failed }
}

function visitFacts(result: CaseResult): SafeHtml {
  const v = result.visit
  if (!v)
    return html`<p class="muted">Not known: this conversation was captured, not run by relay-mock, and no visit was given for it (<code>--visits FILE</code>), so the rules that compare the requests with the visit’s plate, owner, dates or amount were not checked.</p>`
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

/** What a case came to, above its visit: what went wrong, echoed, was not reached, unchecked or warned. */
function caseFindings(result: CaseResult, anchor: string): SafeHtml {
  const of = (status: Check['status']) => result.checks.filter((c) => c.status === status)
  const failed = of('failed')
  const unchecked = of('not-checked')
  const warned = of('warning')
  return html`${failed.length ? html`<div class="wrong"><h3>What went wrong</h3>${checkItems(failed, result, anchor)}</div>` : ''}
${
  result.sameAs
    ? html`<div class="echoed"><h3>The same ${result.sameAs.warned ? 'warning' : 'defect'} as in <code>${result.sameAs.case}</code></h3><p>The client ${result.sameAs.warned ? 'was warned on' : 'failed'} this visit under relay-mock's choice already (${result.sameAs.rules.map((rule, i) => html`${i > 0 ? ', ' : ''}<code>${rule}</code>`)}): what ${result.sameAs.warned ? 'it found' : 'failed'} here again is counted there, once, and not as this alternative's.</p>${checkItems(
        of('echo').map((check) => ({ ...check, message: check.echoed ?? check.message })),
        result,
        anchor,
      )}</div>`
    : ''
}
${result.late ? html`<p class="note">${lateWords(result.late, result.id)}.</p>` : ''}
${result.addedFor ? html`<p class="note">Not selected: run to judge the variant cases that repeat it (${result.addedFor.map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id}</code>`)}).</p>` : ''}
${result.status === 'not-reached' ? html`<div class="wrong"><h3>Not reached</h3><p>The client never made the request this case's fault breaks${result.faults?.length ? html` (<code>${result.faults.map((f) => `${f.route}=${f.kind}:${f.mode}`).join(', ')}</code>)` : ''}, so what the case exists to check was not seen: not a pass.</p></div>` : ''}
${unchecked.length ? html`<div class="unchecked"><h3>What could not be checked</h3><p>These rules need an input this ${result.scenario === 'captured' ? 'capture' : 'case'} did not have, so the ${result.scenario === 'captured' ? 'visit' : 'case'} is partial, not passed.</p>${checkItems(unchecked, result, anchor)}</div>` : ''}
${warned.length ? html`<div class="warned"><h3>Warnings</h3><p>Safe, but not the best a client can do (a run fails on them only with <code>--strict</code>).</p>${checkItems(warned, result, anchor)}</div>` : ''}
${result.status === 'passed' ? html`<p class="right"><span aria-hidden="true">✓</span> The client made the calls this case expects and broke no rule.</p>` : ''}`
}

/** One case: its badge and title, what it came to, the visit, the conversation drawn, the client's output and every check. */
export function caseSection(
  result: CaseResult,
  anchor: string,
  describeRule?: DiagramOptions['describeRule'],
): SafeHtml {
  const ok = result.status === 'passed'
  const end = endOfCase(result)
  return html`<section class="case ${result.status}" id="${anchor}" aria-labelledby="${anchor}-title">
<details class="case-box"${ok || result.status === 'warning' ? '' : ' open'}>
<summary><h2 id="${anchor}-title">${badge(result.status)} <code class="case-id">${result.id}</code> <span class="case-title">${inlineCode(result.title)}</span></h2>
<span class="case-meta">${result.flow} flow · scenario <code>${result.scenario}</code> · ${plural(result.requests.length, 'request')} · ${seconds(result.durationMs)}</span></summary>
<div class="case-body">
${caseFindings(result, anchor)}
<h3>${result.visit ? 'The visit the client was given' : 'The visit'}</h3>
${visitFacts(result)}
<h3>The conversation</h3>
${toSequenceDiagram({ expected: result.expected, requests: result.requests, checks: result.checks }, { idPrefix: anchor, end, describeRule })}
${processOutput(result)}
<details class="all-checks"><summary>${capitalize(plural(result.checks.length, 'check'))}: ${checkTally(result.checks)}</summary>${toChecksList(result.checks, describeRule)}</details>
</div>
</details>
</section>`
}
