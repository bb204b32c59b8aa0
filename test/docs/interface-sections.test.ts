// docs/rules.md says what each section of the interface covers, and every section the rules, the ledger
// and the code's messages cite is one it describes.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ASSUMPTIONS } from '../../src/core/ledger/assumptions.js'
import { rules } from '../../src/core/rules/index.js'
import { citedSections, INTERFACE_SECTIONS, toSectionTable } from '../../src/core/rules/interface-sections.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const described = new Set(INTERFACE_SECTIONS.map((s) => s.section))
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))

describe("the interface's sections", () => {
  it('are in docs/rules.md, as generated (toSectionTable())', () => {
    expect(readFileSync(join(root, 'docs/rules.md'), 'utf8')).toContain(toSectionTable())
  })

  it("describe every section a rule's or an assumption's citation names", () => {
    for (const { id, cite } of rules)
      for (const section of citedSections(cite)) expect(described.has(section), `${id} cites ${section}`).toBe(true)
    for (const entry of ASSUMPTIONS)
      for (const section of citedSections(entry.interface))
        expect(described.has(section), `${entry.id} cites ${section}`).toBe(true)
  })

  it('describe every section the sources cite in a message', () => {
    const cited = new Set(
      ['src', 'suites'].flatMap(sources).flatMap((file) => citedSections(readFileSync(file, 'utf8'))),
    )
    expect(cited.size).toBeGreaterThan(5)
    for (const section of cited) expect(described.has(section), section).toBe(true)
  })

  it("reads a citation's sections, not an RFC's", () => {
    expect(citedSections('§7 Errors; RFC 9110 §10.2.3 Retry-After; §7.1, §4 Endpoints')).toEqual(['§7', '§7', '§4'])
  })
})
