// The assumption ledger's standing against the real service, as a dev tool of `relay-mock proxy`:
// GET /__relay/assumptions (a token's own world's, or the whole traffic's for the admin token), and the
// same as a readable page (the report `proxy --report-dir` writes, and the live page's view of it).
import type { AssumptionLedger, AssumptionReport } from '../core/ledger/report.js'
import type { ServiceExtension } from '../core/service/mock.js'
import { defineRoute } from '../core/service/route.js'
import { html, inlineCode, sentence, type SafeHtml } from './live/html.js'
import { onlyAdminSeesAll } from './paging.js'

/**
 * The ledger's route under /__relay/, for a proxy's service.
 * @example createRelayService({ upstream, extensions: [devtools(), assumptionsTool(ledger)] })
 */
export function assumptionsTool(ledger: AssumptionLedger): ServiceExtension {
  const route = defineRoute<Record<string, string>, unknown>({
    method: 'GET',
    path: '/__relay/assumptions',
    integration: 'admin',
    summary:
      "relay-mock's assumptions held against the real service's answers: each confirmed, contradicted or unseen, with evidence, and the findings (answers that depart from the interface, upstream trouble); ?scope=all the whole traffic's, for the admin token",
    answers: {},
    handle: ({ world, query, admin, headers }) => {
      const refused = onlyAdminSeesAll(query, admin)
      if (refused) return refused
      const report = query.scope === 'all' ? ledger.report() : ledger.report(world.id)
      const accept = headers?.accept
      if (typeof accept === 'string' && accept.includes('text/html') && query.format !== 'json') {
        return {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: assumptionsPage(report).value,
        }
      }
      return { status: 200, body: { world: query.scope === 'all' ? null : world.id, ...report } }
    },
  })
  return { routes: () => [route] }
}

const STATUS_MARK = { confirmed: '✓ confirmed', contradicted: '✗ contradicted', unseen: '· unseen' } as const

/**
 * The report as a page a person reads: the contradicted assumptions first, with what to run next.
 * @example assumptionsPage(ledger.report()).value.startsWith('<!doctype html>') // true
 */
export function assumptionsPage(report: AssumptionReport): SafeHtml {
  const order = { contradicted: 0, confirmed: 1, unseen: 2 } as const
  const sorted = [...report.assumptions].sort((a, b) => order[a.status] - order[b.status])
  const counts = { confirmed: 0, contradicted: 0, unseen: 0 }
  for (const a of report.assumptions) counts[a.status]++
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>relay-mock: assumptions against ${report.upstream}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2330}table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #d8dce4;padding:.3rem .5rem;text-align:left;vertical-align:top}.contradicted{color:#a31919}.confirmed{color:#176b2c}.unseen{color:#5b6472}code{background:#f1f3f7;padding:0 .2rem}section{margin:1.2rem 0}</style></head>
<body><h1>relay-mock's assumptions against ${report.upstream}</h1>
${report.probe ? probeSection(report.probe) : ''}
<p>${report.answers} answers checked: ${counts.contradicted} contradicted, ${counts.confirmed} confirmed, ${counts.unseen} unseen; ${report.findings.length} findings.</p>
${sorted.map((a) => assumptionSection(a))}
${findingsSection(report.findings)}
</body></html>
`
}

type Standing = AssumptionReport['assumptions'][number]

/** One assumption: its question, relay-mock's choice, why it stayed unseen, what to run next, the evidence. */
function assumptionSection(a: Standing): SafeHtml {
  return html`<section id="${a.id}"><h2 class="${a.status}">${STATUS_MARK[a.status]}: <code>${a.id}</code></h2>
<p>${inlineCode(a.question)}</p>
<p>relay-mock answers: ${sentence(a.choice)}</p>
${a.unseen ? html`<p class="unseen">Unseen: ${sentence(a.unseen)}</p>` : ''}
${a.variants?.length ? nextSteps(a.variants) : ''}
${a.evidence.length ? evidenceTable(a.evidence) : ''}
</section>`
}

/** What to run next for an assumption: the alternative the service made, and the variant cases of it. */
function nextSteps(variants: NonNullable<Standing['variants']>): SafeHtml {
  return html`<p>What to run next:</p><ul>${variants.map((v) => html`<li>${v.alternative ? html`the service made the alternative <code>${v.alternative}</code>: ${sentence(v.answer ?? '')}` : 'No alternative of the ledger fits.'} ${v.command ? html`Run <code>${v.command}</code>${v.notVaried ? html` (conform has no cases for it: ${inlineCode(v.notVaried)}; serve the variant to your own tests)` : ''}.` : html`No variant cases to run: ${sentence(v.notServed ?? v.notVaried ?? '')}`}</li>`)}</ul>`
}

/** The answers that bore on an assumption: what relay-mock would answer beside what came. */
function evidenceTable(evidence: Standing['evidence']): SafeHtml {
  return html`<table><tr><th>seq</th><th>request</th><th>relay-mock would answer</th><th>the service answered</th></tr>${evidence.map((e) => html`<tr><td>${e.seq}</td><td><code>${e.request}</code></td><td>${inlineCode(e.relayMock)}</td><td>${inlineCode(e.came)}</td></tr>`)}</table>`
}

/** The answers that departed from the interface's form, or the upstream's trouble. */
function findingsSection(findings: AssumptionReport['findings']): SafeHtml {
  return html`<section><h2>Findings</h2>${findings.length === 0 ? html`<p>None: every answer had the interface's form.</p>` : html`<table><tr><th>kind</th><th>what</th><th>answers</th><th>seqs</th></tr>${findings.map((f) => html`<tr><td>${f.kind}</td><td>${inlineCode(f.message)}</td><td>${f.count}</td><td>${f.seqs.join(', ')}</td></tr>`)}</table>`}</section>`
}

/** What a probe sent and wrote, above the standing. */
function probeSection(probe: NonNullable<AssumptionReport['probe']>): SafeHtml {
  return html`<section><p>relay-mock probe sent ${probe.sent} requests in ${(probe.durationMs / 1000).toFixed(1)} s${probe.allowWrites ? ' with --allow-writes' : ', none of which writes a record'}.${probe.stopped ? html` It stopped early: ${sentence(probe.stopped)}` : ''}</p>
${probe.written.length ? html`<p>It wrote on the service:</p><ul>${probe.written.map((w) => html`<li>a ${w.kind}, <code>${w.id}</code> (${w.request})</li>`)}</ul>` : probe.allowWrites ? html`<p>It wrote nothing on the service.</p>` : ''}
${probe.skipped.length ? html`<p>Left out:</p><ul>${probe.skipped.map((s) => html`<li>${sentence(s)}</li>`)}</ul>` : ''}</section>`
}
