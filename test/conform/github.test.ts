// The GitHub Actions annotations: one ::error per failed rule, a ::warning per rule not checked or warned,
// escaped as workflow commands require.
import { describe, expect, it } from 'vitest'
import type { CaseResult, Check, RunResult } from '../../src/core/rules/types.js'
import { caseStatus, countCases } from '../../src/core/rules/verdict.js'
import { toGitHubAnnotations } from '../../src/node/reporters/github.js'

function run(checks: Check[]): RunResult {
  const kase = { id: 'advanced/new-vehicle', status: caseStatus(checks), checks } as CaseResult
  return {
    summary: {
      ...countCases([kase]),
      clientMs: 1,
      wallMs: 1,
      startedAt: '',
      version: '0.1.0',
      client: 'c',
      flows: ['advanced'],
    },
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
      '::notice title=relay-mock conform::Not conformant: 1 case, 0 passed, 1 failed; rules broken: advanced.payment-body',
    ])
  })

  it('gives a ::warning per rule not checked (saying why) and per warning', () => {
    const lines = toGitHubAnnotations(
      run([
        {
          rule: 'client.completes',
          status: 'not-checked',
          missing: ['client'],
          message: "Not checked: it needs the client's run, which was not given.",
        },
        { rule: 'client.outcome', status: 'warning', message: 'rejected where unknown is truthful' },
      ]),
    )
    expect(lines).toEqual([
      "::warning title=client.completes in advanced/new-vehicle (not checked)::Not checked: it needs the client's run, which was not given.",
      '::warning title=client.outcome in advanced/new-vehicle (warning)::rejected where unknown is truthful',
      '::notice title=relay-mock conform::Not conformant: 1 case, 0 passed, 1 partial, 0 failed; not checked: client.completes',
    ])
  })

  it('escapes newlines and percent signs in messages, and colons and commas in titles', () => {
    const [line] = toGitHubAnnotations(run([{ rule: 'a:b,c', status: 'failed', message: '100% wrong\nsecond line\r' }]))
    expect(line).toBe('::error title=a%3Ab%2Cc in advanced/new-vehicle::100%25 wrong%0Asecond line%0D')
  })

  it('says every case passed when none failed', () => {
    expect(toGitHubAnnotations(run([{ rule: 'auth.bearer', status: 'passed', message: 'ok' }]))).toEqual([
      '::notice title=relay-mock conform::Conformant: 1 case, 1 passed, 0 failed',
    ])
  })
})
