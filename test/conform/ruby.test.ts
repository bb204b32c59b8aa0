// Ruby's Net::HTTP and Faraday 1.x (Debian's ruby and ruby-faraday): a client on each, set up as
// docs/http-libraries.md ("Ruby") says, passes the cases below with no warning; the same client keeping
// one default the guide names (test/conform/clients/ruby/client.rb's second argument) fails the rule the
// guide names with the words it quotes, or only warns where the guide calls it harmless. Single cases,
// not the whole run: each default bites in one or two.
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../src/node/runner/runner.js'
import type { RunOptions } from '../../src/node/runner/options.js'
import type { CaseResult, RunResult } from '../../src/core/rules/types.js'
import { needs } from '../support/needs.js'

needs('ruby', 'faraday')

const CLIENT = 'ruby test/conform/clients/ruby/client.rb'

/**
 * Net::HTTP's own resends, run first and alone: the kit names a resend by its timing (at once after the
 * loss, sooner than the client's own back-off), which a Ruby process starved of the CPU by the other runs
 * could miss.
 */
const maxRetries = runConformance({
  client: `${CLIENT} net-http max_retries`,
  cases: [
    'resilience/company-lookup/reset/always',
    'resilience/vehicle-lookup/reset/always',
    'resilience/vehicle-lookup/hang/always',
  ],
  // A short request timeout: the hung lookup's six attempts end within the deadline.
  requestTimeoutMs: 1_000,
})
const first = maxRetries.catch(() => undefined)

/** Starts a run once Net::HTTP's resends have run (the runs mostly wait); each test awaits its own. */
function start(args: string, options: Omit<RunOptions, 'client'>): Promise<RunResult> {
  const run = first.then(() => runConformance({ client: `${CLIENT} ${args}`, ...options }))
  run.catch(() => undefined)
  return run
}

const byId = async (run: Promise<RunResult>) => Object.fromEntries((await run).cases.map((kase) => [kase.id, kase]))
const check = (kase: CaseResult, rule: string) => kase.checks.find((c) => c.rule === rule)
/** The requests of the case to the route its fault breaks. */
const attemptsAtFault = (kase: CaseResult) =>
  kase.requests.filter((entry) => entry.route === kase.requests.find((e) => e.fault)?.route)

/** The flows and a lookup's and a payment's every fault: enough to show a recipe whole, at a fraction of the default run. */
/**
 * The recipes' runs give each request 5 s, as the other files that run whole recipes beside the rest of the
 * suite do (libraries, matrix, examples): a correct client's answer must not come after its timeout on a
 * machine that the other test files keep busy.
 */
const RECIPE = { requestTimeoutMs: 5_000 }

const RECIPE_CASES = [
  'advanced/new-vehicle',
  'advanced/unknown-owner',
  'simple/accepted',
  'simple/rejected',
  'resilience/vehicle-lookup/*/once',
  'resilience/payment-create/*/once',
  'resilience/vehicle-create/*/always',
]

describe('Net::HTTP', { timeout: 90_000 }, () => {
  const recipe = start('net-http', { ...RECIPE, cases: RECIPE_CASES })
  const timeouts = start('net-http timeouts', { cases: ['resilience/vehicle-lookup/hang/once'], timeoutMs: 8_000 })
  const contentType = start('net-http content_type', { cases: ['advanced/new-vehicle', 'simple/accepted'] })

  it('set up as the guide says (max_retries = 0, the three timeouts, Content-Type) passes with no warning', async () => {
    const result = await recipe
    expect(result.cases.filter((kase) => kase.status !== 'passed').map((kase) => `${kase.id}: ${kase.status}`)).toEqual(
      [],
    )
    expect(result.summary.total).toBe(2 + 2 + 9 + 9 + 9)
  })

  it('max_retries 1: sends each GET again by itself after a reset or a read timeout, on a fresh connection too; 3 attempts become 6 and fail resilience.bounded-retries', async () => {
    const cases = await byId(maxRetries)
    for (const kase of Object.values(cases)) {
      expect(attemptsAtFault(kase), kase.id).toHaveLength(6)
      expect(check(kase, 'resilience.bounded-retries'), kase.id).toMatchObject({ status: 'failed' })
    }
    // The visit's first request, on a fresh connection (none was kept alive before it), sent again at once.
    const [first, again] = cases['resilience/company-lookup/reset/always'].requests
    expect([first.route, again.route]).toEqual(['GET /rental-companies', 'GET /rental-companies'])
    expect(again.connection).not.toBe(first.connection)
    // The client's own loop retried twice: 3 attempts of its own, 6 at the service.
    expect(
      cases['resilience/company-lookup/reset/always'].stderr.match(/^ {2}retrying GET \/rental-companies/gm),
    ).toHaveLength(2)
  })

  it("max_retries 1: the resend is named as Net::HTTP's, with the line that stops it", async () => {
    for (const kase of Object.values(await byId(maxRetries))) {
      const message = check(kase, 'resilience.bounded-retries')?.message ?? ''
      expect(message, kase.id).toContain('Net::HTTP')
      expect(message, kase.id).toContain('max_retries = 0')
    }
  })

  it('ignore_eof: a 2xx cut off halfway comes back without an error, as a body that does not parse: a lookup goes again, a payment is unknown', async () => {
    const cases = await byId(recipe)
    for (const id of ['resilience/vehicle-lookup/truncated/once', 'resilience/payment-create/truncated/once']) {
      expect(cases[id].status, id).toBe('passed')
      expect(cases[id].stderr, id).toMatch(
        /-> HTTP 20\d with a body that is not JSON|retrying GET \/vehicles\S* in \d+ ms after: HTTP 200 with a body that is not JSON/,
      )
      expect(cases[id].stderr, id).not.toMatch(/EOFError/)
    }
    expect(cases['resilience/payment-create/truncated/once'].report).toMatchObject({ outcome: 'unknown' })
  })

  it('open and read timeouts of 60 s: a hung request is still waiting when the case kills it', async () => {
    const [kase] = (await timeouts).cases
    expect(check(kase, 'resilience.deadline')).toMatchObject({ status: 'failed' })
    expect(check(kase, 'resilience.deadline')?.message).toMatch(
      /still waiting when it was killed.*Give every request a timeout/,
    )
  })

  it('a POST body without Content-Type goes out as application/x-www-form-urlencoded, and fails http.json-body', async () => {
    for (const kase of (await contentType).cases) {
      expect(check(kase, 'http.json-body'), kase.id).toMatchObject({ status: 'failed' })
      expect(check(kase, 'http.json-body')?.message, kase.id).toContain(
        'sent "Content-Type: application/x-www-form-urlencoded"',
      )
    }
  })
})

describe("Faraday 1.x's retry middleware, on its Net::HTTP adapter", { timeout: 90_000 }, () => {
  const recipe = start('faraday', { ...RECIPE, cases: [...RECIPE_CASES, 'resilience/vehicle-lookup/reset/always'] })
  const LOOKUP_FAULTS = ['unavailable', 'rate-limited', 'server-error', 'reset', 'hang'].map(
    (kind) => `resilience/vehicle-lookup/${kind}/once`,
  )
  const defaults = start('faraday retry_defaults', { cases: LOOKUP_FAULTS })
  const noDate = start('faraday no_date', { cases: ['resilience/vehicle-lookup/unavailable/once'] })
  const shortMax = start('faraday short_max_interval', { cases: ['resilience/vehicle-lookup/unavailable/once'] })

  it('set up as the guide says passes with no warning', async () => {
    const result = await recipe
    expect(result.cases.filter((kase) => kase.status !== 'passed').map((kase) => `${kase.id}: ${kase.status}`)).toEqual(
      [],
    )
  })

  it('at its defaults retries a lookup only after a timeout: a 503, a 429, a 500 and a reset are given up at once, a warning each, never a failure', async () => {
    const cases = await byId(defaults)
    expect(cases['resilience/vehicle-lookup/hang/once'].status).toBe('passed')
    const warned = (id: string, rule: string, words: RegExp) => {
      expect(cases[id].status, id).toBe('warning')
      expect(check(cases[id], rule), id).toMatchObject({ status: 'warning', message: expect.stringMatching(words) })
    }
    warned('resilience/vehicle-lookup/unavailable/once', 'resilience.retry-after', /the client gave up at once/)
    warned('resilience/vehicle-lookup/rate-limited/once', 'resilience.retry-after', /the client gave up at once/)
    warned(
      'resilience/vehicle-lookup/server-error/once',
      'resilience.bounded-retries',
      /answered 500.*the client gave up at once/,
    )
    warned('resilience/vehicle-lookup/reset/once', 'resilience.bounded-retries', /reset.*the client gave up at once/)
  })

  it('gives up, rather than retry sooner, when Retry-After is above max_interval: a warning', async () => {
    const [kase] = (await shortMax).cases
    expect(attemptsAtFault(kase)).toHaveLength(1)
    expect(check(kase, 'resilience.retry-after')).toMatchObject({
      status: 'warning',
      message: expect.stringMatching(/Retry-After: \d+\).*the client gave up at once/),
    })
  })

  it("1.1.0: a retry after an answer raises NameError (DateTime) unless 'date' was required, and the client dies", async () => {
    const [kase] = (await noDate).cases
    expect(kase.stderr).toMatch(/uninitialized constant .*DateTime \(NameError\)/)
    expect(check(kase, 'client.completes')).toMatchObject({ status: 'failed' })
  })

  it('1.1.0: the crash is quoted by its NameError, not by its last stack frame', async () => {
    const [kase] = (await noDate).cases
    expect(check(kase, 'client.completes')?.message).toMatch(/NameError/)
  })

  it('its Net::HTTP adapter sets max_retries to 0: a lookup reset every time gets the 3 attempts the middleware makes, no more', async () => {
    const kase = (await byId(recipe))['resilience/vehicle-lookup/reset/always']
    expect(attemptsAtFault(kase)).toHaveLength(3)
    expect(kase.status).toBe('passed')
  })
})
