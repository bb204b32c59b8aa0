// The relay-mock command as a user runs it: `node bin/relay-mock.js ...` in a child process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { createServer, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scenarios } from '../../scenarios/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = 'bin/relay-mock.js'
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined }
// eslint-disable-next-line no-control-regex -- the escape character is the point: colour codes to strip
const ANSI = /\u001b\[[0-9;]*m/g

interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Runs the CLI to its end. */
function run(args: string[]): Finished {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8', timeout: 20_000 })
  return {
    code: result.status,
    signal: result.signal,
    stdout: result.stdout.replace(ANSI, ''),
    stderr: result.stderr.replace(ANSI, ''),
  }
}

/** Starts the CLI and collects its output; `ended` resolves when it exits. */
function start(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk.replace(ANSI, '')))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.replace(ANSI, '')))
  const ended = once(child, 'exit').then(([code, signal]): Finished => ({ code, signal, stdout, stderr }))
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first. */
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout)
        if (match) {
          child.stdout.off('data', check)
          resolve(match)
        }
      }
      child.stdout.on('data', check)
      check()
      void ended.then((result) =>
        reject(new Error(`relay-mock ended (${result.code}) before printing ${pattern}: ${result.stderr}`)),
      )
    })
  return { child, ended, waitFor, output: () => ({ stdout, stderr }) }
}

/**
 * Stops a server with SIGINT once it has answered a request. Right after the banner the signal
 * handler may not be installed yet (serve prints before it listens for signals; see the report).
 */
async function interrupt(serve: ReturnType<typeof start>): Promise<Finished> {
  const [, baseUrl] = await serve.waitFor(/serving the relay service at (http:\/\/\S+)/)
  await (await fetch(`${baseUrl}/openapi/simple.json`)).arrayBuffer()
  serve.child.kill('SIGINT')
  return serve.ended
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

beforeAll(() => {
  // `npm test` builds first; a bare `vitest run` on a fresh checkout may not have the bundle yet.
  if (run(['--version']).code !== 0)
    spawnSync(process.execPath, ['scripts/bundle.mjs'], { cwd: root, stdio: 'inherit' })
})

describe('relay-mock serve', () => {
  it('prints its base URL, answers a request there and stops with exit 0 on SIGINT', async () => {
    const serve = start(['serve', '--port', '0', '--token', 'cli-test-token'])
    children.push(serve.child)
    const [, baseUrl] = await serve.waitFor(/serving the relay service at (http:\/\/127\.0\.0\.1:\d+)/)
    const [, kennitala] = await serve.waitFor(/rental-companies\?kennitala=(\d{10})/)
    const answer = await fetch(`${baseUrl}/rental-companies?kennitala=${kennitala}`, {
      headers: { authorization: 'Bearer cli-test-token' },
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual([expect.objectContaining({ kennitala })])
    serve.child.kill('SIGINT')
    const result = await serve.ended
    expect(result).toMatchObject({ code: 0, signal: null })
    expect(result.stdout).toMatch(/Stopping relay-mock/)
  })

  it('shows the tokens (the others masked), the live page link with the token in its fragment, a kennitala not in the service and a plate not known yet in its banner', async () => {
    const serve = start([
      'serve',
      '--port',
      '0',
      '--token',
      'banner-token',
      '--token',
      'second-token-0001',
      '--admin-token',
      'admin-token-0123456789',
    ])
    children.push(serve.child)
    await serve.waitFor(/Ctrl-C/)
    const { stdout } = serve.output()
    expect(stdout).toMatch(/token\s+banner-token\s+\(\+1 more: …0001\)/)
    expect(stdout).toMatch(/live page\s+http:\/\/\S+\/__relay\/#token=banner-token/)
    expect(stdout).not.toContain('admin-token-0123456789')
    expect(stdout).toMatch(/not in the service:\s+\d{10}/)
    expect(stdout).toMatch(/unknown plate: [A-Z]{2,3}\d{2,3}/)
    expect((await interrupt(serve)).code).toBe(0)
  })

  it('gives each --token its own world', async () => {
    const serve = start(['serve', '--port', '0', '--token', 'token-a', '--token', 'token-b'])
    children.push(serve.child)
    const [, baseUrl] = await serve.waitFor(/serving the relay service at (http:\/\/\S+)/)
    const send = (token: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}/vehicles${init.method === 'POST' ? '' : '?plate=QQ9Q9'}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      })
    expect(
      (await send('token-a', { method: 'POST', body: JSON.stringify({ plate: 'QQ9Q9', country: 'is' }) })).status,
    ).toBe(201)
    expect(await (await send('token-a')).json()).toHaveLength(1)
    expect(await (await send('token-b')).json()).toEqual([])
    expect((await interrupt(serve)).code).toBe(0)
  })

  it('serves the scenario and the number of vehicles it is given', async () => {
    const serve = start(['serve', '--port', '0', '--scenario', 'new-vehicle', '--vehicles', '100'])
    children.push(serve.child)
    const [, baseUrl] = await serve.waitFor(/serving the relay service at (http:\/\/\S+)/)
    await serve.waitFor(/scenario\s+new-vehicle/)
    const world = await (
      await fetch(`${baseUrl}/__relay/world`, { headers: { authorization: 'Bearer relay-mock-token' } })
    ).json()
    expect(world.scenario.name).toBe('new-vehicle')
    expect(world.records.vehicles).toHaveLength(100)
    expect((await interrupt(serve)).code).toBe(0)
  })

  it('exits 2 with a message when the port is in use', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const serve = start(['serve', '--port', String(port)])
      children.push(serve.child)
      const result = await serve.ended
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        `relay-mock serve: --port "${port}" is in use on 127.0.0.1: expected a free port (stop what uses it, or pass --port 0 to pick one).\n`,
      )
    } finally {
      blocker.close()
    }
  })

  it('answers, never resets, what connects while it builds its world: the port it checked is the port it serves on', async () => {
    // A free port to name: --port 0 would give the test no port to poll before the banner.
    const free: Server = createServer()
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve))
    const port = (free.address() as { port: number }).port
    await new Promise((resolve) => free.close(resolve))
    // 20,000 vehicles take a second or more to build: time for callers to arrive while the port is held.
    const serve = start(['serve', '--port', String(port), '--vehicles', '20000'])
    children.push(serve.child)
    const ask = () =>
      new Promise<number | string>((resolve) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/openapi/simple.json', agent: false }, (answer) => {
          answer.resume()
          answer.on('end', () => resolve(answer.statusCode!))
        })
        request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      })
    const outcomes: Array<Promise<number | string>> = []
    let banner = false
    void serve.waitFor(/serving the relay service/).then(() => (banner = true))
    while (!banner) {
      outcomes.push(ask())
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const seen = await Promise.all(outcomes)
    // Before the check listens: refused (a caller retries that). After: held, then answered. Never reset.
    expect(seen.filter((outcome) => outcome !== 200 && outcome !== 'ECONNREFUSED')).toEqual([])
    // Held, not refused: the callers of the build's second or more (one every 10 ms) are answered, not a lucky one or two.
    expect(seen.filter((outcome) => outcome === 200).length).toBeGreaterThan(5)
    expect((await interrupt(serve)).code).toBe(0)
  }, 60_000)

  it('serves every world under --variant, shows it in the banner, and the admin API changes it', async () => {
    const serve = start([
      'serve',
      '--port',
      '0',
      '--scenario',
      'new-vehicle',
      '--variant',
      'create.status=200-no-location',
      '--variant',
      'auth.refusal=403',
    ])
    children.push(serve.child)
    const [, baseUrl] = await serve.waitFor(/serving the relay service at (http:\/\/\S+)/)
    await serve.waitFor(/variants\s+create\.status=200-no-location, auth\.refusal=403/)
    const post = () =>
      fetch(`${baseUrl}/vehicles`, {
        method: 'POST',
        headers: { authorization: 'Bearer relay-mock-token', 'content-type': 'application/json' },
        body: JSON.stringify({ plate: 'QQ9Q9', country: 'is' }),
      })
    const created = await post()
    expect([created.status, created.headers.get('location')]).toEqual([200, null])
    expect((await fetch(`${baseUrl}/vehicles?plate=QQ9Q9`)).status).toBe(403)
    await fetch(`${baseUrl}/__relay/variants`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer relay-mock-token' },
    })
    expect((await post()).status).toBe(201)
    expect((await interrupt(serve)).code).toBe(0)
  })

  it('exits 2 in one line when a --variant is no served alternative', () => {
    const result = run(['serve', '--port', '0', '--variant', 'create.status=204'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /^relay-mock serve: --variant "create\.status=204" is refused \(create\.status has no alternative "204"; its alternatives are 200-no-location, 201-no-location\): expected <assumption>=<alternative> such as .*create\.status=200-no-location.* \(relay-mock assumptions lists all \d+\)\.\n$/,
    )
  })

  it('exits 2 naming the nearest scenarios when the scenario is unknown', () => {
    const result = run(['serve', '--port', '0', '--scenario', 'no-such-world'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(
      /^relay-mock serve: --scenario "no-such-world" is neither a scenario nor a file: expected a scenario such as .*new-vehicle.* \(relay-mock scenarios lists all \d+\), or a scenario file of your own \(\.json, \.js, \.ts\)\.\n$/,
    )
  })
})

describe('relay-mock scenarios', () => {
  it('lists every scenario with its description, one line each', () => {
    const result = run(['scenarios'])
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(scenarios.size)
    for (const [i, scenario] of [...scenarios.values()].entries()) {
      expect(lines[i]).toMatch(new RegExp(`^${scenario.name}\\s+`))
      expect(lines[i]).toContain(scenario.description)
    }
  })
})

describe('relay-mock serve --help', () => {
  it('prints the options of serve and exits 0 (the help text is rendered when asked, not at each start)', () => {
    const result = run(['serve', '--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Run the mock relay service over HTTP')
    expect(result.stdout).toMatch(/--world-records\s+How many records clients may create in one world/)
  })
})

describe('relay-mock with no command', () => {
  it('exits 2 asking for a command', () => {
    const result = run([])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'relay-mock: Please name a command: serve, proxy, probe, conform, case, compare, demo, scenarios or assumptions (relay-mock --help describes them).\n',
    )
  })
})
