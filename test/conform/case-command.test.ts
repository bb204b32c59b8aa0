// `relay-mock case <id>` as a person uses it: a real process serves the case, prints the client's
// environment, and judges the client run by hand with it (here: the Python example client and a
// defective one, each a process of its own).
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needs } from '../support/needs.js'

// The Python example, and python3's pty for a terminal.
needs('python3', 'urllib3')

const root = fileURLToPath(new URL('../..', import.meta.url))
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined }
// Each test spawns the CLI and a client: on a busy machine that takes longer than a unit test.
const SLOW = { timeout: 120_000 }

let dir: string
const children: ChildProcess[] = []
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-case-'))
})
afterAll(async () => {
  // The tests run at once: a process is ended only when all of them are done.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

function start(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: 'pipe' | 'ignore' } = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: options.env ?? env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const ended = once(child, 'exit').then(([code]): Ended => ({ code: code as number | null, stdout, stderr }))
  const waitFor = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (stdout.includes(text)) {
          child.stdout!.off('data', check)
          resolve(stdout)
        }
      }
      child.stdout!.on('data', check)
      check()
      void ended.then((result) =>
        reject(new Error(`The process ended (${result.code}) before printing "${text}": ${result.stderr}`)),
      )
    })
  return { child, ended, waitFor }
}

const relayMock = (args: string[], stdin?: 'pipe') => start(process.execPath, ['bin/relay-mock.js', ...args], { stdin })
/**
 * relay-mock on a terminal of its own, as a person starts it: Python's pty module gives it one and copies
 * what the test writes to its own stdin into that terminal (so '\n' is Enter), and its output back.
 */
const onTerminal = (args: string[]) =>
  start(
    'python3',
    [
      '-c',
      'import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))',
      process.execPath,
      'bin/relay-mock.js',
      ...args,
    ],
    { stdin: 'pipe' },
  )

/** The `export NAME='value'` lines a case prints, as an environment. */
function exported(stdout: string): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const [, name, value] of stdout.matchAll(/^export (RELAY_\w+)='(.*)'$/gm))
    variables[name] = value.replace(/'\\''/g, "'")
  return variables
}

/** Runs a client command by hand with the printed environment, as a person would; resolves with its exit code. */
async function runClient(command: string[], variables: Record<string, string>): Promise<Ended> {
  const [program, ...args] = command
  return start(program, args, { env: { ...env, ...variables } }).ended
}

describe.concurrent('relay-mock case', () => {
  it(
    'prints the environment of the case, and with --once gives the verdict once the client has run',
    SLOW,
    async () => {
      const envFile = join(dir, 'accepted.env')
      const served = relayMock(['case', 'simple/accepted', '--port', '0', '--once', '--write-env', envFile])
      const printed = await served.waitFor('Run your client now.')
      const variables = exported(printed)
      expect(Object.keys(variables).sort()).toEqual(
        [
          'RELAY_BASE_URL',
          'RELAY_API_TOKEN',
          'RELAY_LOCATION_ID',
          'RELAY_FLOW',
          'RELAY_PLATE',
          'RELAY_OWNER_KENNITALA',
          'RELAY_REGISTRATION_DATE',
          'RELAY_REQUEST_TIMEOUT_MS',
          'RELAY_VISIT_START',
          'RELAY_VISIT_END',
          'RELAY_AMOUNT',
          'RELAY_CURRENCY',
          'RELAY_VISIT',
          'RELAY_RESULT_FILE',
        ].sort(),
      )
      expect(variables.RELAY_FLOW).toBe('simple')
      expect(JSON.parse(variables.RELAY_VISIT)).toMatchObject({ plate: variables.RELAY_PLATE, flow: 'simple' })
      expect(printed).toContain(`Written to ${envFile}`)
      // The file holds the same variables, in a form a shell, dotenv and node --env-file read.
      const written = await readFile(envFile, 'utf8')
      expect(written.startsWith('# relay-mock case simple/accepted')).toBe(true)
      for (const [name, value] of Object.entries(variables)) expect(written).toContain(`${name}='${value}'`)

      const client = await runClient(['python3', 'examples/clients/python/client.py'], variables)
      expect(client.code).toBe(0)
      const verdict = await served.ended
      expect(verdict.stderr).toBe('')
      expect(verdict.code).toBe(0)
      // Its exit status was not seen: the case is partial (client.completes not checked), which case accepts.
      expect(verdict.stdout).toMatch(/\n {2}\? simple\/accepted {2}\d.*1 rule not checked/)
      expect(verdict.stdout).toMatch(/client\.completes in simple\/accepted\n {6}Not checked: the client ran by hand/)
      expect(verdict.stdout).toContain('Conformant: 1 case, 0 passed, 1 partial, 0 failed')
    },
  )

  it('serves a case of a cases file in the world conform gives it', SLOW, async () => {
    const served = relayMock([
      'case',
      'glansi/new-van/simple',
      '--cases',
      'examples/cases.json',
      '--port',
      '0',
      '--once',
      '--write-env',
      join(dir, 'new-van.env'),
    ])
    const printed = await served.waitFor('Run your client now.')
    expect(printed).toContain(
      'relay-mock case glansi/new-van/simple · A new van: the advanced flow creates and pays; the simple endpoint refuses (scenario new-van, flow simple)',
    )
    const variables = exported(printed)
    expect(variables.RELAY_AMOUNT).toBe('4490')
    const client = await runClient(['python3', 'examples/clients/python/client.py'], variables)
    expect(client.code).toBe(0)
    // The scenario refuses every simple payment: the client reports rejected, which is right.
    expect(client.stdout + client.stderr).toContain('"outcome": "rejected"')
    const verdict = await served.ended
    expect(verdict.code).toBe(0)
    expect(verdict.stdout).toMatch(/\? glansi\/new-van\/simple {2}\d/)
  })

  it(
    'on a terminal, waits for Enter, then fails a client that breaks a rule, naming it as conform does',
    SLOW,
    async () => {
      const served = onTerminal([
        'case',
        'advanced/existing-vehicle',
        '--port',
        '0',
        '--write-env',
        join(dir, 'broken.env'),
      ])
      const printed = await served.waitFor('press Enter for the verdict')
      const client = await runClient(
        [process.execPath, 'test/conform/clients/defective.mjs', 'create-when-found'],
        exported(printed.replace(/\r\n/g, '\n')),
      )
      expect(client.code).toBe(0)
      // The visit is complete, and the case still waits: only Enter gives the verdict on a terminal.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(served.child.exitCode).toBe(null)
      served.child.stdin!.write('\n')
      const ended = await served.ended
      const stdout = ended.stdout.replace(/\r\n/g, '\n')
      expect(ended.code).toBe(1)
      expect(stdout).toMatch(/✗ advanced\/existing-vehicle {2}\d.*rules? failed/)
      expect(stdout).toContain(
        '✗ advanced/existing-vehicle — The plate is known: pay for it, create nothing (scenario existing-vehicle)',
      )
      expect(stdout).toContain('    advanced.no-create-when-found')
      expect(stdout).toContain('Not conformant: 1 case, 0 passed, 1 failed')
      // Its exit status was not seen: it is not a rule the verdict can break, only one it could not check.
      expect(stdout).not.toMatch(/^ {4}client\.completes$/m)
      expect(stdout).toContain('client.completes in advanced/existing-vehicle')
    },
  )

  it(
    'started from a script with stdin closed, waits for the visit as --once does, not for the end of input',
    SLOW,
    async () => {
      const served = relayMock(
        ['case', 'advanced/existing-vehicle', '--port', '0', '--write-env', join(dir, 'script.env')],
        'pipe',
      )
      served.child.stdin!.end()
      const printed = await served.waitFor('Run your client now.')
      expect(printed).toContain('The verdict comes when its visit is complete')
      expect(printed).toContain('(as with --once: standard input is not a terminal, so nobody can press Enter)')
      // The end of input came long ago: no verdict yet, since the client has not run.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(served.child.exitCode).toBe(null)
      const client = await runClient(['python3', 'examples/clients/python/client.py'], exported(printed))
      expect(client.code).toBe(0)
      const verdict = await served.ended
      expect(verdict.code).toBe(0)
      expect(verdict.stdout).not.toContain('the client made no request at all')
      expect(verdict.stdout).toContain('Conformant: 1 case, 0 passed, 1 partial, 0 failed')
    },
  )

  it('answers an unknown id with one line naming the nearest ids, exit 2', SLOW, async () => {
    const result = await relayMock(['case', 'simple/acepted']).ended
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('Failed to find the case "simple/acepted"; the nearest: simple/accepted, '),
    ])
  })

  it('never writes over an env file it did not write', SLOW, async () => {
    const envFile = join(dir, 'project.env')
    await writeFile(envFile, 'DATABASE_URL=postgres://localhost/app\n')
    const result = await relayMock(['case', 'simple/accepted', '--port', '0', '--once', '--write-env', envFile]).ended
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      'the file exists and relay-mock did not write it. Please pass --write-env with another file',
    )
    expect(await readFile(envFile, 'utf8')).toBe('DATABASE_URL=postgres://localhost/app\n')
  })
})
