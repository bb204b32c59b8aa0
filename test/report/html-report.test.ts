import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { exchangeDetails } from '../../src/devtools/diagram.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { FIXTURE_TOKEN, FROZEN, describeRule, fixtureRun, hostileRun } from './fixtures.js'

/** Elements that start a line of their own where a browser lays the page out. */
const BLOCK =
  'address|article|aside|blockquote|br|caption|details|div|dl|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|title|tr|ul'
/** Elements inside a run of text: they add no space (`<code>GET</code>,` reads `GET,`). Any other tag parts words. */
const PHRASING = 'a|abbr|b|bdi|code|em|i|kbd|mark|q|s|strong|sub|sup|time|u|var|wbr'

/**
 * The text of a page as a person reads it: no stylesheet, no script (the page's own, its JSON data), no
 * tags; entities decoded; each block on a line of its own, spaces collapsed, `<pre>` keeping its lines.
 */
function readableText(html: string): string {
  const NEWLINE = '\u0000'
  return html
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<pre\b[\s\S]*?<\/pre>/gi, (pre) => pre.replace(/\n/g, NEWLINE))
    .replace(/\s+/g, ' ')
    .replace(new RegExp(`</?(?:${BLOCK})\\b[^>]*>`, 'gi'), NEWLINE)
    .replace(new RegExp(`</?(?:${PHRASING})\\b[^>]*>`, 'gi'), '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#')
        return String.fromCodePoint(
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
        )
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>)[name] ?? entity
    })
    .split(NEWLINE)
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
}

describe('toHtmlReport', () => {
  it('says what it said before (frozen clock): the text a person reads, not its markup', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    const text = readableText(page)
    // No markup is left: no tag, no entity.
    expect(text).not.toMatch(/<\/?[a-z][\w-]*[\s>/]|&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i)
    await expect(text + '\n').toMatchFileSnapshot('__snapshots__/report.txt')
  })

  it("has a section for each case, in the run's order, headed by its verdict, id and title", async () => {
    const run = await fixtureRun()
    const page = toHtmlReport(run, { now: FROZEN, describeRule })
    const sections = [
      ...page.matchAll(/<section class="case (\w+)" id="case-([\w-]+)"[\s\S]*?<h2[^>]*>([\s\S]*?)<\/h2>/g),
    ]
    expect(sections.map(([, status, slug]) => [status, slug])).toEqual(
      run.cases.map((kase) => [kase.status, kase.id.replace(/\//g, '-')]),
    )
    for (const [i, kase] of run.cases.entries()) {
      const heading = readableText(sections[i][3])
      expect(heading).toBe(`${kase.status === 'passed' ? '✓ Passed' : '✗ Failed'} ${kase.id} ${kase.title}`)
    }
  })

  it('shows the token masked, never whole', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    expect(page).not.toContain(FIXTURE_TOKEN)
    expect(readableText(page)).toContain(`authorization Bearer …${FIXTURE_TOKEN.slice(-4)}`)
  })

  it("escapes everything a client sends: its only script element is the page's own", async () => {
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
    const boxes = [...page.matchAll(/<section class="case (\w+)"[^>]*>\s*<details class="case-box"( open)?>/g)].map(
      (m) => [m[1], Boolean(m[2])],
    )
    expect(boxes).toEqual([
      ['failed', true],
      ['passed', false],
      ['failed', true],
    ])
  })

  it('marks the step where the case went wrong with the rule and its explanation', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    const step =
      /<li class="step failed first-failure" id="case-advanced-new-vehicle-seq-4">[\s\S]*?<\/li>/.exec(page)?.[0] ?? ''
    expect(step).toContain('This is where it went wrong')
    expect(step).toContain('<code>advanced.custodian-after-create</code>')
    expect(step).toContain('Expected POST /custodians')
    expect(page).toMatch(/<li class="step missing-step">[\s\S]*?POST \/custodians <em>not sent<\/em>/)
  })

  it('says in the summary how many cases failed and which rules broke', async () => {
    const page = toHtmlReport(await fixtureRun(), { now: FROZEN, describeRule })
    expect(page).toContain('2 of 3 cases failed')
    for (const rule of [
      'advanced.custodian-after-create',
      'advanced.first-vehicle',
      'client.completes',
      'http.json-body',
    ]) {
      expect(page).toMatch(new RegExp(`<li><code>${rule.replace('.', '\\.')}</code>`))
    }
    expect(page).toContain('<code>node ./pos/relay-client.js --verbose</code>')
  })
})

describe('exchangeDetails', () => {
  const entry = (method: string, status: number, body: unknown): JournalEntry => ({
    seq: 1,
    time: '2026-11-21T10:00:00.000Z',
    durationMs: 1,
    worldId: 'w',
    request: { method, path: '/vehicles', query: {}, search: '?plate=AB123', headers: {} },
    response: { status, headers: {}, body },
    route: `${method} /vehicles`,
    auth: 'ok',
  })

  it('says "No body." for an answer without one (HEAD, 204), never "undefined"', () => {
    for (const [method, status, body] of [
      ['HEAD', 200, undefined],
      ['HEAD', 200, null],
      ['OPTIONS', 204, undefined],
    ] as const) {
      const shown = String(exchangeDetails(entry(method, status, body)))
      expect(shown).not.toContain('undefined')
      expect(shown).toMatch(/<h6>Body<\/h6><p class="muted">No body\.<\/p><\/section>\s*<\/div>$/)
    }
  })

  it('shows a JSON answer indented', () => {
    expect(String(exchangeDetails(entry('GET', 200, [{ id: 'v1' }])))).toContain(
      '<pre class="body"><code>[\n  {\n    &quot;id&quot;: &quot;v1&quot;\n  }\n]</code></pre>',
    )
  })
})
