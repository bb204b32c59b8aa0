// serve checks its port before it builds its world (seconds for a large fleet) and then serves on the
// very socket it checked: a caller that connects in between is answered once the mock is ready, never
// reset (a probe closed and a port reopened would reset it, and refuse those after it).
import http from 'node:http'
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { createServedService } from '../support/service.js'
import { close, createServer, listen, reservePort } from '../../src/node/server/server.js'

/** A port free a moment ago. */
async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as net.AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

function ask(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/openapi/simple.json', agent: false }, (answer) => {
      answer.resume()
      answer.on('end', () => resolve(answer.statusCode!))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('reservePort, then listen', () => {
  it('answers the callers that connected after the port was reserved and before the server listened', async () => {
    const port = await freePort()
    const reserved = await reservePort('127.0.0.1', port)
    // Connected (and sent their requests) while nothing answers yet: the mock is still being built.
    const early = [ask(port), ask(port), ask(port)]
    await new Promise((resolve) => setTimeout(resolve, 100))
    const server = createServer(await createServedService())
    try {
      expect(await listen(server, { reserved })).toBe(`http://127.0.0.1:${port}`)
      expect(await Promise.all(early)).toEqual([200, 200, 200])
      expect(await ask(port)).toBe(200)
    } finally {
      await close(server)
    }
  })

  it('takes a reservation only where it is given one: a listen at a reserved port without it finds the port in use', async () => {
    const port = await freePort()
    const reserved = await reservePort('127.0.0.1', port)
    const server = createServer(await createServedService())
    try {
      await expect(listen(server, { host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'PORT_IN_USE' })
    } finally {
      await reserved.release()
    }
    // Given back, the port is free again.
    try {
      expect(await listen(server, { host: '127.0.0.1', port })).toBe(`http://127.0.0.1:${port}`)
    } finally {
      await close(server)
    }
  })

  it('refuses a port in use with the system error, so serve can say which option is at fault', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as net.AddressInfo
    try {
      await expect(reservePort('127.0.0.1', port)).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      blocker.close()
    }
  })
})
