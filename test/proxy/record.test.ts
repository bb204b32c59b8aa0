// proxy --record: what the real service revealed, written as a scenario file that serve loads, so the
// staging world can be replayed offline with the same ids; nothing secret is written.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { createWorldRecording } from '../../src/core/proxy/recording.js'
import { resolveScenario } from '../../src/node/files/user-files.js'
import {
  activeVehicle,
  custodianBody,
  firstCompany,
  FRESH_PLATE,
  paymentBody,
  simpleBody,
  vehicleBody,
} from '../support/bodies.js'
import { call, closeAfterEach, mockUpstream, proxyTo } from '../support/proxy.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-record-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('a recorded world', () => {
  it('holds the companies, vehicles, custodians and payments seen, with their ids, and serve replays it', async () => {
    const upstream = await mockUpstream()
    const recording = createWorldRecording(upstream.url)
    const proxy = await proxyTo(upstream.url, { observe: recording.observe })
    const real = upstream.service.world
    const company = firstCompany(real)
    const owned = activeVehicle(real)
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    await api(`/rental-companies?kennitala=${company.kennitala}`)
    await api(`/vehicles?plate=${owned.plate}`)
    const vehicle = (await api('/vehicles', { body: vehicleBody() })).body
    const custodian = (await api('/custodians', { body: custodianBody(real, vehicle.id) })).body
    const payment = (await api('/payments', { body: paymentBody(real, vehicle.id) })).body

    const { file } = recording.toScenarioFile()
    const path = join(dir, 'staging.json')
    await writeFile(path, JSON.stringify(file, null, 2))
    expect(JSON.stringify(file)).not.toMatch(/upstream-token|authorization|bearer/i)

    // Loaded as serve loads a scenario file.
    const replay = await createRelayService({ tokens: ['replay-token-0001'], scenario: await resolveScenario(path) })
    const world = replay.world
    expect(world.location.id).toBe(real.location.id)
    expect(world.store.rentalCompanies.byId(company.id)).toMatchObject({
      name: company.name,
      kennitala: company.kennitala,
    })
    expect(world.store.vehicles.byId(owned.id)).toMatchObject({ plate: owned.plate })
    expect(world.store.vehicles.byId(vehicle.id)).toMatchObject({ plate: vehicleBody().plate })
    expect(world.store.custodians.byId(custodian.id)).toMatchObject({
      vehicleId: vehicle.id,
      rentalCompanyId: company.id,
    })
    expect(world.store.payments.byId(payment.id)).toMatchObject({ vehicleId: vehicle.id, locationId: real.location.id })
    // The replayed world answers the lookups as the real one did.
    const lookup = await replay.handle({
      method: 'GET',
      url: `/rental-companies?kennitala=${company.kennitala}`,
      headers: { authorization: 'Bearer replay-token-0001' },
    })
    expect(JSON.parse(lookup.text)).toEqual([{ id: company.id, name: company.name, kennitala: company.kennitala }])
  })

  it('holds a simple payment by the plate of a vehicle seen, and names one whose vehicle it never saw', async () => {
    const upstream = await mockUpstream()
    const recording = createWorldRecording(upstream.url)
    const proxy = await proxyTo(upstream.url, { observe: recording.observe })
    const real = upstream.service.world
    const api = (path: string, init?: Parameters<typeof call>[2]) => call(`${proxy.url}${path}`, TOKEN, init)
    const paid = await api('/payment', { body: simpleBody(real) })
    expect(paid.body.id).toEqual(expect.any(String))
    await api(`/vehicles?plate=${real.visit.plate}`)
    const unseen = await api('/payment', { body: simpleBody(real, { vehicle: { plate: FRESH_PLATE } }) })
    expect(unseen.body.id).toEqual(expect.any(String))

    const { file, left } = recording.toScenarioFile()
    expect(file.payments).toEqual([
      expect.objectContaining({
        id: paid.body.id,
        plate: real.visit.plate,
        amount: real.visit.amount,
        startedOn: real.visit.visitStart,
      }),
    ])
    expect(left).toEqual([
      `the simple payment ${unseen.body.id} (no vehicle with the plate ${FRESH_PLATE} was seen: the answer names none)`,
    ])
    const path = join(dir, 'simple.json')
    await writeFile(path, JSON.stringify(file, null, 2))
    const replay = await createRelayService({ tokens: ['replay-token-0001'], scenario: await resolveScenario(path) })
    expect(replay.world.store.payments.byId(paid.body.id)).toMatchObject({ amount: { amount: real.visit.amount } })
  })

  it('leaves out what a scenario file cannot hold, and still loads', () => {
    const recording = createWorldRecording('https://staging.example')
    const entry = (route: string, method: string, body: unknown, answer: unknown) => ({
      entry: {
        seq: 1,
        time: '',
        durationMs: 0,
        worldId: 'world-1',
        route,
        auth: 'ok' as const,
        request: { method, path: '/', query: {}, search: '', headers: {}, body },
        response: { status: 200, headers: {}, body: answer },
      },
      upstream: { answer: { status: 200, headers: {}, text: JSON.stringify(answer), durationMs: 1 } },
    })
    recording.observe(
      entry('GET /rental-companies', 'GET', undefined, [{ id: 'not-a-uuid', name: 'X', kennitala: '123' }]),
    )
    recording.observe(
      entry('GET /vehicles', 'GET', undefined, [
        { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', plate: 'AB123', country: 'is' },
      ]),
    )
    const { file, left } = recording.toScenarioFile()
    expect(left).toEqual(['the rental company not-a-uuid'])
    expect(file.vehicles).toEqual([{ id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', plate: 'AB123', country: 'is' }])
    expect(file.name).toBe('recorded-staging.example')
  })
})
