// `relay-mock proxy` as a user runs it: the banner, the report written on SIGTERM, --check's exit status,
// and no token in anything it writes.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_ENV, ROOT, useBuiltCli } from '../support/cli.js'
import { vehicleBody } from '../support/bodies.js'
import { closeAfterEach, handUpstream, mockUpstream } from '../support/proxy.js'

closeAfterEach()
const scratch = useBuiltCli('relay-mock-proxy-')
const SECRET = 'real-secret-token-4711-abcdef'
// eslint-disable-next-line no-control-regex -- the escape character is the point: colour codes to strip
const ANSI = /\u001b\[[0-9;]*m/g

function startProxy(args: string[]) {
  const child = spawn(process.execPath, ['bin/relay-mock.js', 'proxy', '--port', '0', ...args], {
    cwd: ROOT,
    env: CLI_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk.replace(ANSI, '')))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.replace(ANSI, '')))
  const ended = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }))
  const listening = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /forwarding (http:\/\/\S+) to/.exec(stdout)
      if (match) resolve(match[1])
    }
    child.stdout.on('data', check)
    void ended.then((result) => reject(new Error(`relay-mock proxy ended (${result.code}): ${result.stderr}`)))
  })
  return { child, ended, listening }
}

/** Every file under a folder, as text. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
}

describe('relay-mock proxy', () => {
  it('writes the report on SIGTERM and exits 1 with --check when the real service contradicted an assumption; no token reaches a file', async () => {
    const upstream = await handUpstream((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `session=${SECRET}` })
        res.end(
          JSON.stringify({
            id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
            link: '/vehicles/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
          }),
        )
      })
    })
    const dir = join(scratch(), 'report')
    const proxy = startProxy([
      '--upstream',
      upstream,
      '--report-dir',
      dir,
      '--check',
      '--record',
      join(scratch(), 'world.json'),
    ])
    const url = await proxy.listening
    const answer = await fetch(`${url}/vehicles?token=${SECRET}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json', cookie: `sid=${SECRET}` },
      body: JSON.stringify(vehicleBody()),
    })
    expect(answer.status).toBe(200)
    await answer.arrayBuffer()
    proxy.child.kill('SIGTERM')
    const result = await proxy.ended
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/✗ contradicted create\.status/)
    expect(result.stdout).toContain(
      "relay-mock conform --suite variants --case 'variants/create.status=200-no-location/*'",
    )
    const report = JSON.parse(readFileSync(join(dir, 'assumptions.json'), 'utf8'))
    expect(report.assumptions.find((a: any) => a.id === 'create.status')).toMatchObject({
      status: 'contradicted',
      evidence: [expect.objectContaining({ came: '200 without Location' })],
    })
    expect(readFileSync(join(dir, 'assumptions.html'), 'utf8')).toContain('create.status')
    for (const text of [...filesIn(scratch()), result.stdout, result.stderr])
      expect(text).not.toContain(SECRET.slice(0, -4))
  })

  it('says on the console why a contradicted assumption has no variant cases to run', async () => {
    // The misspelled path served: an alternative relay-mock serves no variant of.
    const upstream = await handUpstream((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('[]')
      })
    })
    const proxy = startProxy(['--upstream', upstream])
    const url = await proxy.listening
    const answer = await fetch(`${url}/rental-comapnies?kennitala=0101302989`, {
      headers: { authorization: 'Bearer upstream-token-0001' },
    })
    await answer.arrayBuffer()
    proxy.child.kill('SIGINT')
    const result = await proxy.ended
    expect(result.stdout).toMatch(
      /✗ contradicted slip\.path[^\n]*\n\s+no variant cases to run: A client that sends `\/rental-companies`/,
    )
  })

  it('exits 0 with --check in front of relay-mock serve', async () => {
    const upstream = await mockUpstream()
    const proxy = startProxy(['--upstream', upstream.url, '--check'])
    const url = await proxy.listening
    const answer = await fetch(`${url}/vehicles`, {
      method: 'POST',
      headers: { authorization: 'Bearer upstream-token-0001', 'content-type': 'application/json' },
      body: JSON.stringify(vehicleBody()),
    })
    expect(answer.status).toBe(201)
    await answer.arrayBuffer()
    proxy.child.kill('SIGINT')
    const result = await proxy.ended
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/✓ confirmed\s+create\.status/)
  })

  it('writes --record into folders it makes, and exits 1 when it cannot write it', async () => {
    const upstream = await mockUpstream()
    const path = join(scratch(), 'not', 'yet', 'world.json')
    const first = startProxy(['--upstream', upstream.url, '--record', path])
    await first.listening
    first.child.kill('SIGINT')
    const written = await first.ended
    expect(written.code).toBe(0)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ name: expect.any(String) })
    // A folder in the file's place when the proxy stops: the recording is lost, and the exit status says so.
    const blocked = join(scratch(), 'blocked.json')
    const second = startProxy(['--upstream', upstream.url, '--record', blocked])
    await second.listening
    mkdirSync(blocked)
    second.child.kill('SIGINT')
    const failed = await second.ended
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`failed to write the recorded world to ${blocked}`)
  })

  it('warns in its banner when faults are armed on real traffic', async () => {
    const upstream = await mockUpstream()
    const proxy = startProxy([
      '--upstream',
      upstream.url,
      '--fault',
      'POST /payments=reset:once',
      '--fault',
      'POST /vehicles=server-error',
      '--fault',
      'GET /vehicles=unavailable',
    ])
    await proxy.listening
    proxy.child.kill('SIGTERM')
    const result = await proxy.ended
    expect(result.stdout).toMatch(/faults\s+POST \/payments=reset:once/)
    // The armed kinds that strike after the service applied the request, and only those.
    expect(result.stdout).toMatch(
      /strike REAL requests: reset and server-error come after the real service applied the request/,
    )
    expect(result.stdout).toMatch(/Never arm them against production/)
    expect(result.stdout).toMatch(/assumptions .* and on exit on this console\n/)
  })

  it('warns of faults that forward nothing as striking real requests too', async () => {
    const upstream = await mockUpstream()
    const proxy = startProxy(['--upstream', upstream.url, '--fault', 'GET /vehicles=unavailable'])
    await proxy.listening
    proxy.child.kill('SIGTERM')
    const result = await proxy.ended
    expect(result.stdout).toMatch(/strike REAL requests: they answer in the real service's place, without forwarding/)
    expect(result.stdout).not.toMatch(/after the real service applied/)
  })

  it('refuses an upstream that is not an http or https URL in one line, exit 2', () => {
    const result = spawnSync(process.execPath, ['bin/relay-mock.js', 'proxy', '--upstream', 'ftp://staging.example'], {
      cwd: ROOT,
      env: CLI_ENV,
      encoding: 'utf8',
    })
    expect(result.status).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(
      /--upstream "ftp:\/\/staging.example" is not an http:\/\/ or https:\/\/ URL: expected the base URL of the real service/,
    )
  })
})
