// A bad command line, as a user types it (`node bin/relay-mock.js ...`): one line on stderr naming
// the option, the value and what is allowed, exit status 2, nothing started, no stack trace.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type Ended } from '../support/cli.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined }
let dir: string
let aFile: string

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/bundle/relay-mock.cjs')))
    throw new Error('The CLI is not built. Please run npm run build (npm test does) before these tests.')
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-refusals-'))
  aFile = join(dir, 'a-file')
  await writeFile(aFile, 'not a folder')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const relayMock = (...args: string[]) => runCli(args, 20_000)

/** The longest a refusal may be: four lines of an 80-column terminal. */
const SHORT = 320

/** What every usage error shares: a single short line, exit 2, nothing on stdout, no stack. */
function expectShort(run: Ended): string {
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toMatch(/^[^\n]+\n$/)
  expect(run.stderr).not.toMatch(/^\s*at /m)
  expect(run.stderr.length, run.stderr).toBeLessThanOrEqual(SHORT)
  return run.stderr.trimEnd()
}

/** A refusal of the command line: a short line that starts with the command's name. */
function expectRefusal(run: Ended, command: string): string {
  const line = expectShort(run)
  expect(line.startsWith(`relay-mock ${command}: `)).toBe(true)
  return line
}

// Each class of bad value: the command line, then the option and the value the refusal must name.
const badValues: Array<[string, string[], string, string]> = [
  ['a port that is not a number', ['serve', '--port', 'abc'], '--port', 'abc'],
  ['a port out of range', ['serve', '--port', '70000'], '--port', '70000'],
  ['no vehicles', ['serve', '--vehicles', '0'], '--vehicles', '0'],
  ['vehicles that are not a number', ['serve', '--vehicles', 'abc'], '--vehicles', 'abc'],
  ['a journal that keeps nothing', ['serve', '--journal-limit', '0'], '--journal-limit', '0'],
  ['a negative journal limit', ['serve', '--journal-limit', '-1'], '--journal-limit', '-1'],
  ['a seed that is not a number', ['serve', '--seed', 'abc'], '--seed', 'abc'],
  ['a latency that is not milliseconds', ['serve', '--latency', 'fast'], '--latency', 'fast'],
  ['a latency range that ends before it starts', ['serve', '--latency', '800-100'], '--latency', '800-100'],
  ['a host that is not an address', ['serve', '--host', 'not a host'], '--host', 'not a host'],
  ['an empty token', ['serve', '--token', ''], '--token', ''],
  ['a token with a space', ['serve', '--token', 'my token'], '--token', 'my token'],
  ['the same token twice', ['serve', '--token', 'twice', '--token', 'twice'], '--token', 'twice'],
  ['an unknown scenario', ['serve', '--scenario', 'no-such-world'], '--scenario', 'no-such-world'],
  ['a fault not written as one', ['serve', '--fault', 'break everything'], '--fault', 'break everything'],
  ['a fault on a request no fault can break', ['serve', '--fault', 'GET /nothing=reset'], '--fault', 'GET /nothing'],
  ['a flow conform does not know', ['conform', '--client', 'true', '--flow', 'fancy'], '--flow', 'fancy'],
  ['a flow demo does not know', ['demo', '--flow', 'fancy'], '--flow', 'fancy'],
  ['an unknown case', ['conform', '--client', 'true', '--case', 'simple/nope'], '--case', 'simple/nope'],
  ['no jobs', ['conform', '--client', 'true', '--jobs', '0'], '--jobs', '0'],
  ['no runs of each case', ['conform', '--client', 'true', '--repeat', '0'], '--repeat', '0'],
  ['a timeout of zero', ['conform', '--client', 'true', '--timeout', '0'], '--timeout', '0'],
  ['a timeout that is not a number', ['conform', '--client', 'true', '--timeout', 'soon'], '--timeout', 'soon'],
  ['a blank client command', ['conform', '--client', ' '], '--client', ' '],
  ['a capture that does not exist', ['conform', '--from', 'no-such-capture.har'], '--from', 'no-such-capture.har'],
  ['a case served on a port that is not one', ['case', 'simple/accepted', '--port', 'abc'], '--port', 'abc'],
  [
    'a cases file that does not exist',
    ['conform', '--client', 'true', '--cases', 'no-such-cases.json'],
    '--cases',
    'no-such-cases.json',
  ],
]

describe.concurrent('a bad option value is one line naming it, and exit 2', () => {
  for (const [what, args, flag, value] of badValues) {
    it(`refuses ${what}`, async () => {
      const line = expectRefusal(await relayMock(...args), args[0])
      expect(line).toContain(`${flag} ${JSON.stringify(value)} `)
      expect(line).toMatch(/: expected .+\.$/)
    })
  }

  it('refuses a report file whose folder cannot be created, before any client runs', async () => {
    const marker = join(dir, 'client-ran')
    const report = join(aFile, 'conform.json')
    const line = expectRefusal(await relayMock('conform', '--client', `touch ${marker}`, '--json', report), 'conform')
    expect(line).toBe(
      `relay-mock conform: --json ${JSON.stringify(report)} cannot be written (${aFile} is a file, not a folder): expected a file in a folder that exists and is writable, or can be created.`,
    )
    expect(existsSync(marker)).toBe(false)
  })

  it('refuses a report folder that is a file', async () => {
    const line = expectRefusal(await relayMock('conform', '--client', 'true', '--report-dir', aFile), 'conform')
    expect(line).toContain(`--report-dir ${JSON.stringify(aFile)} is a file, not a folder`)
  })

  it('refuses an option given twice that takes one value', async () => {
    const line = expectRefusal(await relayMock('serve', '--port', '1', '--port', '2'), 'serve')
    expect(line).toBe('relay-mock serve: --port is given 2 times ("1", "2"): expected it once.')
  })

  it('refuses an option without its value, saying what it takes', async () => {
    const line = expectRefusal(await relayMock('serve', '--vehicles'), 'serve')
    expect(line).toBe('relay-mock serve: --vehicles needs a value: expected an integer 1-100000.')
  })

  it('refuses conform with neither a client nor a capture', async () => {
    const line = expectRefusal(await relayMock('conform'), 'conform')
    expect(line).toMatch(/--client is missing: expected the command that runs your client .*--from FILE\.har/)
  })

  it('refuses --client together with --from', async () => {
    const capture = join(dir, 'capture.har')
    await writeFile(capture, '{}')
    const line = expectRefusal(await relayMock('conform', '--client', 'true', '--from', capture), 'conform')
    expect(line).toMatch(/--(client|from) and --(client|from) cannot be used together: expected one of them\.$/)
  })

  it('refuses a switch given a value other than true or false', async () => {
    const line = expectRefusal(await relayMock('conform', '--client', 'true', '--github=maybe'), 'conform')
    expect(line).toBe(
      'relay-mock conform: --github "maybe" is not a switch value: expected true or false, or --github or --no-github alone.',
    )
  })

  it('refuses cases that the chosen flow leaves out', async () => {
    const line = expectRefusal(
      await relayMock('conform', '--client', 'true', '--flow', 'simple', '--case', 'advanced/*'),
      'conform',
    )
    expect(line).toContain('--case "advanced/*" has no case of the simple flow')
  })
})

describe.concurrent('an unknown option or command', () => {
  it('names the nearest option', async () => {
    const run = await relayMock('serve', '--prot', '4010')
    expectRefusal(run, 'serve')
    expect(run.stderr).toBe('relay-mock serve: Unknown option --prot. Did you mean --port?\n')
  })

  it("names the nearest of the command's own options", async () => {
    const run = await relayMock('conform', '--client', 'true', '--report-dri', 'out')
    expect(run.stderr).toBe('relay-mock conform: Unknown option --report-dri. Did you mean --report-dir?\n')
  })

  it('lists the options when none is near and they are few', async () => {
    const run = await relayMock('compare', '--zzzzzz', 'service.json')
    expect(expectRefusal(run, 'compare')).toBe(
      'relay-mock compare: Unknown option --zzzzzz: expected one of --documents, --json, --timeout.',
    )
  })

  it('counts them and points at --help when they are many', async () => {
    const run = await relayMock('conform', '--client', 'true', '--zzzzzz')
    expect(expectRefusal(run, 'conform')).toMatch(
      /^relay-mock conform: Unknown option --zzzzzz: expected one of the \d+ options of relay-mock conform \(relay-mock conform --help lists them\)\.$/,
    )
  })

  it('names an unknown option that took the argument after it, rather than the argument it took', async () => {
    const run = await relayMock('compare', '--bogus', 'service.json')
    expect(expectRefusal(run, 'compare')).toMatch(
      /^relay-mock compare: Unknown option --bogus: expected one of .*--json, --timeout\.$/,
    )
    const none = await relayMock('compare')
    expect(expectRefusal(none, 'compare')).toBe(
      'relay-mock compare: Expected at least 1 argument after the options, got 0 (relay-mock compare --help says which).',
    )
  })

  it('says so when the command takes no options', async () => {
    const run = await relayMock('scenarios', '--verbose')
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'relay-mock scenarios: Unknown option --verbose: relay-mock scenarios takes no options.\n',
    })
  })

  it('names the nearest command', async () => {
    const run = await relayMock('serv')
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'relay-mock: Unknown command "serv". Did you mean serve?\n',
    })
  })

  it('lists the commands when none is near', async () => {
    const run = await relayMock('frobnicate')
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'relay-mock: Unknown command "frobnicate": expected serve, proxy, probe, conform, case, compare, demo, scenarios or assumptions.\n',
    })
  })

  it('refuses a stray argument after a command', async () => {
    const line = expectRefusal(await relayMock('scenarios', 'extra'), 'scenarios')
    expect(line).toBe(
      'relay-mock scenarios: Unexpected argument "extra": expected options only (relay-mock scenarios --help lists them).',
    )
  })
})

describe.concurrent('every usage error is one short line', () => {
  const usageErrors: Array<[string, string[]]> = [
    ...[
      'serve',
      'proxy --upstream http://127.0.0.1:9',
      'probe --upstream http://127.0.0.1:9 --token t',
      'conform --client true',
      'case simple/accepted',
      'compare service.json',
      'demo',
      'scenarios',
      'assumptions',
    ].map((line): [string, string[]] => [
      `an unknown option of ${line.split(' ')[0]}`,
      [...line.split(' '), '--bogus-option'],
    ]),
    ['a --case that matches nothing', ['conform', '--client', 'true', '--case', 'resilience/nothing-like-it']],
    ['a --case glob that matches nothing', ['conform', '--client', 'true', '--case', 'resilience/*/unavailble/*']],
    ['a case id that matches nothing', ['case', 'simple/acepted']],
    ['a --scenario that matches nothing', ['serve', '--scenario', 'no-such-world']],
    ['a --variant the mock does not serve', ['serve', '--variant', 'create.status=204']],
    ['a --suite that matches nothing', ['conform', '--client', 'true', '--suite', 'nope']],
    ['a required option left out', ['proxy']],
    ['an unknown command', ['frobnicate']],
    ['a stray argument', ['serve', 'extra']],
  ]
  for (const [what, args] of usageErrors) {
    it(`refuses ${what} in one line of at most ${SHORT} characters`, async () => {
      expectShort(await relayMock(...args))
    })
  }

  it('names the nearest case ids and a glob per suite for a --case that matches nothing, not every id', async () => {
    const line = expectRefusal(
      await relayMock('conform', '--client', 'true', '--case', 'resilience/*/unavailble/*'),
      'conform',
    )
    expect(line).toBe(
      'relay-mock conform: --case "resilience/*/unavailble/*" matches no case: expected an id such as resilience/company-lookup/unavailable/once, resilience/company-lookup/unavailable/always or resilience/vehicle-lookup/unavailable/once (the nearest), or a glob such as advanced/*, simple/*, resilience/* or variants/*.',
    )
  })

  it('says what --upstream is when it is left out', async () => {
    const line = expectRefusal(await relayMock('proxy'), 'proxy')
    expect(line).toMatch(/^relay-mock proxy: --upstream is missing: expected the base URL of the real service/)
  })
})

describe('relay-mock --version', () => {
  it("prints relay-mock's version from package.json", async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }
    expect(await relayMock('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })
})

describe('relay-mock serve --host', () => {
  /** Starts serve, waits for its banner, stops it; resolves with what it printed on stderr. */
  async function stderrOfServe(host: string): Promise<string> {
    const child = spawn(process.execPath, ['bin/relay-mock.js', 'serve', '--port', '0', '--host', host], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const ended = once(child, 'exit')
    try {
      for await (const chunk of child.stdout.setEncoding('utf8')) {
        stdout += chunk
        if (stdout.includes('Ctrl-C')) break
      }
      expect(stdout).toContain('serving the relay service at http://')
    } finally {
      child.kill('SIGINT')
      await ended
    }
    return stderr
  }

  it('warns on stderr that the admin API and the live page are reachable from the network', async () => {
    const stderr = await stderrOfServe('0.0.0.0')
    expect(stderr).toBe(
      'relay-mock serve: warning: --host 0.0.0.0 is not a loopback address, so the admin API (/__relay/) and the live page are reachable from the network: anyone who reaches them can read the worlds and their journals, issue tokens and reset them.\n',
    )
  })

  it('does not warn on a loopback address', async () => {
    expect(await stderrOfServe('localhost')).toBe('')
  })
})
