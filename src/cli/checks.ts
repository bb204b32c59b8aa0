// The checks every command-line value goes through, defined once and shared by the commands: each
// turns the text given into the value the command needs, or refuses it with a sentence that names
// the option, the value and what is allowed. They run before a command starts anything.
import { accessSync, constants, statSync } from 'node:fs'
import { BlockList, isIP } from 'node:net'
import { dirname, resolve } from 'node:path'
import type { Options } from 'yargs'
import { isBearerToken } from '../core/service/token.js'
import { FLOWS, type Flow } from '../core/rules/vocabulary.js'

/**
 * A refused command-line value or combination: its message is one sentence, shown as it is after
 * the command's name, with exit status 2.
 * @example throw new UsageError('--client and --from cannot be used together: expected one of them.')
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** What a check throws: why the value is refused ("is not a port"); the option and value are added. */
class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

function refuse(reason: string): never {
  throw new Refusal(reason)
}

/**
 * One kind of value: how to read it from the command line and what is allowed, said once.
 * @example port.parse('4010') // 4010
 */
export interface Check<T> {
  /** What is allowed, after "expected": `an integer 0-65535`. */
  readonly expected: string
  /** The bounds in a few words for --help (`0-65535`), where the option's description lacks them. */
  readonly help?: string
  /** The value, from the text given; throws a refusal (use {@link apply}, which names the option). */
  parse(text: string): T
}

/**
 * Reads `text` with `check` for `flag`; a refusal becomes a UsageError naming both.
 * @example apply('--port', port, 'abc') // throws: --port "abc" is not a port: expected an integer 0-65535.
 */
export function apply<T>(flag: string, check: Check<T>, text: string): T {
  try {
    return check.parse(text)
  } catch (error) {
    if (error instanceof Refusal) throw refused(flag, text, error.reason, check.expected)
    throw error
  }
}

/**
 * The one shape of a refusal: `--port "abc" is not a port: expected an integer 0-65535.`
 * @example refused('--port', '80', 'is not allowed for this user', 'a port above 1023')
 */
export function refused(flag: string, value: string, reason: string, expected: string): UsageError {
  return new UsageError(`${flag} ${JSON.stringify(value)} ${reason}: expected ${expected}.`)
}

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

/**
 * One of a list of names.
 * @example oneOf(['advanced', 'simple'], 'a flow').parse('simple') // 'simple'
 */
export function oneOf<T extends string>(names: readonly T[], noun: string): Check<T> {
  const listed = names.length === 2 ? `${names[0]} or ${names[1]}` : `one of ${names.join(', ')}`
  return {
    expected: listed,
    help: listed,
    parse(text) {
      if (!names.includes(text as T)) refuse(`is not ${noun}`)
      return text as T
    },
  }
}

/** A suite of the conformance kit: the two flows, and the fault matrix. */
export const suite: Check<'advanced' | 'simple' | 'resilience' | 'variants'> = oneOf(
  ['advanced', 'simple', 'resilience', 'variants'],
  'a suite',
)

/** How long a client may wait for one answer: long enough for the slow fault's answer, short enough for a case's deadline. */
export const requestTimeout: Check<number> = seconds({ max: 600 })

/** A seed of generated worlds: faker's seed is a 32-bit unsigned integer, a larger one would repeat a smaller one's world. */
export const seed: Check<number> = integer({ min: 0, max: 2 ** 32 - 1, noun: 'a seed' })

/** The vehicles of a world: at least one for the scenarios' visit; 100 000 take about 40 s to generate. */
export const vehicles: Check<number> = integer({ min: 1, max: 100_000, noun: 'a number of vehicles' })

/** The requests a journal keeps: at least one, or every read of it would have nothing to answer. */
export const journalLimit: Check<number> = integer({ min: 1, max: 1_000_000, noun: 'a number of requests' })

/** Cases run at once. */
/** `--journal-bytes`: at least 1 MiB, so that one request of the largest size still fits. */
export const journalBytes: Check<number> = integer({ min: 1024 * 1024, max: 2 ** 31, noun: 'a number of bytes' })

/** `--world-records`: records clients may create in one world. */
export const worldRecords: Check<number> = integer({ min: 1, max: 10_000_000, noun: 'a number of records' })

/** `--max-worlds`: worlds the mock keeps. */
export const maxWorlds: Check<number> = integer({ min: 1, max: 1_000_000, noun: 'a number of worlds' })

export const jobs: Check<number> = integer({ min: 1, max: 256, noun: 'a number of jobs' })

/** How many visits conform --explore generates. */
export const explore: Check<number> = integer({ min: 1, max: 100_000, noun: 'a number of visits' })

/** How many times conform runs each case. */
export const repeat: Check<number> = integer({ min: 1, max: 1000, noun: 'a number of runs' })

/** How long a client may run, in seconds. */
export const timeout: Check<number> = seconds({ max: 86_400 })

/** A flow of the relay service. */
export const flow: Check<Flow> = oneOf(FLOWS, 'a flow')

/** A TCP port; 0 lets the system pick a free one. */
export const port: Check<number> = integer({ min: 0, max: 65_535, noun: 'a port' })

/**
 * An address to listen on: an IP address or a host name (RFC 1123). Whether it resolves and is an
 * address of this machine is checked before the server starts, by trying it.
 * @example host.parse('0.0.0.0') // '0.0.0.0'
 */
export const host: Check<string> = {
  expected: 'an IP address or a host name, such as 127.0.0.1, ::1, 0.0.0.0 or localhost',
  parse(text) {
    const name = text.endsWith('.') ? text.slice(0, -1) : text
    const hostname =
      name.length <= 253 && name.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))
    if (!isIP(text) && !hostname) refuse('is not an address')
    return text
  },
}

/**
 * Whether `address` is this machine only (127.0.0.0/8, ::1, localhost): nothing else on the
 * network can reach a server listening there.
 * @example isLoopback('0.0.0.0') // false
 */
export function isLoopback(address: string): boolean {
  const name = address.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  const family = isIP(name)
  return family !== 0 && loopback.check(name, family === 4 ? 'ipv4' : 'ipv6')
}

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** A bearer token, as the mock reads one in `Authorization: Bearer <token>` (one definition for both: core/token.ts). */
export const token: Check<string> = {
  expected: 'printable ASCII characters without spaces, such as relay-mock-token',
  parse(text) {
    if (!isBearerToken(text)) refuse(text === '' ? 'is empty' : 'is not a token')
    return text
  },
}

/** A scenario's name or file: checked against the scenarios once they are loaded (serve does); anything but blank here. */
export const scenarioName: Check<string> = {
  expected: 'a name (relay-mock scenarios lists them) or a scenario file',
  parse(text) {
    if (text.trim() === '') refuse('is empty')
    return text
  },
}

/**
 * The base URL of a real service: http:// or https://, with a host, no query or fragment.
 * @example upstreamUrl.parse('https://staging.example.com/api') // 'https://staging.example.com/api'
 */
export const upstreamUrl: Check<string> = {
  expected: 'the base URL of the real service, http:// or https://, such as https://staging.example.com',
  parse(text) {
    let url: URL
    try {
      url = new URL(text.trim())
    } catch {
      refuse('is not a URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`is not an http:// or https:// URL`)
    if (url.search || url.hash) refuse('has a query or a fragment')
    if (url.username || url.password) refuse('carries credentials (the client sends its own token)')
    return text.trim()
  },
}

/** Text checked against a list once the list is loaded (a case id): anything but blank here. */
export const text: Check<string> = {
  expected: 'a value that is not blank',
  parse(value) {
    if (value.trim() === '') refuse('is empty')
    return value
  },
}

/** A command run through the shell: anything but blank. */
export const shellCommand: Check<string> = {
  expected: 'the command that runs your client, such as "node client.js"',
  parse(text) {
    if (text.trim() === '') refuse('is empty')
    return text
  },
}

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

/**
 * Why nothing can be created at `path` (a folder or a file), or undefined if it can: its nearest
 * existing ancestor must be a folder this process may write into.
 */
function cannotCreate(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let stat
    try {
      stat = statSync(dir)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(dir) !== dir) continue
      return `cannot be written (${dir} cannot be read: ${code})`
    }
    if (!stat.isDirectory()) return `cannot be written (${dir} is a file, not a folder)`
    return writable(dir) ? undefined : `cannot be written (the folder ${dir} is not writable)`
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function existing(path: string) {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** A path to write to, of one kind: writable if it exists, else creatable (its missing folders too). */
function writablePath(kind: 'file' | 'folder', expected: string): Check<string> {
  const other = kind === 'file' ? 'folder' : 'file'
  return {
    expected,
    parse(text) {
      if (text.trim() === '') refuse('is empty')
      const path = resolve(text)
      const stat = existing(path)
      if (stat && stat.isDirectory() !== (kind === 'folder')) refuse(`is a ${other}, not a ${kind}`)
      if (stat && !writable(path)) refuse(`cannot be written (the ${kind} is not writable)`)
      const reason = stat ? undefined : cannotCreate(path)
      if (reason) refuse(reason)
      return text
    },
  }
}

/**
 * A file to write a report to: it is writable, or it can be created (its missing folders too).
 * @example writableFile.parse('reports/conform.json') // 'reports/conform.json'
 */
export const writableFile: Check<string> = writablePath(
  'file',
  'a file in a folder that exists and is writable, or can be created',
)

/**
 * A folder to write reports into: it exists and is writable, or it can be created.
 * @example writableFolder.parse('conform-report') // 'conform-report'
 */
export const writableFolder: Check<string> = writablePath(
  'folder',
  'a folder that exists and is writable, or can be created',
)

/**
 * A file to read.
 * @example readableFile.parse('staging.har') // 'staging.har'
 */
export const readableFile: Check<string> = {
  expected: 'a file that exists and can be read',
  parse(text) {
    if (text.trim() === '') refuse('is empty')
    const stat = existing(resolve(text))
    if (!stat) refuse('does not exist')
    if (!stat.isFile()) refuse('is not a file')
    try {
      accessSync(text, constants.R_OK)
    } catch {
      refuse('cannot be read')
    }
    return text
  },
}

const expectations = new Map<string, string>()

/**
 * What the checked option `name` (or an alias of it) allows, once its command's options are declared.
 * @example expectedOf('port') // 'an integer 0-65535'
 */
export function expectedOf(name: string): string | undefined {
  return expectations.get(name)
}

/**
 * A yargs option whose value goes through `check`: read as text (numbers too, so that a refusal
 * shows what was typed), given once unless `repeatable`, and never without a value. The default,
 * if any, goes through the check too. `describe` gets the check's bounds appended, for --help.
 * @example y.option('port', checked('port', port, { alias: 'p', default: 4010, describe: 'Port to listen on' }))
 */
export function checked<T>(
  name: string,
  check: Check<T>,
  options: Options & { repeatable?: boolean; unique?: boolean } = {},
): Options {
  const { repeatable, unique, describe, ...rest } = options
  const flag = `--${name}`
  for (const key of [name, ...[rest.alias ?? []].flat()]) expectations.set(key, check.expected)
  const coerce = (value: unknown): T | T[] => {
    const texts = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'boolean' ? '' : String(v)))
    if (!repeatable && texts.length > 1) {
      throw new UsageError(
        `${flag} is given ${texts.length} times (${texts.map((t) => JSON.stringify(t)).join(', ')}): expected it once.`,
      )
    }
    const values = texts.map((text) => apply(flag, check, text))
    if (unique) {
      const twice = texts.find((text, i) => texts.indexOf(text) !== i)
      if (twice !== undefined) throw refused(flag, twice, 'is given twice', 'each value once')
    }
    return repeatable ? values : values[0]
  }
  return {
    ...rest,
    ...(repeatable ? { array: true } : {}),
    requiresArg: true,
    describe: [describe, check.help].filter(Boolean).join('; '),
    coerce,
  }
}
