// The cache of seeded worlds: a world read from it is the world seeding gives, and anything amiss with
// it (a corrupt file, another key, a folder that cannot be written) only means seeding again.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRelayService, type RelayService, type SeedCache } from '../../src/core/service/mock.js'
import { defineScenario } from '../../src/core/service/scenario.js'
import { scenarios } from '../../scenarios/index.js'
import { createSeedCache } from '../../src/node/caches/seed-cache.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-mock-seed-cache-'))
  dirs.push(dir)
  return dir
}

/** A world with no records, to write to the cache. */
const EMPTY_WORLD = {
  data: { locations: [], rentalCompanies: [], vehicles: [], custodians: [], payments: [] },
  visit: { plate: 'AB123', ownerKennitala: '5901694399' },
  hints: { unknownKennitala: '4101694389', unknownPlate: 'ZZ999' },
} as unknown as Parameters<SeedCache['set']>[1]

/** Dates a file's last use `secondsAgo`. */
function age(file: string, secondsAgo: number): void {
  const then = new Date(Date.now() - secondsAgo * 1000)
  utimesSync(file, then, then)
}

/** A cache that counts the worlds it handed out and keeps the keys it was asked for. */
function counted(cache: SeedCache) {
  const seen = { hits: 0, gets: [] as string[], sets: [] as string[] }
  const wrapped: SeedCache = {
    get(key) {
      seen.gets.push(key)
      const world = cache.get(key)
      if (world) seen.hits++
      return world
    },
    set(key, world) {
      seen.sets.push(key)
      cache.set(key, world)
    },
  }
  return { cache: wrapped, seen }
}

/** What a person or a client can see of a service's first world. */
function worldOf(service: RelayService) {
  const world = service.world
  return {
    id: world.id,
    records: world.store.snapshot(),
    visit: world.visit,
    hints: world.hints,
    location: world.location,
    scenario: world.scenario.name,
  }
}

describe('the cache of seeded worlds', () => {
  it.each([...scenarios.keys()])('gives the %s world just as seeding does, read back from its file', async (name) => {
    const dir = tempDir()
    const seeded = await createRelayService({ scenario: name })
    const first = counted(createSeedCache({ dir }))
    const writing = await createRelayService({ scenario: name, seedCache: first.cache })
    expect(first.seen).toMatchObject({ hits: 0, sets: [expect.any(String)] })
    const second = counted(createSeedCache({ dir }))
    const reading = await createRelayService({ scenario: name, seedCache: second.cache })
    expect(second.seen).toMatchObject({ hits: 1, sets: [] })
    expect(worldOf(writing)).toEqual(worldOf(seeded))
    expect(worldOf(reading)).toEqual(worldOf(seeded))
  })

  it('answers a request from a world read from the cache as from a seeded one', async () => {
    const dir = tempDir()
    await createRelayService({ seedCache: createSeedCache({ dir }) })
    const [seeded, cached] = await Promise.all([
      createRelayService(),
      createRelayService({ seedCache: createSeedCache({ dir }) }),
    ])
    const ask = (service: RelayService) =>
      service.handle({
        method: 'GET',
        url: `/vehicles?plate=${service.world.visit.plate}`,
        headers: { authorization: 'Bearer relay-mock-token' },
      })
    expect((await ask(cached)).text).toBe((await ask(seeded)).text)
  })

  it.each([
    ['not JSON', '{"key": "trunc'],
    ['JSON of another shape', '{"key": 1, "world": []}'],
    ['a world whose records fail their schemas', null],
  ])('seeds the world afresh, and rewrites the file, when the file is %s', async (_, text) => {
    const dir = tempDir()
    await createRelayService({ seedCache: createSeedCache({ dir }) })
    const [file] = readdirSync(dir)
    const stored = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    if (text === null) stored.world.data.vehicles[0].plate = 42
    writeFileSync(join(dir, file), text ?? JSON.stringify(stored))
    const { cache, seen } = counted(createSeedCache({ dir }))
    const service = await createRelayService({ seedCache: cache })
    expect(worldOf(service)).toEqual(worldOf(await createRelayService()))
    expect(seen.sets).toHaveLength(1)
    expect(counted(createSeedCache({ dir })).cache.get(seen.sets[0])).toEqual({
      data: service.world.store.snapshot(),
      visit: service.world.visit,
      hints: service.world.hints,
    })
  })

  it('reads no world written under another key, even from the same file', async () => {
    const dir = tempDir()
    const cache = createSeedCache({ dir })
    await createRelayService({ seedCache: cache, seed: 1 })
    const [file] = readdirSync(dir)
    const stored = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    writeFileSync(join(dir, file), JSON.stringify({ ...stored, key: stored.key.replace('|1|', '|2|') }))
    const { cache: again, seen } = counted(createSeedCache({ dir }))
    await createRelayService({ seedCache: again, seed: 1 })
    expect(seen.hits).toBe(0)
  })

  it('keys a world by its scenario, seed and vehicle count', async () => {
    const { cache, seen } = counted(createSeedCache({ dir: tempDir() }))
    await createRelayService({ seedCache: cache })
    await createRelayService({ seedCache: cache, seed: 7 })
    await createRelayService({ seedCache: cache, vehicles: 30 })
    await createRelayService({ seedCache: cache, scenario: 'new-vehicle' })
    expect(new Set(seen.sets).size).toBe(4)
    expect(seen.hits).toBe(0)
    await createRelayService({ seedCache: cache, seed: 7 })
    expect(seen.hits).toBe(1)
  })

  it('never caches a scenario of your own, even one named as a built-in scenario was', async () => {
    const { cache, seen } = counted(createSeedCache({ dir: tempDir() }))
    const own = defineScenario({
      name: 'my-world',
      description: 'The default visit under a name of its own',
      seed: scenarios.get('default')!.seed,
    })
    await createRelayService({ seedCache: cache, scenario: own })
    expect(seen).toMatchObject({ gets: [], sets: [] })
  })

  it('serves when the cache folder cannot be made, seeding each time', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'a-file'), '')
    const { cache, seen } = counted(createSeedCache({ dir: join(dir, 'a-file', 'cache') }))
    const service = await createRelayService({ seedCache: cache })
    expect(worldOf(service)).toEqual(worldOf(await createRelayService()))
    expect(seen.sets).toHaveLength(1)
    expect(readdirSync(dir)).toEqual(['a-file'])
  })

  it('serves when the cache itself throws', async () => {
    const broken: SeedCache = {
      get() {
        throw new Error('unreadable')
      },
      set() {
        throw new Error('unwritable')
      },
    }
    const service = await createRelayService({ seedCache: broken })
    expect(worldOf(service)).toEqual(worldOf(await createRelayService()))
  })

  it('keeps the worlds used last, and removes the rest when it writes one', () => {
    const dir = tempDir()
    const cache = createSeedCache({ dir, keep: 2 })
    const aged = (key: string, secondsAgo: number) =>
      age(
        readdirSync(dir)
          .map((name) => join(dir, name))
          .find((path) => readFileSync(path, 'utf8').includes(JSON.stringify(key).slice(1, -1)))!,
        secondsAgo,
      )
    cache.set('first', EMPTY_WORLD)
    aged('first', 30)
    cache.set('second', EMPTY_WORLD)
    aged('second', 20)
    // Read now: used last, though written first.
    expect(cache.get('first')).toBeDefined()
    cache.set('third', EMPTY_WORLD)
    expect(readdirSync(dir)).toHaveLength(2)
    expect(cache.get('first')).toBeDefined()
    expect(cache.get('third')).toBeDefined()
    expect(cache.get('second')).toBeUndefined()
  })

  it('goes on removing old worlds past one it cannot remove', () => {
    const dir = tempDir()
    // A file rm cannot remove (another user's in a shared folder; busy on Windows): a folder of the same name.
    mkdirSync(join(dir, 'world-00000000000000000000000000000001.json'))
    age(join(dir, 'world-00000000000000000000000000000001.json'), 100)
    for (const n of [2, 3, 4]) {
      writeFileSync(join(dir, `world-0000000000000000000000000000000${n}.json`), '{}')
      age(join(dir, `world-0000000000000000000000000000000${n}.json`), 100 + n)
    }
    createSeedCache({ dir, keep: 1 }).set('new', EMPTY_WORLD)
    // The new world and the one that could not go; the three older behind it went too: one failure does not stop the pruning.
    expect(readdirSync(dir)).toHaveLength(2)
    expect(readdirSync(dir)).toContain('world-00000000000000000000000000000001.json')
  })
})
