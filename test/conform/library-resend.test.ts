// An HTTP library's own resend, with real libraries: the kit names the library and the setting that
// stops it, and a client with that setting passes. libcurl through the `curl` command (two requests on
// one connection), Ruby's Net::HTTP at its defaults (one connection per request).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RESENDERS } from '../../src/core/rules/resend.js'
import type { ConformanceCase } from '../../src/core/rules/suite.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { RunOptions } from '../../src/node/runner/options.js'
import { needs } from '../support/needs.js'

// Curl and jq (libcurl through the `curl` command), and Ruby's Net::HTTP.
needs('curl', 'jq', 'ruby')

const CURL = 'bash test/conform/clients/resend/curl-batch.sh'
const RUBY = 'ruby test/conform/clients/resend/net_http.rb'

/** The new-vehicle visit whose payment's connection is reset the first time: the custodian's connection carries the payment. */
const PAYMENT_RESET: ConformanceCase = {
  id: 'libcurl/payment-create/reset/once',
  flow: 'advanced',
  scenario: 'new-vehicle',
  title: 'POST /payments is reset the first time, on the connection POST /custodians kept alive',
  outcome: 'unknown',
  faults: [{ route: 'POST /payments', kind: 'reset', mode: 'once' }],
}

async function runOne(options: RunOptions) {
  const result = await runConformance({ jobs: 1, ...options })
  const [kase] = result.cases
  const rule = (id: string) => kase.checks.find((check) => check.rule === id)!
  return { kase, rule, failed: kase.checks.filter((check) => check.status === 'failed').map((check) => check.rule) }
}

describe("libcurl's resend of a POST on a new connection after a kept-alive connection's reset", () => {
  it.concurrent(
    'fails resilience.no-resend, naming libcurl and the settings that stop it',
    async () => {
      const { kase, rule, failed } = await runOne({ client: CURL, suite: [PAYMENT_RESET] })
      const payments = kase.requests.filter((entry) => entry.route === 'POST /payments')
      expect(payments.map((entry) => entry.response.status)).toEqual([0, 201])
      expect(payments[1].connection).not.toBe(payments[0].connection)
      expect(failed).toContain('resilience.no-resend')
      const { message } = rule('resilience.no-resend')
      expect(message).toContain(
        "right after the kept-alive connection it came on was reset: the client's HTTP library resent it by itself",
      )
      for (const words of [
        'libcurl',
        'CURLOPT_FORBID_REUSE',
        'CURLOPT_FRESH_CONNECT',
        'the `curl` command',
        'Connection: close',
      ])
        expect(message).toContain(words)
    },
    60_000,
  )

  it.concurrent(
    'passes where the payment takes a new connection (Connection: close on the request before)',
    async () => {
      const { kase, failed } = await runOne({ client: CURL, suite: [PAYMENT_RESET], env: { CURL_BATCH_CLOSE: '1' } })
      expect(failed).toEqual([])
      expect(kase.requests.filter((entry) => entry.route === 'POST /payments')).toHaveLength(1)
    },
    60_000,
  )
})

describe("Ruby's Net::HTTP at its defaults resends a GET on a fresh connection", () => {
  it.concurrent(
    "after a reset: each attempt of the client's doubled, a storm named as the library's",
    async () => {
      const { kase, rule, failed } = await runOne({ client: RUBY, cases: ['resilience/vehicle-lookup/reset/always'] })
      expect(kase.requests.filter((entry) => entry.route === 'GET /vehicles')).toHaveLength(6)
      expect(failed).toEqual(['resilience.bounded-retries'])
      const { message } = rule('resilience.bounded-retries')
      expect(message).toContain("the client's own loop made 3 of the 6")
      for (const words of ['Net::HTTP', 'max_retries = 0']) expect(message).toContain(words)
      expect(message).not.toContain('set the retry limit')
    },
    60_000,
  )

  it.concurrent(
    'after its read timeout: the deadline names the library, and no advice to set a timeout it has or to end once it has reported',
    async () => {
      const { rule, failed } = await runOne({
        client: RUBY,
        cases: ['resilience/vehicle-lookup/hang/always'],
        requestTimeoutMs: 1500,
        timeoutMs: 8000,
      })
      expect(failed).toEqual(expect.arrayContaining(['resilience.deadline', 'client.completes']))
      const deadline = rule('resilience.deadline').message
      expect(deadline).toContain('It has a timeout: it gave up on')
      for (const words of ['Net::HTTP', 'max_retries = 0']) expect(deadline).toContain(words)
      expect(deadline).not.toContain('Give every request a timeout')
      const completes = rule('client.completes').message
      expect(completes).toContain('still inside its visit (it had written no report)')
      expect(completes).not.toContain('once it has reported')
      expect(completes).toContain('it keeps a timeout: it gave up on a hung request after')
      expect(completes).not.toContain('a timeout on each request')
    },
    60_000,
  )

  it.concurrent(
    'with max_retries = 0 it passes both',
    async () => {
      const env = { NET_HTTP_MAX_RETRIES: '0' }
      const reset = await runOne({ client: RUBY, cases: ['resilience/vehicle-lookup/reset/always'], env })
      expect(reset.failed).toEqual([])
      const hang = await runOne({
        client: RUBY,
        cases: ['resilience/vehicle-lookup/hang/always'],
        requestTimeoutMs: 1500,
        timeoutMs: 8000,
        env,
      })
      expect(hang.failed).toEqual([])
    },
    60_000,
  )
})

it('docs/rules.md lists every library whose resend the rules name', () => {
  const table = readFileSync('docs/rules.md', 'utf8')
  for (const { name } of RESENDERS)
    expect(table).toMatch(new RegExp(`^\\| [^|]*${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`, 'm'))
})
