// Faults on real traffic: reset, hang, truncated and garbage strike after the upstream answered (the real
// service applied the request, the client did not learn it); unavailable and rate-limited answer
// without forwarding. Armed with proxy's --fault (the service's faults) or the admin API, as on serve.
import { describe, expect, it } from 'vitest'
import { parseFault, RETRY_AFTER_SECONDS } from '../../src/core/service/faults.js'
import { FRESH_PLATE, vehicleBody } from '../support/bodies.js'
import { call, closeAfterEach, mockUpstream, proxyTo } from '../support/proxy.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'

describe('faults on proxied traffic', () => {
  it('resets the connection after the real service applied the create', async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url, { faults: [parseFault('POST /vehicles=reset:once')] })
    await expect(call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })).rejects.toThrow()
    expect(upstream.service.world.store.vehicles.activeByPlate(FRESH_PLATE)).toHaveLength(1)
    const [entry] = (await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries
    expect(entry).toMatchObject({
      fault: { kind: 'reset', applied: true },
      response: { status: 0 },
      upstream: { status: 201 },
    })
    // Once: the next create goes through, and the client learns its answer.
    expect((await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody({ plate: 'QQ8Q8' }) })).status).toBe(201)
  })

  it("answers garbage with the upstream's status after it applied the request", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url, { faults: [parseFault('vehicle-create=garbage')] })
    const answer = await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    expect(answer.status).toBe(201)
    expect(answer.headers.get('content-type')).toMatch(/text\/html/)
    expect(answer.text).toContain('502 Bad Gateway')
    expect(upstream.service.world.store.vehicles.activeByPlate(FRESH_PLATE)).toHaveLength(1)
  })

  it('answers unavailable without forwarding: the real service never sees the request', async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    // Armed on the token's own world by the admin API, once the world exists.
    await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    const armed = await call(`${proxy.url}/__relay/faults`, TOKEN, {
      body: { route: 'POST /vehicles', kind: 'unavailable', mode: 'once' },
    })
    expect(armed.status).toBe(201)
    const answer = await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
    expect(upstream.service.journal.page({}).entries.map((e) => e.route)).toEqual(['GET /vehicles'])
    expect(upstream.service.world.store.vehicles.activeByPlate(FRESH_PLATE)).toHaveLength(0)
  })

  it('answers a truncated body after the real service applied the request', async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url, { faults: [parseFault('POST /vehicles=truncated')] })
    await expect(call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })).rejects.toThrow()
    expect(upstream.service.world.store.vehicles.activeByPlate(FRESH_PLATE)).toHaveLength(1)
  })

  it("does not let a faulted answer count as the real service's: the ledger reads what the upstream said", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url, { faults: [parseFault('POST /vehicles=garbage')] })
    await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    const report = (await call(`${proxy.url}/__relay/assumptions`, TOKEN)).body
    expect(report.assumptions.find((a: any) => a.id === 'create.status').status).toBe('confirmed')
    expect(report.findings).toEqual([])
  })
})
