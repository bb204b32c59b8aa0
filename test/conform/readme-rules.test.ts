// The documented tables must say what the code does: docs/rules.md's rule table has the rules' own ids,
// order, "what it checks" text and clauses (`rules`), docs/faults.md's fault table is FAULT_KINDS, and
// the README's client contract lists every variable the runner sets.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { rules } from '../../src/core/rules/index.js'
import { toRelayEnv } from '../../src/node/runner/contract.js'

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')
const readme = read('README.md')
const rulesPage = read('docs/rules.md')
const faultsPage = read('docs/faults.md')

/** The cells of a markdown table row (pipes escaped as \| stay in their cell). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'))
}

const ruleRows = rulesPage
  .split('\n')
  .filter((line) => /^\|\s*`[a-z]+(\.[a-z-]+)+`\s*\|/.test(line))
  .map(cells)
const contractRows = readme
  .split('\n')
  .filter((line) => /^\|\s*`RELAY_[A-Z_]+`/.test(line))
  .map(cells)

describe('the rule table (docs/rules.md) and the client contract (README)', () => {
  it('lists every rule with its id, what it checks and its clause, in order (generate the table with toRuleTable())', () => {
    expect(ruleRows.map((row) => row[0].replace(/`/g, ''))).toEqual(rules.map((rule) => rule.id))
    expect(ruleRows.map((row) => row[1])).toEqual(rules.map((rule) => rule.title))
    expect(ruleRows.map((row) => row[2])).toEqual(rules.map((rule) => rule.cite))
  })

  it('documents every variable the runner sets', () => {
    const documented = contractRows.flatMap((row) => [...row[0].matchAll(/`(RELAY_[A-Z_]+)`/g)].map((m) => m[1]))
    const set = Object.keys(
      toRelayEnv(
        {
          plate: '',
          ownerKennitala: '',
          registrationDate: '',
          visitStart: '',
          visitEnd: '',
          amount: 0,
          currency: 'ISK',
          locationId: '',
          flow: 'simple',
        },
        '',
        '',
        '',
      ),
    )
    expect([...documented].sort()).toEqual([...set].sort())
  })
})

describe('the fault table (docs/faults.md)', () => {
  it('is FAULT_KINDS, row by row: what the client sees, what a correct client does, what msw does', async () => {
    const { FAULT_KINDS } = await import('../../src/core/service/faults.js')
    const rows = faultsPage
      .split('\n')
      .filter((line) => /^\|\s*`[a-z-]+`\s*\|\s*(yes|no)\s*\|/.test(line))
      .map(cells)
    expect(rows.map((row) => row[0].replace(/`/g, ''))).toEqual(Object.keys(FAULT_KINDS))
    for (const row of rows) {
      const info: { applied: boolean; sees: string; correct: string; inProcess?: string } =
        FAULT_KINDS[row[0].replace(/`/g, '') as keyof typeof FAULT_KINDS]
      expect(row.slice(1)).toEqual([info.applied ? 'yes' : 'no', info.sees, info.correct, info.inProcess ?? 'the same'])
    }
  })
})
