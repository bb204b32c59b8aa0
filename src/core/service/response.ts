// A reply as the response a transport writes: the pipeline, the journal's record of an answer and the
// dev tools' routes all render it here, so that the text sent and the text journaled are one.
import type { Reply } from './problems.js'
import { utf8Bytes } from './protocol.js'
import type { RelayResponse } from './service.js'

/**
 * The headers of a JSON answer. Most answers have none of their own, and share this object (frozen)
 * in their response and their journal entry instead of each holding a copy.
 * @example response.headers === JSON_HEADERS // a plain JSON answer
 */
export const JSON_HEADERS: Record<string, string> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' })

/**
 * The pipeline's answer to a request whose body may come (`bodyPending`): never written, never journaled.
 * @example const refusal = answer === CONTINUE ? undefined : answer
 */
export const CONTINUE: RelayResponse = Object.freeze({ status: 100, headers: {}, text: '' })

/**
 * Renders a reply as a response: JSON unless the reply names its own content type and gives text.
 * @example toResponse({ status: 200, body: { id: 'v1' } }) // { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, text: '{"id":"v1"}' }
 */
export function toResponse(reply: Reply): RelayResponse {
  if (reply.body === undefined) return { status: reply.status, headers: { ...reply.headers }, text: '' }
  return { status: reply.status, headers: { ...JSON_HEADERS, ...reply.headers }, text: textOf(reply) }
}

/**
 * A HEAD's answer: GET's status and headers, the length of the body GET would send, and no body (RFC 9110 9.3.2).
 * @example withoutBody({ status: 200, headers: {}, text: '[]' }) // { status: 200, headers: { 'content-length': '2' }, text: '' }
 */
export function withoutBody<H extends RelayResponse['headers']>(answer: {
  status: number
  headers: H
  text: string
}): { status: number; headers: H & { 'content-length': string }; text: string } {
  return {
    status: answer.status,
    headers: { ...answer.headers, 'content-length': String(utf8Bytes(answer.text)) },
    text: '',
  }
}

/**
 * The text a reply is sent as: JSON, unless it names a content type of its own and gives text.
 * @example textOf({ status: 200, body: { id: 'v1' } }) // '{"id":"v1"}'
 */
export function textOf(reply: Reply): string {
  return reply.body === undefined
    ? ''
    : typeof reply.body === 'string' && !isJson(reply.headers)
      ? reply.body
      : JSON.stringify(reply.body)
}

function isJson(headers: Reply['headers']): boolean {
  const type = headers?.['content-type']
  return !type || type.includes('json')
}
