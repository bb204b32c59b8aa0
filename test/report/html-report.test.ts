import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/core/journal.js'
import { exchangeDetails } from '../../src/devtools/diagram.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { FROZEN, describeRule, fixtureRun, hostileRun } from './fixtures.js'

describe('toHtmlReport', () => {
  it('renders the fixture run as before (frozen clock): the markup a person reads, not the stylesheet or script', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    // The CSS and the browser script are presentation, checked in Chromium; the snapshot holds what the report says.
    const markup = page.replace(/<style>[\s\S]*?<\/style>/g, '<style>…</style>').replace(/<script>[\s\S]*?<\/script>/g, '<script>…</script>')
    expect(markup).not.toBe(page)
    await expect(markup).toMatchFileSnapshot('__snapshots__/report.html')
  })

  it('escapes everything a client sends: its only script element is the page\'s own', async () => {
    const page = toHtmlReport(await hostileRun(), { now: FROZEN })
    expect(page.match(/<script\b/g)).toHaveLength(1)
    expect(page).not.toContain('<img')
    expect(page).not.toMatch(/<[^>]+\sonerror=/)
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
  })

  it('needs no network: no external stylesheet, script, image, font or import', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN })
    expect(page).not.toMatch(/<link[^>]+rel="stylesheet"/)
    expect(page).not.toMatch(/\ssrc=/)
    expect(page).not.toMatch(/@import|@font-face|url\(/)
  })

  it('opens failing cases and folds passing ones', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN })
    const boxes = [...page.matchAll(/<section class="case (\w+)"[^>]*>\s*<details class="case-box"( open)?>/g)].map((m) => [m[1], Boolean(m[2])])
    expect(boxes).toEqual([
      ['failed', true],
      ['passed', false],
      ['failed', true],
    ])
  })

  it('marks the step where the case went wrong with the rule and its explanation', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    const step = /<li class="step failed first-failure" id="case-advanced-new-vehicle-seq-4">[\s\S]*?<\/li>/.exec(page)?.[0] ?? ''
    expect(step).toContain('This is where it went wrong')
    expect(step).toContain('<code>advanced.custodian-after-create</code>')
    expect(step).toContain('Expected POST /custodians')
    expect(page).toMatch(/<li class="step missing-step">[\s\S]*?POST \/custodians <em>not sent<\/em>/)
  })

  it('says in the summary how many cases failed and which rules broke', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    expect(page).toContain('2 of 3 cases failed')
    for (const rule of ['advanced.custodian-after-create', 'advanced.first-vehicle', 'client.completes', 'http.json-body']) {
      expect(page).toMatch(new RegExp(`<li><code>${rule.replace('.', '\\.')}</code>`))
    }
    expect(page).toContain('<code>node ./pos/relay-client.js --verbose</code>')
  })
})

describe('exchangeDetails', () => {
  const entry = (method: string, status: number, body: unknown): JournalEntry =>
    ({
      seq: 1,
      time: '2026-11-21T10:00:00.000Z',
      durationMs: 1,
      worldId: 'w',
      request: { method, path: '/vehicles', query: {}, search: '?plate=AB123', headers: {} },
      response: { status, headers: {}, body },
      route: `${method} /vehicles`,
      auth: 'ok',
    }) as JournalEntry

  it('says "No body." for an answer without one (HEAD, 204), never "undefined"', () => {
    for (const [method, status, body] of [['HEAD', 200, undefined], ['HEAD', 200, null], ['OPTIONS', 204, undefined]] as const) {
      const shown = String(exchangeDetails(entry(method, status, body)))
      expect(shown).not.toContain('undefined')
      expect(shown).toMatch(/<h6>Body<\/h6><p class="muted">No body\.<\/p><\/section>\s*<\/div>$/)
    }
  })

  it('shows a JSON answer indented', () => {
    expect(String(exchangeDetails(entry('GET', 200, [{ id: 'v1' }])))).toContain('<pre class="body"><code>[\n  {\n    &quot;id&quot;: &quot;v1&quot;\n  }\n]</code></pre>')
  })
})
