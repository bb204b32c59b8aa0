// The mock as msw request handlers: one handler for every request under the base URL, which hands it
// to the pipeline. The pipeline itself resolves the route (protocol.ts), so msw needs no pattern of its
// own per endpoint: those answered exactly what the catch-all answers.
import { http, HttpResponse, type HttpHandler } from 'msw'
import type { RelayResponse, RelayService } from './mock.js'
import { utf8Bytes } from './protocol.js'

/**
 * msw handlers that answer requests under `baseUrl` with the mock.
 * @example
 * const mock = await createRelayService()
 * const server = setupServer(...toHandlers(mock, { baseUrl: 'https://relay.test' }))
 */
export function toHandlers(
  mock: RelayService,
  { baseUrl = 'http://relay.test' }: { baseUrl?: string } = {},
): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '')
  const prefix = new URL(base).pathname.replace(/\/+$/, '')
  const respond = async ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text()
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const answer = await mock.handle({
      method: request.method,
      url: url.pathname.slice(prefix.length) + url.search,
      headers,
      ...(body ? { body } : {}),
    })
    // In-process, a fault that is no answer becomes its nearest equivalent (see FAULT_KINDS' inProcess).
    if (answer.fault === 'reset') return HttpResponse.error()
    if (answer.fault === 'hang') {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => {
          answer.onClosed?.()
          // The abort's reason: an AbortError (a DOMException, an Error) unless the one who aborted gave another.
          reject(request.signal.reason as Error)
        })
      })
    }
    if (answer.fault === 'truncated')
      return new Response(answer.text.slice(0, Math.floor(answer.text.length / 2)), {
        status: answer.status,
        headers: headerPairs(answer.headers),
      })
    // The length as the Node server sends it, so that a HEAD's headers match its GET's here too; a
    // HEAD's answer or a 204 has no body at all (a Response with one for a 204 throws).
    const bodiless = answer.status === 204 || request.method === 'HEAD'
    const sent =
      answer.status === 204
        ? answer.headers
        : { ...answer.headers, 'content-length': answer.headers['content-length'] ?? String(utf8Bytes(answer.text)) }
    return new Response(bodiless ? null : answer.text, { status: answer.status, headers: headerPairs(sent) })
  }
  // A predicate rather than a path pattern: msw decodes a pattern's parameters with decodeURIComponent,
  // which throws on a malformed escape (/vehicles/%E0%A4%A) before any handler can answer it.
  const origin = new URL(base).origin
  const under = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    return url.origin === origin && url.pathname.startsWith(`${prefix}/`)
  }
  return [http.all(under, respond)]
}

/** Headers as a Response takes them: a field with several values (Set-Cookie) once per value. */
function headerPairs(headers: RelayResponse['headers']): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const name in headers) {
    const value = headers[name]
    if (typeof value === 'string') pairs.push([name, value])
    else for (const one of value) pairs.push([name, one])
  }
  return pairs
}
