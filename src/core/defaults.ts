// Defaults in one place, free of imports, so the command line can show them without loading the mock.

export const SEED_DEFAULTS = { seed: 2026, vehicles: 24 } as const

export const MOCK_DEFAULTS = {
  tokens: ['relay-mock-token'],
  scenario: 'default',
  seed: SEED_DEFAULTS.seed,
  vehicles: SEED_DEFAULTS.vehicles,
  journalLimit: 10_000,
  /** The bytes the whole journal may hold (the oldest requests are dropped beyond). */
  journalBytes: 64 * 1024 * 1024,
  /** A request body longer than this is journaled as its prefix, its full length and its SHA-256. */
  journalBodyBytes: 4 * 1024,
  /** How many records clients may create in one world (the oldest created go first beyond). */
  worldRecords: 10_000,
  /** How many worlds the process keeps (the longest unused go first beyond; the start tokens' never). */
  maxWorlds: 1_000,
  bodyLimit: 1024 * 1024,
  latency: 0 as number | readonly [number, number],
  faults: [] as ReadonlyArray<never>,
}

/** Seconds before conform kills a client that has not ended, with its process tree. */
export const RUN_TIMEOUT_MS = 30_000

/**
 * RELAY_REQUEST_TIMEOUT_MS, the time a client gives one answer in conform (a case whose answers come late
 * on purpose adds that delay): long enough that a client starved of the CPU on a busy machine still reads
 * an answer sent at once; short, since a hung lookup costs three of them and is the longest case
 * (docs/faults.md#why-the-waits-are-what-they-are).
 */
export const REQUEST_TIMEOUT_MS = 2_500
