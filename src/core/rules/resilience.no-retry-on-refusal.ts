// resilience.no-retry-on-refusal: a 4xx is the service's answer, not a failure: the same request sent
// again gets the same refusal. Only 408 (Request Timeout) and 429 (Too Many Requests) invite a retry.
// A refusal sent again more than once fails: the client hammers a service that already said no. Once
// more is allowed after a 401 or 403 (say, with a fresh token), and a warning after any other refusal
// (400, 404, 409, 422: nothing changes between two identical requests). No HTTP library retries a
// refusal at its defaults but a 413 (ky, got, urllib3 with Retry-After), which the service never
// answers. Works live.
import { defineRule } from './define.js'
import { attempts, fail, named, pass, skip, warn } from './facts.js'
import type { RuleOutcome } from './types.js'

const RETRYABLE = new Set([408, 429])
/** Refusals that one more attempt may mend: a token refreshed in between. */
const AUTH = new Set([401, 403])

export default defineRule({
  id: 'resilience.no-retry-on-refusal',
  flows: ['advanced', 'simple'],
  title:
    'a request refused with a 4xx (408 and 429 excepted) sent again more than once fails; once more is allowed after a 401 or 403 (a fresh token) and a warning after any other refusal',
  cite: '§7 Errors, rule 1 (4xx: the request was refused)',
  needsCase: false,
  check({ requests }) {
    const refused = requests.filter(
      (entry) => entry.response.status >= 400 && entry.response.status < 500 && !RETRYABLE.has(entry.response.status),
    )
    if (refused.length === 0)
      return skip('Does not apply: the service refused nothing (no 4xx other than 408 and 429).')
    let once: RuleOutcome | undefined
    for (const group of attempts(requests)) {
      let refusals = 0
      for (let i = 0; i + 1 < group.length; i++) {
        const prev = group[i]
        const status = prev.response.status
        if (status < 400 || status >= 500 || RETRYABLE.has(status)) continue
        const retry = group[i + 1]
        if (++refusals > 1) {
          return fail(
            `Expected a refused request to be sent again once at most: ${named(requests, prev)} was answered ${status}, a refusal the client had already been given; the client sent the same request again as ${named(requests, retry)}. The same request gets the same refusal: stop and report the visit.`,
            { seq: retry.seq, expected: 'at most one retry', actual: `${group.length} attempts` },
          )
        }
        if (!AUTH.has(status) && !once) {
          once = warn(
            `Expected no retry of a ${status}, which is a refusal: ${named(requests, prev)} was answered ${status}; the client sent the same request again as ${named(requests, retry)}. Harmless once (more than once fails), but nothing changes between two identical requests: report the refusal instead.`,
            { seq: retry.seq, expected: 'no retry', actual: `${group.length} attempts` },
          )
        }
      }
    }
    if (once) return once
    return pass(
      `The client did not retry a refusal, beyond one more try after a 401 or 403 (${refused
        .map((entry) => `${named(requests, entry)}: ${entry.response.status}`)
        .slice(0, 3)
        .join('; ')}).`,
      { seq: refused[0].seq },
    )
  },
})
