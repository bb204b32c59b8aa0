// libcurl sends a request again by itself, at once and on a new connection, when a connection it reused
// dies before any of the answer came, a POST too. Under Guzzle and PHP's curl functions a client that keeps
// one handle (one shared Guzzle client) reuses connections; so does `curl` given two URLs. Here, with a
// real libcurl: the PHP example with its CURLOPT_FRESH_CONNECT and CURLOPT_FORBID_REUSE taken out resends
// a payment whose connection was reset, and so do `curl` and PHP's curl functions with a lookup and a
// payment on one connection. The PHP example as it is and the shell example (a curl per request) give each
// request a connection of its own in every case of their whole runs (examples.test.ts).
// docs/http-libraries.md ("libcurl") says the same.
import { afterAll, describe, expect, it } from 'vitest'
import { runConformance } from '../../src/node/runner/runner.js'
import type { CaseResult } from '../../src/core/rules/types.js'
import type { JournalEntry } from '../../src/core/service/journal.js'
import { phpVariant, removePhpVariants } from '../support/php-variant.js'
import { needs } from '../support/needs.js'

// Guzzle and PHP's curl functions, the curl command, and the shell example's jq.
needs('curl', 'jq', 'php', 'php-curl', 'guzzle')

afterAll(removePhpVariants)

const check = (kase: CaseResult, rule: string) => kase.checks.find((c) => c.rule === rule)

/** The POSTs to `route` and, for each, whether it came on a connection that an earlier request had used. */
function posts(requests: JournalEntry[], route: string) {
  return requests
    .filter((entry) => entry.route === route)
    .map((entry) => ({
      seq: entry.seq,
      reused: requests.some((before) => before.seq < entry.seq && before.connection === entry.connection),
    }))
}

// The example's own lines, taken out: its connections kept alive, as Guzzle's and libcurl's defaults keep them.
const REUSING = phpVariant('connections-reused', [
  ['    CURLOPT_FRESH_CONNECT => true,  // never take a kept-alive connection\n', ''],
  ['    CURLOPT_FORBID_REUSE => true,   // and keep none\n', ''],
])

// A lookup, then the payment on the lookup's connection: one curl given both URLs.
const TWO_URLS = 'bash test/conform/clients/curl/two-urls.sh'
// The same with PHP's curl functions, on one handle.
const ONE_HANDLE = 'php test/conform/clients/curl/one-handle.php'

describe("libcurl's own resend of a POST", () => {
  const reusing = runConformance({ client: REUSING, cases: ['resilience/payment-create/reset/once'] })
  const curl = runConformance({ client: TWO_URLS, cases: ['resilience/simple-payment/reset/once'] })
  const handle = runConformance({ client: ONE_HANDLE, cases: ['resilience/simple-payment/reset/once'] })
  for (const run of [reusing, curl, handle]) run.catch(() => undefined)

  it('under Guzzle with connections kept alive: the payment is sent again at once on a new connection after the reused one was reset, and fails resilience.no-resend', async () => {
    const [kase] = (await reusing).cases
    const [first, again] = posts(kase.requests, 'POST /payments')
    expect(first).toMatchObject({ reused: true })
    expect(again).toMatchObject({ reused: false })
    expect(check(kase, 'resilience.no-resend')).toMatchObject({ status: 'failed' })
  })

  for (const [how, run] of [
    ['`curl` given a lookup and a payment', curl],
    ["PHP's curl functions, one handle for a lookup and a payment", handle],
  ] as const) {
    it(`with ${how}: the payment is sent again the same way, and fails resilience.no-resend`, async () => {
      const [kase] = (await run).cases
      expect(posts(kase.requests, 'POST /payment')).toEqual([
        expect.objectContaining({ reused: true }),
        expect.objectContaining({ reused: false }),
      ])
      expect(check(kase, 'resilience.no-resend')).toMatchObject({ status: 'failed' })
    })
  }

  it("with PHP's curl functions, a body with no Content-Type of its own goes as application/x-www-form-urlencoded, and fails http.json-body", async () => {
    const [kase] = (await runConformance({ client: `${ONE_HANDLE} no_content_type`, cases: ['simple/accepted'] })).cases
    expect(check(kase, 'http.json-body')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('sent "Content-Type: application/x-www-form-urlencoded"'),
    })
  })

  it("is named as libcurl's, with the options that stop it", async () => {
    for (const run of [reusing, curl, handle]) {
      const [kase] = (await run).cases
      const message = check(kase, 'resilience.no-resend')?.message ?? ''
      expect(message).toContain('libcurl')
      expect(message).toMatch(/CURLOPT_FORBID_REUSE|CURLOPT_FRESH_CONNECT/)
    }
  })
})
