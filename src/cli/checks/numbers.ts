// The numbers and sizes: integers and seconds within bounds, and the delays of --latency.
import { refuse, type Check } from './check.js'

/**
 * An integer within bounds; `noun` names what it is in a refusal ("is not a port").
 * @example integer({ min: 1, max: 100_000, noun: 'a number of vehicles' }).parse('24') // 24
 */
export function integer({ min, max, noun = 'an integer' }: { min: number; max: number; noun?: string }): Check<number> {
  return {
    expected: min < 0 ? `an integer from ${min} to ${max}` : `an integer ${min}-${max}`,
    help: min < 0 ? `from ${min} to ${max}` : `${min}-${max}`,
    parse(text) {
      const value = Number(text)
      if (!/^\s*[+-]?\d+\s*$/.test(text) || value < min || value > max) refuse(`is not ${noun}`)
      return value
    },
  }
}

/**
 * A number of seconds above 0 and at most `max`; fractions allowed.
 * @example seconds({ max: 86_400 }).parse('2.5') // 2.5
 */
export function seconds({ max }: { max: number }): Check<number> {
  return {
    expected: `a number of seconds above 0 and at most ${max}, such as 30 or 2.5`,
    help: `above 0, at most ${max}`,
    parse(text) {
      const value = Number(text)
      if (!/^\s*\d*\.?\d+\s*$/.test(text) || !(value > 0) || value > max) refuse('is not a time in seconds')
      return value
    },
  }
}

/** How long a client may wait for one answer: long enough for the slow fault's answer, short enough for a case's deadline. */
export const requestTimeout: Check<number> = seconds({ max: 600 })

/** A seed of generated worlds: faker's seed is a 32-bit unsigned integer, a larger one would repeat a smaller one's world. */
export const seed: Check<number> = integer({ min: 0, max: 2 ** 32 - 1, noun: 'a seed' })

/** The vehicles of a world: at least one for the scenarios' visit; 100 000 take about 40 s to generate. */
export const vehicles: Check<number> = integer({ min: 1, max: 100_000, noun: 'a number of vehicles' })

/** The requests a journal keeps: at least one, or every read of it would have nothing to answer. */
export const journalLimit: Check<number> = integer({ min: 1, max: 1_000_000, noun: 'a number of requests' })

/** `--journal-bytes`: at least 1 MiB, so that one request of the largest size still fits. */
export const journalBytes: Check<number> = integer({ min: 1024 * 1024, max: 2 ** 31, noun: 'a number of bytes' })

/** `--world-records`: records clients may create in one world. */
export const worldRecords: Check<number> = integer({ min: 1, max: 10_000_000, noun: 'a number of records' })

/** `--max-worlds`: worlds the mock keeps. */
export const maxWorlds: Check<number> = integer({ min: 1, max: 1_000_000, noun: 'a number of worlds' })

/** Cases run at once. */
export const jobs: Check<number> = integer({ min: 1, max: 256, noun: 'a number of jobs' })

/** How many visits conform --explore generates. */
export const explore: Check<number> = integer({ min: 1, max: 100_000, noun: 'a number of visits' })

/** How many times conform runs each case. */
export const repeat: Check<number> = integer({ min: 1, max: 1000, noun: 'a number of runs' })

/** How long a client may run, in seconds. */
export const timeout: Check<number> = seconds({ max: 86_400 })

/** The bounds of one delay, in milliseconds. */
export const LATENCY_MAX_MS = 60_000

/**
 * A delay in milliseconds (`300`) or a range to draw each delay from (`100-800`).
 * @example latency.parse('100-800') // [100, 800]
 */
export const latency: Check<number | [number, number]> = {
  expected: `milliseconds 0-${LATENCY_MAX_MS} (300) or a range of them (100-800)`,
  help: `milliseconds 0-${LATENCY_MAX_MS} (300) or a range (100-800)`,
  parse(text) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text)
    if (!match) refuse('is not a delay')
    const [min, max] = [Number(match[1]), Number(match[2] ?? match[1])]
    if (max > LATENCY_MAX_MS) refuse('is too long')
    if (max < min) refuse('is a range that ends before it starts')
    return match[2] === undefined ? min : [min, max]
  },
}
