// The memo of one behind the pipeline's repeated readings (query strings, Authorization, Content-Type, masking).
import { describe, expect, it, vi } from 'vitest'
import { readingOnce } from '../../src/core/once.js'

describe('readingOnce', () => {
  it('reads a value once while it repeats, and answers the same object', () => {
    const read = vi.fn((value: string) => ({ value }))
    const once = readingOnce(read)
    const first = once('?plate=AB123')
    expect(once('?plate=AB123')).toBe(first)
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('reads again when the value changes, and again when the old one comes back', () => {
    const read = vi.fn((value: string) => value.length)
    const once = readingOnce(read)
    expect([once('a'), once('bb'), once('a')]).toEqual([1, 2, 1])
    expect(read).toHaveBeenCalledTimes(3)
  })

  it('reads the empty string too (it is a value, not "nothing read yet")', () => {
    const read = vi.fn(() => 'read')
    const once = readingOnce(read)
    expect(once('')).toBe('read')
    expect(read).toHaveBeenCalledTimes(1)
  })
})
