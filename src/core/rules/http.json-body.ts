// http.json-body: every request whose body the service reads sends one, as JSON with
// `Content-Type: application/json`. Works live: it reads only the request as the journal recorded it.
// Which bodies the service reads, and what it refuses in them, is protocol.ts's bodyVerdict: the mock
// answers with it and journals its verdict, so a body the mock reads never breaks this rule, and one it
// refuses always does. A GET's body is ignored by both.
import type { JournalEntry } from '../service/journal.js'
import {
  bodyProblem,
  contentTypeProblem,
  readsBody,
  routeById,
  utf8Bytes,
  type BodyRequest,
} from '../service/protocol.js'
import { allOf, capitalize, clipJson } from '../text.js'
import { defineRule } from './define.js'
import { at, fail, pass, skip } from './facts.js'

/** The request as protocol.ts reads a body: a long body's start, with its whole size, when the journal kept only that. */
function bodyRequest({ request }: JournalEntry): BodyRequest {
  return {
    method: request.method,
    headers: request.headers,
    body: request.bodyText,
    ...(request.bodyTruncated ? { bodyBytes: request.bodyBytes ?? utf8Bytes(request.bodyText ?? '') } : {}),
  }
}

/**
 * The service's verdict on an entry's body: the one the journal (or the HAR) recorded when there is one;
 * else read again, without a size limit (the size was judged where the body arrived, under that
 * service's limit, and a refusal for it is recorded).
 */
function problemOf(entry: JournalEntry): string | undefined {
  return entry.request.bodyError ?? bodyProblem(bodyRequest(entry), routeById(entry.route), Infinity)
}

/** What a request sent, as a failure quotes it: its Content-Type and the start of its body. */
function sent(entry: JournalEntry): string {
  const { bodyText, bodyTruncated, headers } = entry.request
  const type = headers['content-type']
  const typed = type === undefined ? 'no Content-Type header' : `"Content-Type: ${type}"`
  if (bodyText === undefined || bodyText === '') return `${typed} and no body`
  return `${typed} and ${clipJson(bodyText, 60)}${bodyTruncated ? ' (the start of it)' : ''}`
}

export default defineRule({
  id: 'http.json-body',
  flows: ['advanced', 'simple'],
  title: 'every request whose body the service reads sends one, as JSON with `Content-Type: application/json`',
  cite: '§4 Endpoints ("Requests with a body carry Content-Type: application/json"); §1 "All requests and responses are JSON over HTTP"',
  needsCase: false,
  check({ requests }) {
    const read = requests.filter(
      (entry) => entry.request.bodyError !== undefined || readsBody(bodyRequest(entry), routeById(entry.route)),
    )
    if (read.length === 0) return skip("No request had a body the service reads (a GET's body is ignored).")
    for (const entry of read) {
      const problem = problemOf(entry)
      if (problem === undefined) continue
      const type = entry.request.headers['content-type']
      const typeWrong = problem === contentTypeProblem(type)
      return fail(
        `Expected a JSON body sent with "Content-Type: application/json" (JSON in UTF-8); ${at(requests, entry)} sent ${sent(entry)}, which the service refuses: ${problem}`,
        {
          seq: entry.seq,
          expected: typeWrong ? 'application/json' : 'a JSON body',
          actual: typeWrong ? (type ?? null) : (entry.request.bodyText ?? null),
        },
      )
    }
    return pass(
      `${capitalize(allOf(read.length, 'request body', 'request bodies'))} ${read.length === 1 ? 'was' : 'were'} JSON with Content-Type: application/json.`,
    )
  },
})
