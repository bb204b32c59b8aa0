// The GitHub Actions annotations: one ::error per failed rule, escaped as workflow commands require.
import { describe, expect, it } from 'vitest'
import type { CaseResult, Check, RunResult } from '../../src/core/rules/types.js'
import { toGitHubAnnotations } from '../../src/node/reporters/github.js'

function run(checks: Check[]): RunResult {
  const kase = { id: 'advanced/new-vehicle', status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed', checks } as CaseResult
  const failed = kase.status === 'failed' ? 1 : 0
  return {
    summary: { total: 1, passed: 1 - failed, failed, rulesBroken: checks.filter((c) => c.status === 'failed').map((c) => c.rule), clientMs: 1, wallMs: 1, startedAt: '', version: '0.1.0', client: 'c', flows: ['advanced'] },
    cases: [kase],
  }
}

describe('toGitHubAnnotations', () => {
  it('gives one ::error per failed rule, titled by rule and case, and a closing notice', () => {
    const lines = toGitHubAnnotations(
      run([
        { rule: 'auth.bearer', status: 'passed', message: 'ok' },
        { rule: 'advanced.payment-body', status: 'failed', message: 'amount.amount is "2490" (a string)' },
        { rule: 'advanced.first-vehicle', status: 'skipped', message: 'does not apply' },
      ]),
    )
    expect(lines).toEqual([
      '::error title=advanced.payment-body in advanced/new-vehicle::amount.amount is "2490" (a string)',
      '::notice title=relay-mock conform::1 of 1 case failed; rules broken: advanced.payment-body',
    ])
  })

  it('escapes newlines and percent signs in messages, and colons and commas in titles', () => {
    const [line] = toGitHubAnnotations(run([{ rule: 'a:b,c', status: 'failed', message: '100% wrong\nsecond line\r' }]))
    expect(line).toBe('::error title=a%3Ab%2Cc in advanced/new-vehicle::100%25 wrong%0Asecond line%0D')
  })

  it('says every case passed when none failed', () => {
    expect(toGitHubAnnotations(run([{ rule: 'auth.bearer', status: 'passed', message: 'ok' }]))).toEqual(['::notice title=relay-mock conform::1 case passed'])
  })
})
