// The HTML conformance report: one self-contained page (report.css, report.js and the diagram's CSS
// inlined, nothing fetched) that shows, case by case, the calls a client made beside the calls its
// flow expects, and names each broken rule at the step where it broke. Written by `relay-mock conform --html FILE`.
// Its parts live in html/: the head (summary.ts), the tables above the cases (tables.ts), a case (case.ts).
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { DIAGRAM_CSS, type DiagramOptions } from '../../devtools/diagram.js'
import { html, raw } from '../../devtools/live/html.js'
import { REPORT_CSS, REPORT_JS } from './assets.generated.js'
import { ruleById } from '../../core/rules/index.js'
import { toHeld } from '../../core/rules/held.js'
import { toMatrix } from '../../core/rules/matrix.js'
import type { CaseResult, Reporter, RunResult } from '../../core/rules/types.js'
import { caseSection } from './html/case.js'
import { readableTime, slug } from './html/format.js'
import { casesIndex, countsList, headingOf, leadOf, rulesBroken, runFacts } from './html/summary.js'
import { heldTable, matrixTable } from './html/tables.js'

export { endOfCase } from './html/case.js'

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

/** An anchor per case, from its id, numbered when two ids give the same one. */
function anchorsOf(cases: ReadonlyArray<CaseResult>): string[] {
  const used = new Set<string>()
  return cases.map((c) => {
    let anchor = `case-${slug(c.id)}`
    for (let n = 2; used.has(anchor); n++) anchor = `case-${slug(c.id)}-${n}`
    used.add(anchor)
    return anchor
  })
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
  const anchors = anchorsOf(cases)
  const matrix = toMatrix(cases)
  const held = toHeld(cases, summary.calibration)
  // A capture (conform --from) has visits, not cases: no client ran for it here.
  const captured = cases.length > 0 && cases.every((c) => c.scenario === 'captured')
  const noun = captured ? 'visit' : 'case'
  const allPassed = summary.conformant
  const verdictClass = summary.conformant
    ? 'passed'
    : summary.failed + summary.flaky + summary.notReached === 0 && summary.partial > 0
      ? 'partial'
      : 'failed'
  const heading = headingOf(summary, noun)

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
${leadOf(captured)}
${countsList(summary, noun)}
${runFacts(summary, captured)}
${options.note ? html`<p class="note">${options.note}</p>` : ''}
${rulesBroken(summary, cases, anchors, options.describeRule)}
${
  matrix
    ? html`${matrixTable(matrix, (id) => anchors[cases.findIndex((c) => c.id === id)])}
`
    : ''
}${
    held
      ? html`${heldTable(held, (id) => {
          const i = cases.findIndex((c) => c.id === id)
          return { anchor: anchors[i], status: cases[i].status }
        })}
`
      : ''
  }${casesIndex(cases, anchors, captured)}
<div class="legend"><p><strong>How to read a ${noun}.</strong> Each ${noun} draws the conversation: your client on the left, the relay service on the right; a solid arrow is a request, the dashed arrow under it is the answer. The right-hand column lists the calls the flow expects: <span aria-hidden="true">✓</span> the call was expected there, <span aria-hidden="true">✗</span> an expected call the client never made, <span aria-hidden="true">!</span> a call the flow does not expect. A red box names the broken rule and explains it. Open a request to see its headers (the token masked) and bodies.</p></div>
<div class="toolbar"><button type="button" data-fold="open">Open all ${noun}s</button><button type="button" data-fold="close">Fold all ${noun}s</button></div>
</header>
<main id="cases" tabindex="-1">
${cases.map((c, i) => caseSection(c, anchors[i], options.describeRule))}
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
