// resilience.no-retry-on-refusal: a 4xx is the service's answer, not a failure: the same request
// sent again gets the same refusal. Only 408 (Request Timeout) and 429 (Too Many Requests) invite a
// retry; after a 401 a client may try once more (say, with a fresh token), no more. Works live.
import { defineRule } from './define.js'
import { attempts, fail, named, pass, skip } from './facts.js'

const RETRYABLE = new Set([408, 429])

export default defineRule({
  id: 'resilience.no-retry-on-refusal',
  flows: ['advanced', 'simple'],
  title: 'the client never sends a request again after a 4xx refusal (408 and 429 excepted); after a 401 it may try once more at most',
  cite: '§7 Errors, rule 1 (4xx: the request was refused)',
  needsCase: false,
  check({ requests }) {
    const refused = requests.filter((entry) => entry.response.status >= 400 && entry.response.status < 500 && !RETRYABLE.has(entry.response.status))
    if (refused.length === 0) return skip('Does not apply: the service refused nothing (no 4xx other than 408 and 429).')
    for (const group of attempts(requests)) {
      let unauthorized = 0
      for (let i = 0; i + 1 < group.length; i++) {
        const prev = group[i]
        const status = prev.response.status
        if (status < 400 || status >= 500 || RETRYABLE.has(status)) continue
        if (status === 401 && ++unauthorized === 1) continue
        const retry = group[i + 1]
        const allowed = status === 401 ? 'once more at most after a 401' : `no retry of a ${status}, which is a refusal`
        return fail(
          `Expected ${allowed}: ${named(requests, prev)} was answered ${status}; the client sent the same request again as ${named(requests, retry)}.`,
          { seq: retry.seq, expected: status === 401 ? 'at most one retry' : 'no retry', actual: `${group.length} attempts` },
        )
      }
    }
    return pass(`The client did not retry a refusal (${refused.map((entry) => `${named(requests, entry)}: ${entry.response.status}`).slice(0, 3).join('; ')}).`, { seq: refused[0].seq })
  },
})
