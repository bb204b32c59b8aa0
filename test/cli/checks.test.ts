// The checks of command-line values, one by one: what each accepts, and that every refusal is one
// line naming the option and the value.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  apply,
  integer,
  isLoopback,
  jobs,
  journalLimit,
  port,
  seconds,
  seed,
  token,
  UsageError,
  vehicles,
  writableFile,
  writableFolder,
  type Check,
} from '../../src/cli/checks.js'
import { closest } from '../../src/cli/usage.js'
import yargs, { type CommandModule } from 'yargs'
import { caseCommand } from '../../src/cli/commands/case.js'
import { conformCommand } from '../../src/cli/commands/conform.js'
import { demoCommand } from '../../src/cli/commands/demo.js'
import { serveCommand } from '../../src/cli/commands/serve.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-checks-'))
  await writeFile(join(dir, 'a-file'), '')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function refusal(flag: string, check: Check<unknown>, text: string): string {
  try {
    apply(flag, check, text)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error(`${flag} ${JSON.stringify(text)} was accepted`)
}

describe('integer', () => {
  it('reads integers within its bounds, the bounds included', () => {
    const check = integer({ min: 1, max: 10 })
    expect([' 1', '10', '+5'].map((text) => apply('--n', check, text))).toEqual([1, 10, 5])
  })

  it('refuses the rest, naming what it is and its bounds', () => {
    expect(refusal('--port', port, 'abc')).toBe('--port "abc" is not a port: expected an integer 0-65535.')
    for (const text of ['0', '-1', '1.5', '1e3', '0x10', '', ' ', 'Infinity', '1000001']) {
      expect(refusal('--journal-limit', journalLimit, text)).toBe(
        `--journal-limit ${JSON.stringify(text)} is not a number of requests: expected an integer 1-1000000.`,
      )
    }
  })

  it('either gives an integer within its bounds or refuses in one line, whatever the text (property)', () => {
    const check = integer({ min: -5, max: 5 })
    const alphabet = '0123456789-+. e\nx'
    let state = 2026
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31)
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next() % 5 }, () => alphabet[next() % alphabet.length]).join('')
      try {
        const value = apply('--n', check, text)
        expect(Number.isInteger(value) && value >= -5 && value <= 5).toBe(true)
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError)
        expect(
          (error as Error).message.startsWith(
            `--n ${JSON.stringify(text)} is not an integer: expected an integer from -5 to 5.`,
          ),
        ).toBe(true)
        expect((error as Error).message).not.toMatch(/\n/)
      }
    }
  })
})

describe('seconds', () => {
  it('reads fractions above 0 up to its bound', () => {
    expect(apply('--timeout', seconds({ max: 60 }), '2.5')).toBe(2.5)
    expect(apply('--timeout', seconds({ max: 60 }), '60')).toBe(60)
  })

  it('refuses 0, negatives, words and more than its bound', () => {
    for (const text of ['0', '-1', 'soon', '61', '.'])
      expect(refusal('--timeout', seconds({ max: 60 }), text)).toMatch(
        /^--timeout ".*" is not a time in seconds: expected/,
      )
  })
})

describe('token', () => {
  it('takes printable ASCII without spaces', () => {
    expect(apply('--token', token, 'relay-mock-token')).toBe('relay-mock-token')
  })

  it('refuses empty, spaced and non-ASCII tokens', () => {
    expect(refusal('--token', token, '')).toMatch(/^--token "" is empty: expected/)
    for (const text of ['a b', 'tab\there', 'þorri'])
      expect(refusal('--token', token, text)).toMatch(
        /is not a token: expected printable ASCII characters without spaces/,
      )
  })
})

describe('isLoopback', () => {
  it('is true for 127.0.0.0/8, ::1 and localhost only', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'LOCALHOST',
      'localhost.',
    ])
      expect(isLoopback(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '128.0.0.1'])
      expect(isLoopback(host), host).toBe(false)
  })
})

describe('writable paths', () => {
  it('takes a file in a folder that exists, or in folders that can be created', () => {
    expect(apply('--json', writableFile, join(dir, 'x.json'))).toBe(join(dir, 'x.json'))
    expect(apply('--json', writableFile, join(dir, 'new', 'deeper', 'x.json'))).toBe(
      join(dir, 'new', 'deeper', 'x.json'),
    )
    expect(apply('--report-dir', writableFolder, join(dir, 'new'))).toBe(join(dir, 'new'))
  })

  it('refuses a file under a file, a folder as a file and a file as a folder', () => {
    expect(refusal('--json', writableFile, join(dir, 'a-file', 'x.json'))).toContain(
      `cannot be written (${join(dir, 'a-file')} is a file, not a folder)`,
    )
    expect(refusal('--json', writableFile, dir)).toContain('is a folder, not a file')
    expect(refusal('--report-dir', writableFolder, join(dir, 'a-file'))).toContain('is a file, not a folder')
    expect(refusal('--json', writableFile, '')).toMatch(/^--json "" is empty/)
  })
})

describe('closest', () => {
  it('finds a swapped, missing or extra letter, and a prefix', () => {
    expect(closest('prot', ['port', 'host'])).toBe('port')
    expect(closest('vehicle', ['vehicles', 'seed'])).toBe('vehicles')
    expect(closest('journal', ['journal-limit', 'latency'])).toBe('journal-limit')
    expect(closest('sede', ['seed', 'scenario'])).toBe('seed')
  })

  it('finds nothing when nothing is near', () => {
    expect(closest('zzzzzz', ['port', 'host', 'token'])).toBeUndefined()
    expect(closest('x', ['port'])).toBeUndefined()
  })
})

describe('the option tables of docs/cli.md', () => {
  const page = () => readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8')

  it('state the bounds the checks hold', async () => {
    const readme = await page()
    const row = (flag: string, section: string) =>
      readme
        .slice(readme.indexOf(`\n${section}\n`))
        .split('\n')
        .find((line) => line.startsWith(`| \`${flag}\``))
    const bounds = (check: Check<unknown>) => /\d+-\d+/.exec(check.expected)![0]
    for (const [flag, check] of [
      ['--port', port],
      ['--seed', seed],
      ['--vehicles', vehicles],
      ['--journal-limit', journalLimit],
    ] as const) {
      expect(row(flag, '## `relay-mock serve`'), flag).toContain(bounds(check))
    }
    expect(row('--jobs', '## `relay-mock conform`')).toContain(bounds(jobs))
    expect(row('--seed', '## `relay-mock conform`')).toContain(bounds(seed))
  })

  it('name every option each command takes, so a flag added to the CLI is documented', async () => {
    const readme = await page()
    const section = (heading: string) => {
      const start = readme.indexOf(`\n${heading}\n`)
      expect(start, heading).toBeGreaterThan(-1)
      const end = readme.slice(start + heading.length + 2).search(/\n#{2,3} /)
      return readme.slice(start, end === -1 ? undefined : start + heading.length + 2 + end)
    }
    // getOptions() is yargs' own (runtime) reading of the options a builder declared; its types omit it.
    type Declared = { getOptions(): { key: Record<string, unknown> } }
    const optionsOf = (command: CommandModule<any, any>) => {
      const { key } = (
        (command.builder as (y: ReturnType<typeof yargs>) => ReturnType<typeof yargs>)(yargs([])) as unknown as Declared
      ).getOptions()
      return Object.keys(key).filter((name) => name.length > 1 && name !== 'help' && name !== 'version')
    }
    const undocumented = (command: CommandModule<any, any>, text: string, form: (name: string) => string) =>
      optionsOf(command).filter((name) => !text.includes(form(name)))
    const serve = section('## `relay-mock serve`')
    const synopsis = /```sh\n(relay-mock serve[^\n]*)/.exec(serve)![1]
    expect(undocumented(serveCommand, serve, (name) => `| \`--${name}\``)).toEqual([])
    expect(undocumented(serveCommand, synopsis, (name) => `[--${name}`)).toEqual([])
    expect(undocumented(conformCommand, section('## `relay-mock conform`'), (name) => `| \`--${name}`)).toEqual([])
    const kase = section('## `relay-mock case`')
    const caseSynopsis = /```sh\n(relay-mock case[^\n]*)/.exec(kase)![1]
    expect(undocumented(caseCommand, caseSynopsis, (name) => (name === 'id' ? '<id>' : `[--${name}`))).toEqual([])
    expect(undocumented(caseCommand, kase, (name) => (name === 'id' ? '| `<id>`' : `| \`--${name}`))).toEqual([])
    expect(undocumented(demoCommand, section('## `relay-mock demo`'), (name) => `--${name}`)).toEqual([])
  })
})
