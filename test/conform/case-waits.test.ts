// When a case in flight counts as waiting on the service (src/node/runner/case-waits.ts): while its fault holds
// a request open, and while a 503 told its client to come back. Read from the events, not from a clock.
import { describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { watchWaits } from '../../src/node/runner/case-waits.js'
import { close, createServer, listen } from '../../src/node/server/server.js'

async function world(kind: 'hang' | 'unavailable') {
  const service = await createRelayService({ tokens: [] })
  const world = await service.addWorld({
    scenario: 'existing-vehicle',
    faults: [{ route: 'GET /vehicles', kind, mode: 'once' }],
  })
  const server = createServer(service, { world })
  const baseUrl = await listen(server, { port: 0 })
  const deltas: number[] = []
  const stop = watchWaits(
    server,
    world,
    [{ route: 'GET /vehicles', kind, mode: 'once' }],
    (delta) => void deltas.push(delta),
  )
  const get = (path: string, signal?: AbortSignal) =>
    fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${world.token}` }, signal })
  return { server, deltas, stop, get, plate: world.visit.plate }
}

describe('watchWaits', () => {
  it('counts a request held by a hang from its arrival until the client gives up on it', async () => {
    const { server, deltas, stop, get, plate } = await world('hang')
    try {
      const controller = new AbortController()
      const hung = get(`/vehicles?plate=${plate}`, controller.signal).catch(() => undefined)
      while (deltas.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(deltas).toEqual([1])
      controller.abort()
      await hung
      while (deltas.length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(deltas).toEqual([1, -1])
      // Another route is not held.
      await get('/rental-companies?kennitala=5501692829')
      expect(deltas).toEqual([1, -1])
    } finally {
      stop()
      await close(server)
    }
  })

  it('counts a client told to come back by a 503 until it does', async () => {
    const { server, deltas, stop, get, plate } = await world('unavailable')
    try {
      expect((await get(`/vehicles?plate=${plate}`)).status).toBe(503)
      expect(deltas).toEqual([1])
      expect((await get(`/vehicles?plate=${plate}`)).status).toBe(200)
      expect(deltas).toEqual([1, -1])
      expect((await get(`/vehicles?plate=${plate}`)).status).toBe(200)
      expect(deltas).toEqual([1, -1])
    } finally {
      stop()
      await close(server)
    }
    expect(deltas.reduce((sum, delta) => sum + delta, 0)).toBe(0)
  })

  it('settles a wait still open when it is stopped: a 503 whose client has not come back', async () => {
    const { server, deltas, stop, get, plate } = await world('unavailable')
    try {
      expect((await get(`/vehicles?plate=${plate}`)).status).toBe(503)
      expect(deltas).toEqual([1])
      stop()
      expect(deltas).toEqual([1, -1])
    } finally {
      await close(server)
    }
  })
})
