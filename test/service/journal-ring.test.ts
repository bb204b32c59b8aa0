// The journal's ring: beyond the cap the oldest entries go (and are counted); reading from a seq
// and reading the newest entry work the same before and after the ring wraps.
import { describe, expect, it } from 'vitest'
import { createJournal, type JournalEntry } from '../../src/core/service/journal.js'

const entry = (seq: number) => ({ seq }) as JournalEntry
const seqs = (entries: JournalEntry[]) => entries.map((e) => e.seq)

describe('createJournal', () => {
  it('keeps the newest entries in order once it wraps, and counts the dropped', () => {
    const journal = createJournal({ limit: 3 })
    for (let seq = 1; seq <= 7; seq++) journal.record(entry(seq))
    expect(seqs(journal.entries())).toEqual([5, 6, 7])
    expect(journal.page()).toMatchObject({ total: 7, dropped: 4, limit: 3 })
  })

  it('answers entries since a seq, before and after wrapping', () => {
    const journal = createJournal({ limit: 4 })
    for (let seq = 1; seq <= 3; seq++) journal.record(entry(seq))
    expect(seqs(journal.entries(1))).toEqual([2, 3])
    for (let seq = 4; seq <= 9; seq++) journal.record(entry(seq))
    expect(seqs(journal.entries(7))).toEqual([8, 9])
    expect(seqs(journal.entries(2))).toEqual([6, 7, 8, 9])
    expect(journal.entries(9)).toEqual([])
  })

  it('gives the newest entry without copying, or undefined when empty', () => {
    const journal = createJournal({ limit: 2 })
    expect(journal.latest()).toBeUndefined()
    for (let seq = 1; seq <= 5; seq++) journal.record(entry(seq))
    expect(journal.latest()?.seq).toBe(5)
  })
})
