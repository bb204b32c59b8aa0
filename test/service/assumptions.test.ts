// The assumption ledger: its ids are stable-looking and unique, every entry cites the interface,
// names at least one alternative, and points at rules that exist.
import { describe, expect, it } from 'vitest'
import { ASSUMPTIONS, assumption } from '../../src/core/ledger/assumptions.js'
import { rules } from '../../src/core/rules/index.js'

const ruleIds = new Set(rules.map((rule) => rule.id))

describe('the assumption ledger', () => {
  it('gives each assumption a unique dotted lower-case id', () => {
    const ids = ASSUMPTIONS.map((entry) => entry.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/)
  })

  it('gives each alternative an id unique within its assumption, usable as <assumption>=<alternative>', () => {
    for (const entry of ASSUMPTIONS) {
      const ids = entry.alternatives.map((alternative) => alternative.id)
      expect(new Set(ids).size, entry.id).toBe(ids.length)
      for (const id of ids) expect(id, entry.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    }
  })

  it('names at least one alternative for every assumption, each with an answer', () => {
    for (const entry of ASSUMPTIONS) {
      expect(entry.alternatives.length, entry.id).toBeGreaterThan(0)
      for (const alternative of entry.alternatives)
        expect(alternative.answer.length, `${entry.id}=${alternative.id}`).toBeGreaterThan(10)
    }
  })

  it('cites a section of the interface in every entry, and says the question and the choice', () => {
    for (const entry of ASSUMPTIONS) {
      expect(entry.interface, entry.id).toMatch(/§\d/)
      expect(entry.question, entry.id).toMatch(/\?$/)
      expect(entry.choice.length, entry.id).toBeGreaterThan(10)
    }
  })

  it('names only rules of the rule table', () => {
    for (const entry of ASSUMPTIONS)
      for (const id of entry.rules) expect(ruleIds.has(id), `${entry.id} names ${id}`).toBe(true)
  })

  it('holds the agreed ids and alternatives', () => {
    const agreed: Record<string, string[]> = {
      'create.status': ['200-no-location', '201-no-location'],
      'invalid.status': ['400'],
      'error.body': ['json-message'],
      'auth.refusal': ['403', '401-no-challenge'],
      'simple.answer': ['id-only'],
      'simple.refusal-status': ['400', '200'],
      'simple.unknown-owner': ['accepted'],
      'records.extra-fields': ['extra'],
      'links.fetchable': ['not-fetchable'],
      'slip.path': ['served'],
      'slip.method': [],
    }
    for (const [id, alternatives] of Object.entries(agreed)) {
      const entry = assumption(id)
      expect(entry, id).toBeDefined()
      expect(
        entry!.alternatives.map((alternative) => alternative.id),
        id,
      ).toEqual(expect.arrayContaining(alternatives))
    }
  })

  it('finds no assumption by an unknown id', () => {
    expect(assumption('create.stauts')).toBeUndefined()
  })
})
