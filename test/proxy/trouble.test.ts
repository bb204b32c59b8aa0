// An upstream in trouble never takes the proxy down: a refused connection, a name that does not resolve,
// a TLS failure, a timeout, a reset, an answer that is not HTTP. The client gets a 502 or 504 saying
// what happened, the journal and the findings keep it, and the next request is answered.
import { readFileSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { call, closeAfterEach, closedPort, closeLater, handUpstream, proxyTo, rawUpstream } from '../support/proxy.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'
const tls = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url), 'utf8')

/** The proxy answers, journals the trouble and reports it as a finding; then it answers the next request. */
async function expectTrouble(
  upstream: string,
  status: 502 | 504,
  kind: string,
  sentence: RegExp,
  options: Parameters<typeof proxyTo>[1] = {},
) {
  const proxy = await proxyTo(upstream, options)
  const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')).toBe('application/problem+json')
  expect(answer.body.message).toMatch(sentence)
  const [entry] = (await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries
  expect(entry).toMatchObject({ response: { status }, upstream: { status: null, trouble: { kind } } })
  const { findings } = (await call(`${proxy.url}/__relay/assumptions`, TOKEN)).body
  expect(findings).toEqual([expect.objectContaining({ kind: 'upstream-trouble', count: 1, seqs: [entry.seq] })])
  // Still up: the next request is answered too.
  expect((await call(`${proxy.url}/vehicles?plate=AB124`, TOKEN)).status).toBe(status)
  return proxy
}

describe('an upstream in trouble', () => {
  it('answers 502 when nothing listens at the upstream', async () => {
    await expectTrouble(await closedPort(), 502, 'refused', /refused the connection.*did not reach the service/)
  })

  it("answers 502 when the upstream's host name does not resolve", async () => {
    await expectTrouble('http://relay-mock-upstream.invalid', 502, 'dns', /did not resolve/)
  })

  it('answers 504 when the upstream does not answer within --upstream-timeout', async () => {
    const hung = await handUpstream(() => {})
    await expectTrouble(hung, 504, 'timeout', /did not answer in time.*may have applied/, { timeoutMs: 200 })
  })

  it('answers 502 when the upstream resets the connection', async () => {
    await expectTrouble(
      await rawUpstream((socket) => socket.once('data', () => socket.resetAndDestroy())),
      502,
      'reset',
      /closed or reset/,
    )
  })

  it('answers 502 when the upstream dies halfway through its answer', async () => {
    const cut = await rawUpstream((socket) =>
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n[{"id":'),
      ),
    )
    await expectTrouble(cut, 502, 'reset', /before its answer was whole/)
  })

  it('answers 502 when the upstream answers something that is not HTTP', async () => {
    const garbage = await rawUpstream((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n')))
    await expectTrouble(garbage, 502, 'not-http', /not HTTP/)
  })

  it('answers 502 when a compressed answer is larger than the body limit: its size decoded cannot be known', async () => {
    const large = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      res.end(gzipSync(JSON.stringify([{ id: randomBytes(3072).toString('hex') }])))
    })
    await expectTrouble(large, 502, 'too-large', /larger than the body limit/, { bodyLimit: 1024 })
  })
})

describe('an https upstream', () => {
  async function httpsUpstream(): Promise<string> {
    const server = https.createServer({ key: tls('server.key'), cert: tls('server.pem') }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('[]')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closeLater(() => {
      server.closeAllConnections()
      server.close()
    })
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  it('is reached with --upstream-ca, the private CA that signed its certificate', async () => {
    const proxy = await proxyTo(await httpsUpstream(), { ca: tls('ca.pem') })
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual([])
  })

  it('answers 502 naming the TLS failure when its certificate is not trusted', async () => {
    await expectTrouble(await httpsUpstream(), 502, 'tls', /TLS handshake/)
  })
})
