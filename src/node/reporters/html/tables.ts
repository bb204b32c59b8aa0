// The two tables above the cases: the resilience matrix, and the variant cases by assumption.
import { inlineCode } from '../../../devtools/diagram.js'
import { CASE_BADGES } from '../../../devtools/marks.js'
import { html, type SafeHtml } from '../../../devtools/live/html.js'
import { describeSettled, type HeldAssumption } from '../../../core/rules/held.js'
import { cellAt, type Matrix } from '../../../core/rules/matrix.js'
import type { CaseStatus } from '../../../core/rules/types.js'
import { badge } from './format.js'

/** The matrix: a row per step, a column per fault kind and mode; each cell links to its case's diagram. */
export function matrixTable(matrix: Matrix, anchorOf: (caseId: string) => string): SafeHtml {
  return html`<section class="head-section" aria-labelledby="matrix-title"><h2 id="matrix-title">Resilience matrix</h2>
<p class="muted">Each cell is a case: the step on the left failed in the way its column names, once (the first request only) or always. Open a cell to see the conversation, the fault drawn on the arrow it broke.</p>
<div class="matrix-wrap"><table class="matrix"><thead><tr><th scope="col" rowspan="2">Step</th>${matrix.kinds.map((kind) => html`<th scope="colgroup" colspan="${matrix.modes.length}"><code>${kind}</code></th>`)}</tr>
<tr>${matrix.kinds.map(() => matrix.modes.map((mode) => html`<th scope="col" class="mode">${mode}</th>`))}</tr></thead>
<tbody>${matrix.steps.map(
    (step) =>
      html`<tr><th scope="row"><code>${step}</code></th>${matrix.kinds.map((kind) =>
        matrix.modes.map((mode) => {
          const cell = cellAt(matrix, step, kind, mode)
          if (!cell) return html`<td class="cell none" title="not run">·</td>`
          const why = cell.rules.length ? `: ${cell.rules.join(', ')}` : ''
          const { icon, text } = CASE_BADGES[cell.status]
          return html`<td class="cell ${cell.status}"><a href="#${anchorOf(cell.caseId)}" title="${step} · ${kind} · ${mode}: ${text}${why}"><span aria-hidden="true">${icon}</span><span class="visually-hidden">${step} ${kind} ${mode}: ${text}${why}</span></a></td>`
        }),
      )}</tr>`,
  )}</tbody></table></div></section>`
}

/**
 * The variant cases beside the matrix: a row per assumption, whether the client held, and under each
 * alternative a badge per case that ran there, with that case's own status, named by the flow case it
 * repeats (the last part of its id: `variants/create.status=200-no-location/advanced-new-vehicle`).
 */
export function heldTable(
  held: ReadonlyArray<HeldAssumption>,
  caseOf: (caseId: string) => { anchor: string; status: CaseStatus },
): SafeHtml {
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
