// What POST /__relay/reset does to a world's faults, as docs/admin-api.md says: the faults armed on the
// world stay armed and count from zero (a `once` that struck strikes again), a revoked token works again,
// and the world's variants stay.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { createServedService } from '../support/service.js'
import { toVariants } from '../../src/core/service/variants.js'

const adminPage = readFileSync(fileURLToPath(new URL('../../docs/admin-api.md', import.meta.url)), 'utf8')

it('re-arms the faults armed through the admin API: a once that struck strikes again, counted from zero', async () => {
  const service = await createServedService({
    tokens: ['reset-token'],
    scenario: 'existing-vehicle',
    variants: toVariants(['create.status=200-no-location']),
  })
  const auth = { authorization: 'Bearer reset-token', 'content-type': 'application/json' }
  const ask = (method: string, url: string, body?: unknown) =>
    service.handle({ method, url, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const lookup = `/vehicles?plate=${service.world.visit.plate}`
  expect(
    (await ask('POST', '/__relay/faults', { route: 'GET /vehicles', kind: 'unavailable', mode: 'once' })).status,
  ).toBeLessThan(300)
  expect(
    (await ask('POST', '/__relay/faults', { route: 'GET /rental-companies', kind: 'token-revoked', mode: 'once' }))
      .status,
  ).toBeLessThan(300)
  expect((await ask('GET', lookup)).status).toBe(503)
  expect((await ask('GET', lookup)).status).toBe(200)
  expect((await ask('GET', `/rental-companies?kennitala=${service.world.visit.ownerKennitala}`)).status).toBe(401)
  expect((await ask('GET', lookup)).status).toBe(401)

  const reset = await service.handle({
    method: 'POST',
    url: '/__relay/reset',
    headers: { authorization: 'Bearer reset-token' },
  })
  expect(reset.status, reset.text).toBe(200)
  const faults = JSON.parse((await ask('GET', '/__relay/faults')).text)
  expect(JSON.stringify(faults)).toContain('unavailable')
  // The token works again, and the once that struck strikes again.
  expect((await ask('GET', lookup)).status).toBe(503)
  expect((await ask('GET', lookup)).status).toBe(200)
  expect(service.world.variants).toEqual({ 'create.status': '200-no-location' })
})

it('is what docs/admin-api.md says a reset does', () => {
  const row = adminPage.split('\n').find((line) => line.startsWith('| `POST /__relay/reset`'))!
  expect(row).toMatch(/re-arms? (the|its) faults/)
  expect(row).toMatch(/count(s|ing)? (again )?from zero/)
  expect(row).toMatch(/revoked token/)
  expect(row).toMatch(/variants stay/)
})
