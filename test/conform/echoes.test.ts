// A variant case judged by its difference from the flow case it repeats (src/core/rules/echoes.ts), and the
// run that holds it for that case and runs that case when only the variant was selected (variant-bases.ts).
import { describe, expect, it } from 'vitest'
import variants from '../../suites/variants.js'
import { judgeVariant } from '../../src/core/rules/echoes.js'
import type { CaseResult, Check } from '../../src/core/rules/types.js'
import { caseStatus, countCases } from '../../src/core/rules/verdict.js'
import { holdVariants, withBases } from '../../src/node/runner/variant-bases.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { selectCases } from '../../src/node/runner/select.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'

const BASE = 'advanced/new-vehicle'
const VARIANT = 'variants/create.status=201-no-location/advanced-new-vehicle'
const entry = (seq: number, route: string) =>
  ({
    seq,
    route,
    request: { method: route.split(' ')[0], path: route.split(' ')[1] },
  }) as CaseResult['requests'][number]
const CALLS = [
  entry(1, 'GET /rental-companies'),
  entry(2, 'GET /vehicles'),
  entry(3, 'POST /vehicles'),
  entry(4, 'POST /custodians'),
  entry(5, 'POST /payments'),
]

function result(id: string, checks: Check[], overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    flow: 'advanced',
    scenario: 'new-vehicle',
    title: id,
    status: caseStatus(checks),
    durationMs: 10,
    exitCode: 0,
    signal: null,
    timedOut: false,
    stdout: '',
    stderr: '',
    checks,
    expected: [],
    requests: CALLS,
    expectedOutcome: 'paid',
    report: { outcome: 'rejected' },
    ...(id === VARIANT ? { of: BASE, variants: { 'create.status': '201-no-location' } } : {}),
    ...overrides,
  }
}
const fidelity: Check = {
  rule: 'fidelity.create.status',
  status: 'failed',
  message: 'Expected the client to complete the visit …; instead it reported "rejected".',
  versusChoice: true,
}
const body: Check = { rule: 'advanced.payment-body', status: 'failed', message: 'amount.amount is "2490" (a string)' }
const ok = (rule: string): Check => ({ rule, status: 'passed', message: 'ok' })

describe('judgeVariant', () => {
  it('makes the failures the flow case had already an echo, naming that case and its rules once', () => {
    const judged = judgeVariant(
      result(VARIANT, [ok('auth.bearer'), body, fidelity]),
      result(BASE, [ok('auth.bearer'), body]),
    )
    expect(judged.status).toBe('echo')
    expect(judged.sameAs).toEqual({ case: BASE, rules: ['advanced.payment-body'] })
    expect(judged.checks.map((check) => check.status)).toEqual(['passed', 'echo', 'echo'])
    expect(judged.checks[2].message).toBe(
      `Same defect as in ${BASE}: advanced.payment-body failed there, under relay-mock's choice; not a second failure.`,
    )
    expect(judged.checks[2].echoed).toBe(fidelity.message)
    expect(countCases([judged])).toMatchObject({ failed: 0, echo: 1, passed: 0, rulesBroken: [], conformant: true })
    expect(countCases([judged], { strict: true }).conformant).toBe(true)
  })

  it('keeps a failure the flow case did not have: the alternative broke something more', () => {
    const crash: Check = { rule: 'client.completes', status: 'failed', message: 'exited 1' }
    const judged = judgeVariant(result(VARIANT, [body, fidelity, crash]), result(BASE, [body, ok('client.completes')]))
    expect(judged.status).toBe('failed')
    expect(judged.checks.map((check) => check.status)).toEqual(['echo', 'echo', 'failed'])
  })

  it('keeps a strict-world refusal of a form the client sent: that failure is not a comparison with the flow case', () => {
    const refused: Check = {
      rule: 'fidelity.strict',
      status: 'failed',
      message: 'the client depended on one: a lower-case bearer',
    }
    const lenient: Check = { rule: 'fidelity.strict', status: 'warning', message: 'a lower-case bearer' }
    expect(judgeVariant(result(VARIANT, [refused]), result(BASE, [lenient])).status).toBe('failed')
  })

  it('grades a fidelity failure as the warning the flow case gave where the client did the same there, told once', () => {
    const warned: Check = { rule: 'client.outcome', status: 'warning', message: 'rejected where unknown' }
    const judged = judgeVariant(result(VARIANT, [warned, fidelity]), result(BASE, [warned]))
    expect(judged.status).toBe('warning')
    expect(judged.sameAs).toEqual({ case: BASE, rules: ['client.outcome'], warned: true })
    expect(judged.checks[1]).toMatchObject({ rule: 'fidelity.create.status', status: 'echo', echoed: fidelity.message })
    expect(judged.checks[1].message).toBe(
      `Same flaw as in ${BASE}: client.outcome warned there, under relay-mock's choice, and here; not a second finding.`,
    )
    expect(countCases([judged], { strict: true }).rulesWarned).toEqual(['client.outcome'])
    // Where the variant does not warn by that rule itself, the fidelity failure is that warning.
    const graded = judgeVariant(result(VARIANT, [fidelity]), result(BASE, [warned]))
    expect(graded.status).toBe('warning')
    expect(graded.checks[0]).toMatchObject({ rule: 'fidelity.create.status', status: 'warning' })
    expect(graded.checks[0].message).toMatch(
      new RegExp(
        `^A warning, as in ${BASE}, where the client did the same under relay-mock's choice and client.outcome warned`,
      ),
    )
  })

  it('keeps the failure where the client did otherwise than in the flow case, or a correct client would', () => {
    const warned: Check = { rule: 'client.outcome', status: 'warning', message: 'rejected where unknown' }
    const base = result(BASE, [warned])
    expect(judgeVariant(result(VARIANT, [warned, fidelity], { requests: CALLS.slice(0, 3) }), base).status).toBe(
      'failed',
    )
    expect(judgeVariant(result(VARIANT, [warned, fidelity], { report: { outcome: 'unknown' } }), base).status).toBe(
      'failed',
    )
    expect(judgeVariant(result(VARIANT, [warned, fidelity], { exitCode: 1 }), base).status).toBe('failed')
    expect(judgeVariant(result(VARIANT, [warned, fidelity], { expectedOutcome: 'rejected' }), base).status).toBe(
      'failed',
    )
  })

  it('judges as the rule did where the flow case passed, and leaves a case that repeats another alone', () => {
    const variant = result(VARIANT, [fidelity])
    expect(judgeVariant(variant, result(BASE, [ok('advanced.payment-body')]))).toBe(variant)
    expect(judgeVariant(variant, result('advanced/existing-vehicle', [body]))).toBe(variant)
  })
})

describe('holdVariants', () => {
  it('holds a variant that ends before its flow case, and gives it back judged once that case ends', () => {
    const hold = holdVariants(selectCases({ cases: [BASE, VARIANT] }))
    expect(hold.take(result(VARIANT, [body, fidelity]))).toEqual([])
    const [base, variant] = hold.take(result(BASE, [body]))
    expect(base.id).toBe(BASE)
    expect(variant).toMatchObject({ id: VARIANT, status: 'echo' })
    expect(hold.take(result(VARIANT, [body, fidelity]))[0].status).toBe('echo')
  })
})

describe('a variant case selected without its flow case', () => {
  it('runs the flow case too, first, saying so', () => {
    const { cases, added } = withBases(selectCases({ cases: [VARIANT] }), selectCases())
    expect(cases.map((kase) => kase.id)).toEqual([BASE, VARIANT])
    expect([...added]).toEqual([[BASE, [VARIANT]]])
    expect(withBases(selectCases({ cases: [BASE, VARIANT] }), selectCases()).added.size).toBe(0)
  })

  it('repeats, for every variant case, a case of the default run in the same world and visit', () => {
    const all = selectCases()
    for (const kase of variants.cases) {
      const base = all.find((other) => other.id === kase.of)
      expect(base, kase.id).toBeDefined()
      expect({ flow: base!.flow, scenario: base!.scenario, faults: base!.faults, visit: base!.visit }, kase.id).toEqual(
        { flow: kase.flow, scenario: kase.scenario, faults: kase.faults, visit: kase.visit },
      )
    }
  })

  it('is judged against the flow case run beside it: the same defect once, and a correct client passes both', async () => {
    const amount = await runConformance({
      client: createDefectiveClient('amount-string') as ClientFunction,
      cases: [VARIANT],
    })
    expect(amount.cases.map((kase) => [kase.id, kase.status, kase.addedFor])).toEqual([
      [BASE, 'failed', [VARIANT]],
      [VARIANT, 'echo', undefined],
    ])
    expect(amount.summary).toMatchObject({
      total: 2,
      failed: 1,
      echo: 1,
      rulesBroken: ['advanced.payment-body'],
      conformant: false,
    })
    const correct = await runConformance({ client: referenceClient, cases: [VARIANT] })
    expect(correct.cases.map((kase) => kase.status)).toEqual(['passed', 'passed'])
  })
})
