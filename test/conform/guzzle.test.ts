// Guzzle 7's defaults, each kept by the PHP example with the line that changes it taken out (a copy, see
// test/support/php-variant.ts), run through the case where it bites: the rule docs/http-libraries.md
// ("Guzzle") names fails with the words it quotes, or the cases pass where the guide calls it harmless.
// libcurl's own resend, the one default of the layer below, is in libcurl.test.ts.
import { afterAll, describe, expect, it } from 'vitest'
import { runConformance } from '../../src/node/runner/runner.js'
import type { RunOptions } from '../../src/node/runner/options.js'
import { RETRY_AFTER_DATE_AHEAD_S } from '../../src/core/service/faults.js'
import type { RunResult } from '../../src/core/rules/types.js'
import { phpVariant, removePhpVariants } from '../support/php-variant.js'
import { needs } from '../support/needs.js'

needs('php', 'php-curl', 'guzzle')

afterAll(removePhpVariants)

/** Each case's rules that failed, with their messages. */
const failures = (result: RunResult) =>
  Object.fromEntries(
    result.cases.map((kase) => [
      kase.id,
      kase.checks.filter((c) => c.status === 'failed').map((c) => ({ rule: c.rule, message: c.message })),
    ]),
  )

interface Default {
  what: string
  edits: [string, string][]
  run: Omit<RunOptions, 'client'>
  /** The rule that fails in each case and words of its message; none: every case passes. */
  fails?: { rule: string; words: RegExp }
  /**
   * The case's 429 is sent again before the date its Retry-After names. An HTTP-date gets a second of
   * tolerance, so resilience.retry-after fails the retry only where it came more than that second early:
   * at 1 s after a date about 2 s ahead, it fails on a quiet machine, and may pass where the wait stretched.
   */
  sentBeforeDate?: true
}

const DEFAULTS: Default[] = [
  {
    what: '`timeout` 0 (and `connect_timeout` 0): a request that gets no answer waits until the case kills it',
    edits: [
      ["    'timeout' => $TIMEOUT_MS / 1000,         // the whole attempt; Guzzle's 0 waits forever\n", ''],
      ["    'connect_timeout' => $TIMEOUT_MS / 1000, // 0 leaves libcurl's own (150 s under Guzzle)\n", ''],
    ],
    // A deadline well past the request timeout, short of the default 30 s: the test waits for it.
    run: { cases: ['resilience/vehicle-lookup/hang/once'], timeoutMs: 8_000 },
    fails: { rule: 'resilience.deadline', words: /still waiting when it was killed.*Give every request a timeout/ },
  },
  {
    what: 'a timeout (cURL error 28) arrives as a ConnectException: a POST retried on one is sent again after its answer was lost',
    edits: [['return $lookup; // no answer', 'return $lookup || $reason instanceof ConnectException; // no answer']],
    run: { cases: ['resilience/payment-create/hang/once'], requestTimeoutMs: 1_500 },
    fails: { rule: 'resilience.no-resend', words: /no answer came \(the client gave up after .*a resend pays twice/ },
  },
  {
    what: "Middleware::retry's own delay (1 s, then 2 s) reads no Retry-After: a 429 is sent again before the date it names",
    edits: [["Middleware::retry('should_retry', 'retry_delay')", "Middleware::retry('should_retry')"]],
    run: { cases: ['resilience/vehicle-lookup/rate-limited/once'] },
    sentBeforeDate: true,
  },
  {
    what: '`http_errors` on: a refusal (422) is an exception, and a client that reads every exception as a lost answer reports a refused payment `unknown`',
    edits: [
      ["    'http_errors' => false,                  // a 4xx or 5xx is an answer to read, not an exception\n", ''],
    ],
    run: { cases: ['simple/rejected'] },
    fails: { rule: 'client.outcome', words: /Expected the outcome "rejected".*answered 422.*wrote "unknown"/ },
  },
  {
    what: 'a `body` is sent without `Content-Type` (only `json` sets it)',
    edits: [["['json' => $body]", "['body' => json_encode($body)]"]],
    run: { cases: ['advanced/new-vehicle', 'simple/accepted'] },
    fails: { rule: 'http.json-body', words: /sent no Content-Type header/ },
  },
  {
    what: '`allow_redirects` on: harmless here, the service answers no redirect',
    edits: [
      [
        "    'allow_redirects' => false,              // the interface answers no redirect: a POST is never turned into a GET\n",
        '',
      ],
    ],
    run: { cases: ['advanced/new-vehicle', 'simple/accepted', 'resilience/payment-create/reset/once'] },
  },
]

describe("Guzzle's defaults, each kept by the PHP example with its line taken out", () => {
  // Started together: each mostly waits (a hang, a timeout, a Retry-After).
  const runs = DEFAULTS.map((item, index) =>
    runConformance({ client: phpVariant(`default-${index}`, item.edits), ...item.run }),
  )
  for (const run of runs) run.catch(() => undefined)

  it("the 429's Retry-After date lies further ahead than Middleware::retry's first wait (1 s)", () => {
    expect(RETRY_AFTER_DATE_AHEAD_S).toBeGreaterThan(1)
  })

  DEFAULTS.forEach((item, index) => {
    it(
      item.what,
      async () => {
        const result = await runs[index]
        if (item.sentBeforeDate) {
          const [kase] = result.cases
          const [refused, retry] = kase.requests.filter((entry) => entry.route === 'GET /vehicles')
          expect(refused.response.status).toBe(429)
          expect(Date.parse(retry.time)).toBeLessThan(Date.parse(refused.response.headers['retry-after']))
          const verdict = kase.checks.find((c) => c.rule === 'resilience.retry-after')!
          if (verdict.status === 'failed')
            expect(verdict.message).toMatch(
              /Expected a wait until the date Retry-After names.*Retry-After: .* GMT; the client sent GET \/vehicles\S* .*after /,
            )
          else expect(verdict.status).toBe('passed')
          return
        }
        if (!item.fails) {
          expect(failures(result)).toEqual(Object.fromEntries(item.run.cases!.map((id) => [id, []])))
          expect(result.summary).toMatchObject({ failed: 0, warning: 0 })
          return
        }
        for (const kase of result.cases) {
          const failed = failures(result)[kase.id].find((f) => f.rule === item.fails!.rule)
          expect(failed?.message, `${kase.id}: ${JSON.stringify(failures(result)[kase.id])}`).toMatch(item.fails.words)
        }
      },
      30_000,
    )
  })
})
