// What relay-mock accepts beyond the interface's text is a guess too: each lenient form gets a
// `fidelity.strict` warning where it passed, and fails in the strict world (variants/strict/*), which
// refuses them all; a client that uses none passes both. The clients run in-process (test/conform/clients/lenient.ts).
import { describe, expect, it } from 'vitest'
import { clauses } from '../../src/core/ledger/assumptions.js'
import { createRelayService } from '../../src/core/service/mock.js'
import { lenientForms } from '../../src/core/service/leniency.js'
import { routeById } from '../../src/core/service/protocol.js'
import { toVariants } from '../../src/core/service/variants.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { lenientClient, LENIENT_FORMS, type LenientFormName } from './clients/lenient.js'

/** Each lenient form, the assumption it leans on, and a case where the client meets it. */
const FORMS: Record<Exclude<LenientFormName, 'none'>, { assumption: string; kase: string }> = {
  'lower-case-bearer': { assumption: 'auth.scheme', kase: 'advanced/new-vehicle' },
  'double-space-bearer': { assumption: 'auth.scheme', kase: 'simple/accepted' },
  'cache-buster': { assumption: 'query.extra', kase: 'advanced/new-vehicle' },
  'repeated-plate': { assumption: 'query.extra', kase: 'advanced/existing-vehicle' },
  'vendor-json': { assumption: 'request.content-type', kase: 'advanced/new-vehicle' },
  'utf8-charset': { assumption: 'request.content-type', kase: 'simple/accepted' },
  'get-body': { assumption: 'http.get-body', kase: 'advanced/existing-vehicle' },
  'date-only-acquired-on': { assumption: 'custodian.acquired-on', kase: 'advanced/new-vehicle' },
  'lower-case-plate': { assumption: 'plate.format', kase: 'advanced/existing-vehicle' },
  'hyphenated-plate': { assumption: 'plate.format', kase: 'simple/accepted' },
  'fraction-amount': { assumption: 'request.number-form', kase: 'advanced/new-vehicle' },
  'exponent-amount': { assumption: 'request.number-form', kase: 'simple/accepted' },
  'duplicate-key': { assumption: 'request.duplicate-keys', kase: 'advanced/existing-vehicle' },
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const strictOf = (kase: string) => `variants/strict/${kase.replace('/', '-')}`
const fidelity = (result: Awaited<ReturnType<typeof runConformance>>, id: string) => {
  const kase = result.cases.find((c) => c.id === id)!
  return { status: kase.status, check: kase.checks.find((c) => c.rule === 'fidelity.strict')! }
}

describe('fidelity.strict, through a run', () => {
  it.concurrent.each(Object.entries(FORMS))(
    'a client that sends %s is warned where relay-mock accepted it, and failed in the strict world, the form named',
    async (form, { assumption, kase }) => {
      const result = await runConformance({
        client: lenientClient(form as LenientFormName),
        cases: [kase, strictOf(kase)],
        jobs: 2,
      })
      const lenient = fidelity(result, kase)
      expect(lenient.status, lenient.check.message).toBe('warning')
      expect(lenient.check.status).toBe('warning')
      expect(lenient.check.message).toContain(`(${assumption}=`)
      expect(lenient.check.message).toContain('send ')
      const strict = fidelity(result, strictOf(kase))
      expect(strict.status).toBe('failed')
      expect(strict.check.status, strict.check.message).toBe('failed')
      expect(strict.check.message).toContain('in the strict world')
      expect(strict.check.message).toContain(`(${assumption}=`)
      // Each form cites its own clause of the interface, as its assumption does, and no other.
      for (const check of [lenient.check, strict.check])
        expect(check.message).toMatch(new RegExp(`\\(interface: ${escaped(clauses(assumption).join('; '))}\\)$`))
    },
  )

  it('passes a client that uses only the forms the interface shows, in every flow case (the edge visits too) and in the strict world', async () => {
    const result = await runConformance({
      client: lenientClient('none'),
      cases: ['advanced/*', 'simple/*', 'variants/strict/*'],
      jobs: 4,
    })
    expect(result.cases.filter((kase) => kase.id.startsWith('variants/strict/'))).toHaveLength(10)
    expect(
      result.cases
        .filter((kase) => kase.status !== 'passed')
        .map(
          (kase) =>
            `${kase.id}: ${kase.checks
              .filter((c) => c.status !== 'passed' && c.status !== 'skipped')
              .map((c) => c.message)
              .join('; ')}`,
        ),
    ).toEqual([])
    for (const kase of result.cases)
      expect(kase.checks.find((c) => c.rule === 'fidelity.strict')?.status, kase.id).toBe('passed')
  })

  it('knows every form the test client can use', () => {
    expect(Object.keys(FORMS).sort()).toEqual(LENIENT_FORMS.filter((form) => form !== 'none').sort())
  })
})

describe('the strict world, by hand (serve --variant strict)', () => {
  const services = Promise.all([createRelayService({ variants: toVariants(['strict']) }), createRelayService({})])

  const cases: {
    name: string
    method: string
    url: string
    headers?: Record<string, string>
    body?: string
    status: number
    says: string
  }[] = [
    {
      name: 'a lower-case bearer',
      method: 'GET',
      url: '/vehicles?plate=AB123',
      headers: { authorization: 'bearer TOKEN' },
      status: 401,
      says: 'auth.scheme=exact',
    },
    {
      name: 'a cache-buster',
      method: 'GET',
      url: '/vehicles?plate=AB123&_=17',
      status: 400,
      says: 'query.extra=refused',
    },
    {
      name: 'a repeated parameter',
      method: 'GET',
      url: '/vehicles?plate=AB123&plate=AB123',
      status: 400,
      says: 'more than once',
    },
    {
      name: 'a body on a lookup',
      method: 'GET',
      url: '/vehicles?plate=AB123',
      body: '{"plate":"AB123"}',
      status: 400,
      says: 'http.get-body=refused',
    },
    {
      name: 'a vendor JSON type',
      method: 'POST',
      url: '/vehicles',
      headers: { 'content-type': 'application/vnd.relay+json' },
      body: '{"plate":"AB123","country":"is"}',
      status: 415,
      says: 'request.content-type=application-json',
    },
    {
      name: 'a key named twice',
      method: 'POST',
      url: '/vehicles',
      body: '{"plate":"AB123","country":"is","country":"is"}',
      status: 400,
      says: 'request.duplicate-keys=refused',
    },
  ]
  it.each(cases)(
    'refuses $name, naming the form and what to send; the plain mock accepts it',
    async ({ method, url, headers, body, status, says }) => {
      const [service, plain] = await services
      for (const [svc, expected] of [
        [service, status],
        [plain, undefined],
      ] as const) {
        const auth = (headers?.authorization ?? 'Bearer TOKEN').replace('TOKEN', svc.world.token)
        const answer = await svc.handle({
          method,
          url,
          headers: { 'content-type': 'application/json', ...headers, authorization: auth },
          ...(body ? { body } : {}),
        })
        if (expected === undefined) expect(answer.status, answer.text).toBeLessThan(300)
        else {
          expect(answer.status, answer.text).toBe(expected)
          expect(answer.text).toContain(says)
          expect(answer.text).toContain('send ')
        }
      }
    },
  )

  it('finds a whole number not written as an integer, and a key named twice, in the body as sent, where JSON.parse reads them alike', () => {
    const bodyText = '{"locationId":"x","amount":{"amount":3.99e3,"currency":"ISK","currency":"ISK"}}'
    const forms = lenientForms({
      method: 'POST',
      headers: {},
      search: '',
      route: routeById('POST /payments'),
      bodyText,
      body: JSON.parse(bodyText),
    })
    expect(forms.map((form) => [form.assumption, form.where, form.sent, form.status])).toEqual([
      ['request.number-form', 'amount.amount', '3.99e3', 422],
      ['request.duplicate-keys', 'the body', 'the key amount.currency twice', 400],
    ])
    expect(forms[0].instead).toContain('3990, an integer literal')
    // A lookup's body is ignored, and an unreadable body is refused before its forms matter.
    expect(
      lenientForms({
        method: 'POST',
        headers: {},
        search: '',
        route: routeById('POST /payments'),
        bodyText: '{"a":1.0,',
        body: undefined,
      }),
    ).toEqual([])
  })

  it('finds the forms the same way from a request and from its journal entry (one reading)', () => {
    const forms = lenientForms({
      method: 'GET',
      headers: { authorization: 'bearer …abcd' },
      search: '?plate=AB123&_=1',
      route: routeById('GET /vehicles'),
    })
    expect(forms.map((form) => `${form.assumption}=${form.alternative}`)).toEqual([
      'auth.scheme=exact',
      'query.extra=refused',
    ])
  })
})

describe('fidelity.strict live (the live page, conform --from): no case, the journal alone', () => {
  it('warns of a lenient form in a visit the mock recorded, naming the request and what to send', async () => {
    const { evaluate } = await import('../../src/core/rules/index.js')
    const service = await createRelayService({})
    const token = service.world.token
    await service.handle({
      method: 'GET',
      url: `/rental-companies?kennitala=${service.world.visit.ownerKennitala}&_=1795791066550`,
      headers: { authorization: `bearer ${token}` },
    })
    const requests = service.world.journal.entries()
    const check = evaluate({ flow: 'advanced', requests }).find((c) => c.rule === 'fidelity.strict')!
    expect(check.status).toBe('warning')
    expect(check.message).toContain('GET /rental-companies?kennitala=')
    expect(check.message).toContain('send only kennitala=<kennitala> (query.extra=refused)')
    expect(check.message).toContain('send "Bearer <token>"')
    expect(check.message).not.toContain(token)
  })
})
