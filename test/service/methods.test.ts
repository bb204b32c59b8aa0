// Methods the Node server never hands to 'request': CONNECT (given the raw socket) and a method its
// parser does not know. Both get the JSON 405 with Allow that every other missing method gets.
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import type { Server } from 'node:http'

function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let out = ''
    socket.on('data', (chunk) => (out += chunk.toString('utf8')))
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
  })
}

describe('the Node server', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer(await createRelayService())
    port = Number(new URL(await listen(server, { port: 0 })).port)
  })
  afterAll(() => close(server))

  it.each([
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n'],
    ['an unknown method', 'FROB /vehicles HTTP/1.1\r\nhost: x\r\n\r\n'],
  ])('answers %s with a JSON 405 that carries Allow', async (_, request) => {
    const answer = await raw(port, request)
    const [head, body] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 405 /)
    expect(head).toMatch(/\r\nallow: GET, HEAD, POST, OPTIONS\r\n/i)
    expect(JSON.parse(body)).toMatchObject({ status: 405 })
  })

  it('stays up after them', async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/vehicles?plate=AB123`, {
      headers: { authorization: 'Bearer relay-mock-token' },
    })
    expect(answer.status).toBe(200)
  })
})
