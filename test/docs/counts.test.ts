// The counts the docs state in the present tense (cases per suite, cells of the matrix, the default run)
// are the code's: each is read from the page and held to what the suites hold, so that none goes stale.
// A figure measured at a commit names that commit and says "then"; it is not held here.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cases, suites } from '../../suites/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8').replace(/\s+/g, ' ')
const size = (name: string) => suites.find((suite) => suite.name === name)!.cases.length
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

/** Each stated count: the page, the words around the figure (its capture group), and what the code holds. */
const STATED: Array<{ page: string; says: RegExp; is: () => number | string }> = [
  { page: 'README.md', says: /The cases are data, in (\w+) suites/, is: () => WORDS[suites.length] },
  { page: 'README.md', says: /`advanced` \((\d+) cases/, is: () => size('advanced') },
  { page: 'README.md', says: /`simple` \((\d+) cases/, is: () => size('simple') },
  {
    page: 'README.md',
    says: /every fault kind on every step, once and always \((\d+) cases\)/,
    is: () => size('resilience'),
  },
  {
    page: 'README.md',
    says: /where the mock answers as a real service may \((\d+) cases\)/,
    is: () => size('variants'),
  },
  {
    page: 'docs/cases.md',
    says: /is a matrix of every fault on every step, (\d+) cases/,
    is: () => size('resilience'),
  },
  { page: 'docs/faults.md', says: /`always`: (\d+) cells/, is: () => size('resilience') },
  { page: 'docs/example-clients.md', says: /The default run of (\d+) cases/, is: () => cases.length },
  { page: 'docs/architecture.md', says: /A whole default run \((\d+) cases\)/, is: () => cases.length },
]

describe('the counts the docs state', () => {
  it.each(STATED)('$page: $says', ({ page, says, is }) => {
    const found = says.exec(read(page))
    expect(found, `${page} no longer says ${says}: update this test with the page`).not.toBeNull()
    expect(found![1]).toBe(String(is()))
  })
})

describe('the lists the docs state', () => {
  it("docs/cases.md's table is the flow suites' cases, row for row: id, scenario, outcome, title", () => {
    const page = readFileSync(`${root}/docs/cases.md`, 'utf8')
    const rows = page.split('\n').filter((line) => /^\| `(advanced|simple)\//.test(line))
    const flow = cases.filter((kase) => kase.id.startsWith('advanced/') || kase.id.startsWith('simple/'))
    const outcomes = (kase: (typeof flow)[number]) =>
      (kase.outcomes ?? [kase.outcome]).map((outcome) => `\`${outcome}\``).join(' or ')
    expect(rows).toEqual(
      flow.map((kase) => `| \`${kase.id}\` | \`${kase.scenario}\` | ${outcomes(kase)} | ${kase.title} |`),
    )
  })
})
