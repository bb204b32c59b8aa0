// Verdicts from checks (a case's status, a run's counts and whether it passes) and the words every
// message uses for counts and values.
import { describe, expect, it } from 'vitest'
import type { CaseStatus, Check, CheckStatus } from '../../src/core/rules/types.js'
import { casePasses, caseStatus, countCases } from '../../src/core/rules/verdict.js'
import { show } from '../../src/core/rules/facts.js'
import { allOf, clipJson, plural } from '../../src/core/text.js'

const checks = (...statuses: CheckStatus[]): Check[] =>
  statuses.map((status, i) => ({ rule: `rule-${i}`, status, message: status }))

describe('caseStatus', () => {
  it('is failed when any rule failed, whatever else', () => {
    expect(caseStatus(checks('passed', 'not-checked', 'warning', 'failed'))).toBe('failed')
  })

  it('is partial, never passed, when a rule was not checked', () => {
    expect(caseStatus(checks('passed', 'skipped', 'not-checked'))).toBe('partial')
    expect(caseStatus(checks('warning', 'not-checked'))).toBe('partial')
  })

  it('is warning when a rule warned and none failed or went unchecked', () => {
    expect(caseStatus(checks('passed', 'warning', 'skipped'))).toBe('warning')
  })

  it('is passed when every rule passed or did not apply', () => {
    expect(caseStatus(checks('passed', 'skipped'))).toBe('passed')
  })
})

describe('countCases', () => {
  const kase = (status: CaseStatus, ...statuses: CheckStatus[]) => ({ status, checks: checks(...statuses) })
  const run = [
    kase('passed', 'passed'),
    kase('warning', 'warning'),
    kase('partial', 'not-checked'),
    kase('failed', 'failed'),
    kase('not-reached', 'skipped'),
    kase('echo', 'echo'),
  ]

  it('counts each case status and names the rules behind them', () => {
    expect(countCases(run)).toEqual({
      total: 6,
      passed: 1,
      warning: 1,
      partial: 1,
      failed: 1,
      echo: 1,
      notReached: 1,
      flaky: 0,
      rulesBroken: ['rule-0'],
      rulesNotChecked: ['rule-0'],
      rulesWarned: ['rule-0'],
      allowPartial: false,
      strict: false,
      conformant: false,
    })
  })

  it('lets partial cases pass only with allowPartial, and fails warnings only with strict', () => {
    const partial = [kase('passed'), kase('partial', 'not-checked')]
    expect(countCases(partial).conformant).toBe(false)
    expect(countCases(partial, { allowPartial: true }).conformant).toBe(true)
    const warned = [kase('passed'), kase('warning', 'warning')]
    expect(countCases(warned).conformant).toBe(true)
    expect(countCases(warned, { strict: true }).conformant).toBe(false)
  })

  it('lets an echo pass the run, under --strict too: the flow case it echoes fails it, once', () => {
    expect(caseStatus(checks('passed', 'echo'))).toBe('echo')
    expect(caseStatus(checks('echo', 'warning'))).toBe('warning')
    expect(caseStatus(checks('echo', 'failed'))).toBe('failed')
    expect(countCases([kase('echo', 'echo')], { strict: true }).conformant).toBe(true)
    expect(countCases([kase('failed', 'failed'), kase('echo', 'echo')]).rulesBroken).toEqual(['rule-0'])
  })

  it('never lets a case that was not reached pass', () => {
    expect(casePasses('not-reached', { allowPartial: true })).toBe(false)
    expect(countCases([kase('not-reached')], { allowPartial: true }).conformant).toBe(false)
  })
})

describe('the words of messages', () => {
  it('says "1 request" and "the request", never "1 requests" or "all 1 requests"', () => {
    expect(plural(1, 'request')).toBe('1 request')
    expect(plural(2, 'company', 'companies')).toBe('2 companies')
    expect(allOf(1, 'request')).toBe('the request')
    expect(allOf(3, 'request')).toBe('all 3 requests')
  })

  it('shows a short value whole', () => {
    const expected = {
      vehicleId: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      rentalCompanyId: '9a8b7c6d-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      acquiredOn: '2024-03-01 00:00:00',
    }
    expect(show(expected)).toBe(JSON.stringify(expected))
  })

  it('cuts a long value only between whole members, so what is shown parses as it reads', () => {
    const value = { a: 'x'.repeat(30), b: 'y'.repeat(30), c: 'z'.repeat(30) }
    const shown = clipJson(value, 80)
    expect(shown).toBe(`{"a":"${'x'.repeat(30)}","b":"${'y'.repeat(30)}",…}`)
    expect(clipJson('x'.repeat(100), 20)).toMatch(/^"x+…"$/)
    expect(clipJson([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 12)).toBe('[1,2,3,4,…]')
  })
})
