// The cache of seeded worlds that `relay-mock serve` keeps between runs: one JSON file per built-in
// scenario, seed and vehicle count, so a start reads its world instead of loading faker and seeding it.
// A file counts only if it was written by the same relay-mock version, seeding code (SEED_BUILD_ID) and
// faker version; anything else (missing, unreadable, corrupt, another key) is a miss, and a folder that
// cannot be written only means the next start seeds again. It keeps the 12 worlds used last, so that
// upgrades do not pile up files. Deleting the folder is always safe.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { SeedCache } from '../../core/service/mock.js'
import type { SeededWorld } from '../../core/service/seed.js'
import { cacheDir, writeCacheFile } from './cache-dir.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { SEED_BUILD_ID } from './seed-build.generated.js'

export interface SeedCacheOptions {
  /** The folder of the cache files. Default: `node_modules/.cache/relay-mock` under the working directory, else the system's temp folder. */
  dir?: string
  /** How many world files the folder keeps: beyond, the least recently used go when one is written. Default 12. */
  keep?: number
}

/** World files kept by default: a 30,000-vehicle world's is about 6 MB. */
const KEEP_WORLDS = 12

/**
 * Where `serve` keeps seeded worlds (and the command line its compiled code): see cacheDir. Undefined
 * when the temp folder's is another user's, and then nothing is cached.
 * @example seedCacheDir('/work/app') // '/work/app/node_modules/.cache/relay-mock'
 */
export const seedCacheDir: (cwd?: string) => string | undefined = cacheDir

/** The version of the faker that seeds here: another faker may draw other worlds from the same seed. */
function fakerVersion(): string {
  try {
    return String((createRequire(import.meta.url)('@faker-js/faker/package.json') as { version?: unknown }).version)
  } catch {
    return 'unknown'
  }
}

const RECORD_KINDS = ['locations', 'rentalCompanies', 'vehicles', 'custodians', 'payments'] as const

/** The shape of a seeded world; the service checks each record by its schema when it loads them. */
function isSeededWorld(value: unknown): value is SeededWorld {
  const world = value as Partial<SeededWorld> | null
  const data = world?.data as Record<string, unknown> | undefined
  return (
    typeof data === 'object' &&
    data !== null &&
    RECORD_KINDS.every((kind) => Array.isArray(data[kind])) &&
    typeof world?.visit?.plate === 'string' &&
    typeof world.visit.ownerKennitala === 'string' &&
    typeof world.hints?.unknownKennitala === 'string' &&
    typeof world.hints.unknownPlate === 'string'
  )
}

/**
 * A cache of seeded worlds in files, for `createRelayService({ seedCache })`. Files are written whole
 * (a temporary file, then a rename), so a reader never sees half of one.
 * @example await createRelayService({ seedCache: createSeedCache() })
 */
export function createSeedCache(options: SeedCacheOptions = {}): SeedCache {
  const dir = options.dir ?? seedCacheDir()
  const keep = options.keep ?? KEEP_WORLDS
  if (dir === undefined) return { get: () => undefined, set: () => {} }
  let prefix: string | undefined
  /** The whole key of a world: what the service names (scenario, seed, vehicles) and what built it. */
  const fullKey = (key: string) =>
    JSON.stringify([(prefix ??= `${RELAY_MOCK_VERSION}|${SEED_BUILD_ID}|${fakerVersion()}`), key])
  // The core hashes with @noble/hashes already, so a start need not load node:crypto for a file name.
  const fileOf = (full: string) => join(dir, `world-${bytesToHex(sha256(utf8ToBytes(full))).slice(0, 32)}.json`)
  return {
    get(key) {
      const full = fullKey(key)
      try {
        const file = fileOf(full)
        const stored = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; world?: unknown }
        if (stored.key !== full || !isSeededWorld(stored.world)) return undefined
        // Used now: the pruning after a write keeps the worlds used last, not the ones written last.
        touch(file)
        return stored.world
      } catch {
        return undefined
      }
    },
    set(key, world) {
      const full = fullKey(key)
      writeCacheFile(fileOf(full), JSON.stringify({ key: full, world }))
      pruneWorlds(dir, keep)
    },
  }
}

/** Marks a file used now; a folder we may read but not write keeps its times. */
function touch(file: string): void {
  try {
    const now = new Date()
    utimesSync(file, now, now)
  } catch {
    // Read-only: the world is still read from it.
  }
}

/**
 * Removes all but the `keep` world files used last (by their modification time, which a read renews).
 * Every relay-mock version, seeding code and faker version writes files of its own, and nothing else
 * would ever remove the old ones: without this, the folder grows with each upgrade, by megabytes for
 * a large world. Never throws: a file another process removed first is simply gone.
 */
function pruneWorlds(dir: string, keep: number): void {
  try {
    const worlds = readdirSync(dir)
      .filter((name) => /^world-[0-9a-f]+\.json$/.test(name))
      .flatMap((name) => {
        try {
          return [{ file: join(dir, name), used: statSync(join(dir, name)).mtimeMs }]
        } catch {
          return []
        }
      })
      .sort((a, b) => b.used - a.used)
    for (const { file } of worlds.slice(keep)) {
      try {
        rmSync(file, { force: true })
      } catch {
        // Not ours to remove (another user's, or busy): the others still go.
      }
    }
  } catch {
    // The folder cannot be read: nothing to prune.
  }
}
