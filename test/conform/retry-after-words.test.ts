// A case's title and its rule's failure name the same figures, read from the same values: the rate-limited
// case says how far ahead its Retry-After date lies, and resilience.retry-after's failure names that date's
// lead and the wait that counts, from the header the client got.
import { describe, expect, it } from 'vitest'
import {
  rateLimitedRetryAfter,
  RATE_LIMITED_AHEAD,
  RETRY_AFTER_SECONDS,
  SLOW_FAULT_MS,
} from '../../src/core/service/faults.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { cases } from '../../suites/index.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'

const seconds = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1])

describe("the resilience cases' figures", () => {
  it("title each fault with the fault table's own figures", () => {
    const title = (id: string) => cases.find((kase) => kase.id === id)!.title
    expect(title('resilience/vehicle-lookup/rate-limited/once')).toContain(`a Retry-After date ${RATE_LIMITED_AHEAD}`)
    expect(title('resilience/vehicle-lookup/unavailable/once')).toContain(`Retry-After: ${RETRY_AFTER_SECONDS}`)
    expect(title('resilience/vehicle-lookup/slow/once')).toContain(`${SLOW_FAULT_MS / 1000} s late`)
  })

  it('date the Retry-After as far ahead as the title says, at every moment of a second', () => {
    const [low, high] = /^(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?) s ahead$/.exec(RATE_LIMITED_AHEAD)!.slice(1).map(Number)
    for (const into of [0, 1, 500, 999]) {
      const now = Date.parse('2026-11-21T09:14:05.000Z') + into
      const ahead = (Date.parse(rateLimitedRetryAfter(now)) - now) / 1000
      expect(ahead, `${into} ms into the second`).toBeGreaterThanOrEqual(low)
      expect(ahead).toBeLessThan(high)
    }
  })

  it('fail a client that retries a 429 at once with the figures of its title: the date as far ahead as it said, and the wait that counts', async () => {
    const id = 'resilience/vehicle-lookup/rate-limited/once'
    const result = await runConformance({
      client: createDefectiveClient('no-retry-after') as ClientFunction,
      cases: [id],
    })
    const kase = result.cases[0]
    const message = kase.checks.find((check) => check.rule === 'resilience.retry-after')!.message
    const [low, high] = /(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?) s ahead/.exec(kase.title)!.slice(1).map(Number)
    const lead = seconds(message, /the date Retry-After names, (\d+\.\d) s after the answer/)
    const least = seconds(message, /\(at least (\d+\.\d) s: an HTTP-date names a whole second\)/)
    expect(lead, message).toBeGreaterThanOrEqual(low)
    expect(lead).toBeLessThanOrEqual(high)
    expect(least).toBeCloseTo(lead - 1, 5)
  })
})
