// The suite `variants`: the flow cases again where the mock answers as a real service may. The clients
// that lean on one of relay-mock's choices pass their flow case and fail the variant case, naming the
// assumption; correct clients pass every variant case.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import pc from 'picocolors'
import { describe, expect, it } from 'vitest'
import variants from '../../suites/variants.js'
import { assumption } from '../../src/core/ledger/assumptions.js'
import { createRelayService } from '../../src/core/service/mock.js'
import { fidelityRules } from '../../src/core/rules/fidelity.js'
import { isStrict, STRICT_VARIANTS, VARIED_ASSUMPTIONS } from '../../src/core/service/variants.js'
import advanced from '../../suites/advanced.js'
import simple from '../../suites/simple.js'
import { checkHarFile } from '../../src/node/files/from-har.js'
import { createHarReporter } from '../../src/node/reporters/har.js'
import { heldLines } from '../../src/node/reporters/console.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { toJsonReport } from '../../src/node/reporters/json.js'
import { toJUnitXml } from '../../src/node/reporters/junit.js'
import { toHeld } from '../../src/core/rules/held.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { selectCases } from '../../src/node/runner/select.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'

const fn = (defect: string): ClientFunction => createDefectiveClient(defect) as ClientFunction

describe('the variants suite', () => {
  it('varies every served alternative of the assumptions it covers, and those are the ones with a fidelity rule', () => {
    const single = variants.cases.filter((kase) => !isStrict(kase.variants))
    const varied = new Set(single.map((kase) => Object.keys(kase.variants ?? {})[0]))
    expect([...varied].sort()).toEqual([...VARIED_ASSUMPTIONS].sort())
    expect(fidelityRules.map((rule) => rule.id).sort()).toEqual(
      [...VARIED_ASSUMPTIONS.map((id) => `fidelity.${id}`), 'fidelity.strict'].sort(),
    )
    for (const id of VARIED_ASSUMPTIONS) {
      const served = assumption(id)!
        .alternatives.filter((alternative) => alternative.notServed === undefined)
        .map((alternative) => alternative.id)
      const covered = single.flatMap((kase) => (kase.variants?.[id] ? [kase.variants[id]] : []))
      expect(new Set(covered), id).toEqual(new Set(served))
    }
  })

  it('says in each title what a correct client reports where the outcome changes, once', () => {
    const title = variants.cases.find(
      (kase) => kase.id === 'variants/simple.unknown-owner=accepted/simple-unknown-owner',
    )!.title
    expect(title).toMatch(/: a correct client reports `paid`$/)
    for (const kase of variants.cases)
      expect(kase.title.split('a correct client reports').length, kase.id).toBeLessThanOrEqual(2)
  })

  it('runs every flow case again in the strict world, which serves every alternative that refuses a lenient form', () => {
    const strict = variants.cases.filter((kase) => isStrict(kase.variants))
    expect(strict.map((kase) => kase.id)).toEqual(
      [...advanced.cases, ...simple.cases]
        .filter((kase) => kase.visit === undefined)
        .map((kase) => `variants/strict/${kase.id.replace('/', '-')}`),
    )
    expect(strict).toHaveLength(10)
    for (const id of Object.keys(STRICT_VARIANTS)) expect(VARIED_ASSUMPTIONS, id).not.toContain(id)
  })

  it('names the assumption and the alternative in each case id, and is part of the default run', () => {
    for (const kase of variants.cases) {
      if (isStrict(kase.variants)) {
        expect(kase.id.startsWith('variants/strict/'), kase.id).toBe(true)
        continue
      }
      const [[id, alternative]] = Object.entries(kase.variants!)
      expect(kase.id.startsWith(`variants/${id}=${alternative}/`), kase.id).toBe(true)
    }
    expect(selectCases().filter((kase) => kase.id.startsWith('variants/'))).toHaveLength(variants.cases.length)
    expect(selectCases({ suites: ['variants'] }).map((kase) => kase.id)).toEqual(variants.cases.map((kase) => kase.id))
  })

  it('has each alternative that reshapes error answers meet a refusal, a server error and a lost token in each flow', () => {
    const kinds = (kase: (typeof variants.cases)[number]) => {
      const fault = kase.faults?.[0]?.kind
      return {
        refusal: fault === 'rate-limited' || kase.scenario === 'simple-failure',
        'server error': fault === 'server-error' || fault === 'unavailable' || kase.scenario === 'payment-unavailable',
        'lost token': fault === 'token-revoked',
      }
    }
    const reshapes: Record<string, Array<keyof ReturnType<typeof kinds>>> = {
      'error.body=json-message': ['refusal', 'server error', 'lost token'],
      'auth.refusal=403': ['lost token'],
      'auth.refusal=401-no-challenge': ['lost token'],
    }
    for (const [key, answers] of Object.entries(reshapes)) {
      const [id, alternative] = key.split('=')
      for (const flow of ['advanced', 'simple'] as const) {
        const met = variants.cases.filter((kase) => kase.flow === flow && kase.variants?.[id] === alternative)
        for (const answer of answers)
          expect(
            met.some((kase) => kinds(kase)[answer]),
            `${key} meets a ${answer} in the ${flow} flow`,
          ).toBe(true)
      }
    }
  })

  it('expects an accepted unregistered owner to be reported paid', () => {
    expect(variants.cases.find((kase) => kase.variants?.['simple.unknown-owner'] === 'accepted')?.outcome).toBe('paid')
  })
})

describe('clients that lean on a choice of relay-mock', () => {
  // Each passes the flow case under relay-mock's choice; test/conform/broken-clients.test.ts fails it in the variant case.
  const leaning: Array<[defect: string, flowCase: string, variantCase: string]> = [
    ['only-201-created', 'advanced/new-vehicle', 'variants/create.status=200-no-location/advanced-new-vehicle'],
    ['only-201-created', 'simple/accepted', 'variants/create.status=200-no-location/simple-accepted'],
    ['id-from-location', 'advanced/new-vehicle', 'variants/create.status=201-no-location/advanced-new-vehicle'],
    ['strict-records', 'advanced/existing-vehicle', 'variants/records.extra-fields=extra/advanced-existing-vehicle'],
    ['strict-records', 'advanced/new-vehicle', 'variants/records.extra-fields=extra/advanced-new-vehicle'],
    [
      'problem-title',
      'resilience/payment-create/unavailable/once',
      'variants/error.body=json-message/advanced-payment-unavailable',
    ],
    // The client: a problem document's title read from a 500, a 401 or a 429 in the advanced flow.
    [
      'problem-title',
      'resilience/payment-create/server-error/once',
      'variants/error.body=json-message/resilience-payment-create-server-error-once',
    ],
    [
      'problem-title',
      'resilience/payment-create/token-revoked/once',
      'variants/error.body=json-message/resilience-payment-create-token-revoked-once',
    ],
    [
      'problem-title',
      'resilience/payment-create/rate-limited/once',
      'variants/error.body=json-message/resilience-payment-create-rate-limited-once',
    ],
    [
      'throws-on-403',
      'resilience/payment-create/token-revoked/once',
      'variants/auth.refusal=403/resilience-payment-create-token-revoked-once',
    ],
    [
      'needs-challenge',
      'resilience/payment-create/token-revoked/once',
      'variants/auth.refusal=401-no-challenge/resilience-payment-create-token-revoked-once',
    ],
    ['paid-from-status-new', 'simple/accepted', 'variants/simple.answer=id-only/simple-accepted'],
    ['paid-from-status-new', 'simple/accepted', 'variants/simple.answer=status-accepted/simple-accepted'],
    ['throws-on-403', 'resilience/simple-payment/token-revoked/once', 'variants/auth.refusal=403/simple-token-revoked'],
    [
      'needs-challenge',
      'resilience/simple-payment/token-revoked/once',
      'variants/auth.refusal=401-no-challenge/simple-token-revoked',
    ],
    ['refusal-422-only', 'simple/rejected', 'variants/simple.refusal-status=400/simple-rejected'],
    ['simple-keys-on-status', 'simple/rejected', 'variants/simple.refusal-status=200/simple-rejected'],
  ]
  for (const [defect, flowCase, variantCase] of leaning) {
    it.concurrent(`${defect}: passes ${flowCase}, fails ${variantCase} by its fidelity rule`, async () => {
      const result = await runConformance({ client: fn(defect), cases: [flowCase, variantCase], jobs: 2 })
      const [flow, varied] = [flowCase, variantCase].map((id) => result.cases.find((kase) => kase.id === id)!)
      expect(
        flow.status,
        flow.checks
          .filter((check) => check.status === 'failed')
          .map((check) => check.message)
          .join('\n'),
      ).toBe('passed')
      const rule = `fidelity.${Object.keys(varied.variants!)[0]}`
      const fidelity = varied.checks.find((check) => check.rule === rule)
      expect(fidelity?.status).toBe('failed')
      // It names the alternative, says what the client did, and cites the interface's silence.
      expect(fidelity!.message).toContain(`under ${Object.entries(varied.variants!)[0].join('=')}`)
      expect(fidelity!.message).toMatch(/; instead it (exited|stopped|sent|went on|reported|was)/)
      expect(fidelity!.message).toContain(`(interface: ${assumption(Object.keys(varied.variants!)[0])!.interface})`)
    })
  }

  it.concurrent(
    'stale-owner-list: passes simple/unknown-owner and simple/accepted (the variant case is in broken-clients.test.ts)',
    async () => {
      const service = await createRelayService({ tokens: [] })
      const world = await service.addWorld({ scenario: 'existing-vehicle' })
      const client = createDefectiveClient('stale-owner-list', {
        RELAY_REGISTERED_OWNERS: world.store.rentalCompanies
          .all()
          .map((company) => company.kennitala)
          .join(','),
      }) as ClientFunction
      const result = await runConformance({ client, cases: ['simple/unknown-owner', 'simple/accepted'], jobs: 2 })
      expect(result.cases.map((kase) => [kase.id, kase.status, kase.report?.outcome])).toEqual([
        ['simple/accepted', 'passed', 'paid'],
        ['simple/unknown-owner', 'passed', 'rejected'],
      ])
    },
  )
})

describe('correct clients', () => {
  it('the reference client passes every variant case in-process, and a client with no defect too', async () => {
    for (const client of [referenceClient, fn('none')]) {
      const result = await runConformance({ client, suites: ['variants'], jobs: 4 })
      expect(
        result.cases
          .filter((kase) => kase.status !== 'passed')
          .map(
            (kase) =>
              `${kase.id}: ${kase.checks
                .filter((c) => c.status === 'failed')
                .map((c) => c.message)
                .join('; ')}`,
          ),
      ).toEqual([])
      for (const kase of result.cases)
        expect(
          kase.checks.some((check) => check.rule.startsWith('fidelity.') && check.status === 'passed'),
          kase.id,
        ).toBe(true)
    }
  })
})

describe('the HAR of a variant case', () => {
  it('carries its variants, so conform --from judges it the same', async () => {
    const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-variant-har-'))
    try {
      const file = join(dir, 'run.har')
      const id = 'variants/simple.answer=id-only/simple-accepted'
      // The run holds the flow case the variant repeats too (simple/accepted, first): the variant is its second page.
      const run = await runConformance({
        client: fn('paid-from-status-new'),
        cases: [id],
        jobs: 1,
        reporters: [createHarReporter({ file })],
      })
      const har = JSON.parse(await readFile(file, 'utf8'))
      expect(har.log.pages.map((page: { id: string }) => page.id)).toEqual(['simple/accepted', id])
      expect(har.log.pages[1]._relay.variants).toEqual({ 'simple.answer': 'id-only' })
      const checked = await checkHarFile(file)
      const verdicts = (result: { cases: Array<{ checks: Array<{ rule: string; status: string }> }> }) =>
        result.cases[1].checks.map((check) => [check.rule, check.status])
      expect(verdicts(checked)).toEqual(verdicts(run))
      expect(checked.cases[1].checks.find((check) => check.rule === 'fidelity.simple.answer')?.status).toBe('failed')
      expect(checked.cases[1].variants).toEqual({ 'simple.answer': 'id-only' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the reports', () => {
  it('show, beside the matrix, whether the client held under every alternative of each assumption', async () => {
    const result = await runConformance({
      client: fn('only-201-created'),
      cases: [
        'variants/create.status=200-no-location/advanced-new-vehicle',
        'variants/create.status=201-no-location/advanced-new-vehicle',
        'variants/error.body=json-message/simple-rejected',
      ],
      jobs: 3,
    })
    const held = toHeld(result.cases)!
    expect(
      held.map((entry) => [
        entry.assumption,
        entry.held,
        entry.alternatives.map((alternative) => [alternative.id, alternative.status]),
      ]),
    ).toEqual([
      [
        'create.status',
        false,
        [
          ['200-no-location', 'failed'],
          ['201-no-location', 'passed'],
        ],
      ],
      ['error.body', true, [['json-message', 'passed']]],
    ])
    expect(toJsonReport(result).variants).toEqual(held)
    expect(heldLines(held, pc.createColors(false)).slice(1)).toEqual([
      '  ✗ create.status  200-no-location ✗  201-no-location ✓',
      '  ✓ error.body     json-message ✓',
    ])
    const xml = toJUnitXml(result)
    expect(xml).toContain(
      '<property name="relay-mock.assumption.create.status" value="did not hold under 200-no-location"/>',
    )
    expect(xml).toContain('<property name="relay-mock.variant" value="create.status=200-no-location"/>')
    const page = toHtmlReport(result)
    expect(page).toContain('Where the interface is silent')
    expect(page).toMatch(/<code>create\.status<\/code>/)
    expect(toHeld(result.cases.map((kase) => ({ ...kase, variants: undefined })))).toBeUndefined()
  })
})
