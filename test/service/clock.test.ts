// The journal's dates: isoOf builds them from the last minute's text, and must say what toISOString says.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoOf } from '../../src/core/service/clock.js'

describe('isoOf', () => {
  it('is toISOString, for any millisecond, in any order (a cached minute is never reused for another)', () => {
    const instant = fc.oneof(
      fc.integer({ min: 0, max: 8.64e15 - 1 }),
      // Near minute, second and day boundaries, where a cache goes wrong.
      fc
        .tuple(fc.integer({ min: 0, max: 2e7 }), fc.constantFrom(0, 1, 999, 1000, 59_000, 59_999, 60_000, 86_399_999))
        .map(([m, d]) => m * 60_000 + d),
      fc.integer({ min: -8.64e15, max: -1 }),
    )
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) {
          expect(isoOf(ms)).toBe(new Date(ms).toISOString())
          expect(isoOf(ms + 1)).toBe(new Date(ms + 1).toISOString())
        }
      }),
      { numRuns: 2000 },
    )
  })
})
