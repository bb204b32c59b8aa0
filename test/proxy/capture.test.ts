// The proxied traffic as a capture: GET /__relay/journal.har from the proxy is what `conform --from`
// checks, with the same rules as on serve.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkHarFile } from '../../src/node/files/from-har.js'
import { activeVehicle, firstCompany, paymentBody } from '../support/bodies.js'
import { call, closeAfterEach, mockUpstream, proxyTo } from '../support/proxy.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'

describe('conform --from on proxied traffic', () => {
  it('checks the visit the proxy journaled, and names the rule a visit broke', async () => {
    const upstream = await mockUpstream({ scenario: 'existing-vehicle' })
    const proxy = await proxyTo(upstream.url)
    const world = upstream.service.world
    const vehicle = activeVehicle(world)
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    // One visit as the flow wants it, then one that pays without looking the company up.
    await api(`/rental-companies?kennitala=${firstCompany(world).kennitala}`)
    await api(`/vehicles?plate=${vehicle.plate}`)
    await api('/payments', { body: paymentBody(world, vehicle.id) })
    await api('/payment', { body: { broken: true } })
    const har = await call(`${proxy.url}/__relay/journal.har`, TOKEN)
    expect(har.status).toBe(200)
    const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-proxy-har-'))
    try {
      const file = join(dir, 'proxied.har')
      await writeFile(file, har.text)
      const result = await checkHarFile(file, { reporters: [] })
      expect(result.cases).toHaveLength(2)
      const [advanced, simple] = result.cases
      expect(advanced.status).not.toBe('failed')
      expect(advanced.requests.map((r) => r.route)).toEqual([
        'GET /rental-companies',
        'GET /vehicles',
        'POST /payments',
      ])
      expect(simple.status).toBe('failed')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
