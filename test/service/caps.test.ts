// Memory is bounded whatever clients send: the journal caps its entries and its bytes, keeps only a
// prefix (with length and hash) of a long body, a world caps the records clients create, and the
// process caps its worlds.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createJournal, type JournalEntry } from '../../src/core/service/journal.js'
import { createRelayService } from '../../src/core/service/mock.js'
import { vehicleBody } from '../support/bodies.js'

const entry = (seq: number, worldId: string | null = null) => ({ seq, worldId }) as JournalEntry
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('the journal', () => {
  it('drops the oldest entries beyond its byte cap and counts them and their bytes', () => {
    const journal = createJournal({ limit: 100, maxBytes: 1000 })
    for (let seq = 1; seq <= 10; seq++) journal.record(entry(seq), 300)
    expect(journal.entries().map((e) => e.seq)).toEqual([8, 9, 10])
    expect(journal.page()).toMatchObject({ total: 10, dropped: 7, droppedBytes: 2100, bytes: 900, maxBytes: 1000 })
  })

  it('pages: at most `limit` entries after `since`, with the cursor to the next page', () => {
    const journal = createJournal()
    for (let seq = 1; seq <= 5; seq++) journal.record(entry(seq), 1)
    const first = journal.page({ since: 0, limit: 2 })
    expect(first.entries.map((e) => e.seq)).toEqual([1, 2])
    expect(first.next).toBe(2)
    const last = journal.page({ since: 4, limit: 2 })
    expect(last.entries.map((e) => e.seq)).toEqual([5])
    expect(last.next).toBeUndefined()
  })

  it("keeps a world's journal within the whole journal: what the whole one drops, the world's drops", async () => {
    const service = await createRelayService({ journalBytes: 20_000 })
    for (let i = 0; i < 100; i++)
      await service.handle({ method: 'GET', url: `/vehicles?plate=AB${i}`, headers: bearer('relay-mock-token') })
    const kept = service.journal.entries().map((e) => e.seq)
    expect(service.journal.page().dropped).toBeGreaterThan(0)
    expect(service.world.journal.entries().map((e) => e.seq)).toEqual(kept)
    expect(service.world.journal.page().dropped).toBe(service.journal.page().dropped)
  })

  it('keeps a long body as its prefix, its length in bytes and its SHA-256', async () => {
    const service = await createRelayService({ journalBodyBytes: 64 })
    const body = JSON.stringify({ ...vehicleBody(), note: 'þ'.repeat(200) })
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: { ...bearer('relay-mock-token'), 'content-type': 'application/json' },
      body,
    })
    const { request } = service.journal.entries()[0]
    expect(request).toMatchObject({
      bodyText: body.slice(0, 64),
      bodyTruncated: true,
      bodyBytes: Buffer.byteLength(body),
      bodySha256: createHash('sha256').update(body).digest('hex'),
    })
    expect(request.body).toBeUndefined()
  })

  it('keeps a short body whole, with no hash', async () => {
    const service = await createRelayService()
    const body = JSON.stringify(vehicleBody())
    await service.handle({
      method: 'POST',
      url: '/vehicles',
      headers: { ...bearer('relay-mock-token'), 'content-type': 'application/json' },
      body,
    })
    const { request } = service.journal.entries()[0]
    expect(request.bodyText).toBe(body)
    expect(request).not.toHaveProperty('bodySha256')
  })
})

describe('the caps on worlds', () => {
  it('keeps at most worldRecords created records in a world: the oldest created go first, counted', async () => {
    const service = await createRelayService({ worldRecords: 3 })
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const answer = await service.handle({
        method: 'POST',
        url: '/vehicles',
        headers: { ...bearer('relay-mock-token'), 'content-type': 'application/json' },
        body: JSON.stringify(vehicleBody({ plate: `CAP${i}0` })),
      })
      ids.push(JSON.parse(answer.text).id)
    }
    const { store } = service.world
    expect(store.evicted()).toBe(2)
    expect(ids.map((id) => store.vehicles.byId(id) !== undefined)).toEqual([false, false, true, true, true])
    expect(store.vehicles.byPlate('CAP00')).toEqual([])
    expect(store.vehicles.byPlate('CAP40')).toHaveLength(1)
    expect(store.counts().vehicles).toBe(service.settings.vehicles + 3)
  })

  it("keeps at most maxWorlds worlds: a new one replaces the one unused longest, never a start token's", async () => {
    const service = await createRelayService({ tokens: ['start-token-0001'], maxWorlds: 3 })
    const a = await service.addWorld()
    const b = await service.addWorld()
    await service.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: bearer(a.token) })
    a.lastUsed = Date.now() + 1
    b.lastUsed = Date.now() - 1000
    service.world.lastUsed = 0
    const c = await service.addWorld()
    expect([...service.worlds.keys()]).toEqual(['start-token-0001', a.token, c.token])
    const gone = await service.handle({ method: 'GET', url: '/vehicles?plate=AB123', headers: bearer(b.token) })
    expect(gone.status).toBe(401)
  })

  it("refuses a world beyond maxWorlds when every world is a start token's, saying which option to raise", async () => {
    const service = await createRelayService({ tokens: ['start-token-0001', 'start-token-0002'], maxWorlds: 2 })
    await expect(service.addWorld()).rejects.toThrow(/--max-worlds/)
  })
})
