// http.json-body: every request with a body sends `Content-Type: application/json` and valid JSON.
// Works live: it reads only the request as the journal recorded it.
import { contentTypeProblem, parseJsonText } from '../protocol.js'
import { allOf, capitalize, clipJson } from '../text.js'
import { defineRule } from './define.js'
import { at, fail, pass, skip } from './facts.js'

function jsonProblem(text: string): string | undefined {
  const read = parseJsonText(text)
  return 'problem' in read ? read.problem : undefined
}

export default defineRule({
  id: 'http.json-body',
  flows: ['advanced', 'simple'],
  title: 'every request with a body sends `Content-Type: application/json` and valid JSON',
  cite: '§4 Endpoints ("Requests with a body carry Content-Type: application/json"); §1 "All requests and responses are JSON over HTTP"',
  needsCase: false,
  check({ requests }) {
    const withBody = requests.filter((entry) => entry.request.bodyText !== undefined && entry.request.bodyText !== '')
    if (withBody.length === 0) return skip('No request had a body.')
    for (const entry of withBody) {
      const type = entry.request.headers['content-type']
      // The mock's own test of the header (protocol.ts): a body it reads never breaks this rule.
      const problem = contentTypeProblem(type)
      if (problem) {
        return fail(
          `Expected "Content-Type: application/json" (JSON in UTF-8) on every request with a body; ${at(requests, entry)} sent ${type === undefined ? 'no Content-Type header' : `"Content-Type: ${type}"`}. The mock said: ${problem}`,
          { seq: entry.seq, expected: 'application/json', actual: type ?? null },
        )
      }
      // The mock's verdict on the whole body when it has one (the journal may keep only a long body's prefix).
      const { bodyText, bodyError, bodyTruncated } = entry.request
      const unread = bodyError ?? (bodyTruncated ? undefined : jsonProblem(bodyText!))
      if (unread !== undefined) {
        return fail(`Expected a valid JSON body; ${at(requests, entry)} sent ${clipJson(bodyText, 60)}${bodyTruncated ? ' (the start of it)' : ''}, which the service does not read: ${unread}`, {
          seq: entry.seq,
          expected: 'valid JSON',
          actual: bodyText,
        })
      }
    }
    return pass(`${capitalize(allOf(withBody.length, 'request body', 'request bodies'))} ${withBody.length === 1 ? 'was' : 'were'} JSON with Content-Type: application/json.`)
  },
})
