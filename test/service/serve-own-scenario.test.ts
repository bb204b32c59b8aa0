// `relay-mock serve --scenario FILE` as a user runs it: the built bin serving a scenario of the
// user's own, listed beside the built-in ones; a bad file is one line and exit 2.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined }
// Each test spawns the CLI: on a busy machine that takes longer than a unit test.
const SLOW = { timeout: 120_000 }
const children: ChildProcess[] = []
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-serve-own-'))
})
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

function serve(...args: string[]) {
  const child = spawn(process.execPath, ['bin/relay-mock.js', 'serve', '--port', '0', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const ended = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }))
  const banner = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => (stdout.includes('Ctrl-C stops it.') ? resolve(stdout) : undefined)
      child.stdout.on('data', check)
      check()
      void ended.then((result) => reject(new Error(`serve ended (${result.code}) before its banner: ${result.stderr}`)))
    })
  return { child, ended, banner }
}

describe.concurrent('relay-mock serve --scenario FILE', () => {
  it.each([
    ['examples/worlds/glansi-fleet.json', 'glansi-fleet', 'Glansi Bílaleiga ehf.           5301005290   GL123'],
    ['examples/worlds/new-van.ts', 'new-van', "The first company's new van"],
  ])('serves %s, and lists it with the built-in scenarios', SLOW, async (path, name, shown) => {
    const server = serve('--scenario', path)
    const banner = await server.banner()
    expect(banner).toMatch(new RegExp(`scenario {4}${name} `))
    expect(banner).toContain(shown)
    const baseUrl = /serving the relay service at (http:\/\/\S+)/.exec(banner)![1]
    const listed = (await (
      await fetch(`${baseUrl}/__relay/scenarios`, { headers: { authorization: 'Bearer relay-mock-token' } })
    ).json()) as Array<{ name: string; current: boolean }>
    expect(listed.find((s) => s.current)?.name).toBe(name)
    expect(listed.map((s) => s.name)).toContain('new-vehicle')
    server.child.kill('SIGTERM')
    expect((await server.ended).code).toBe(0)
  })

  it('exits 2 with one line naming the field at fault', SLOW, async () => {
    const path = join(dir, 'typo.json')
    await writeFile(
      path,
      JSON.stringify({
        name: 'typo',
        description: 'A plate too long',
        visit: { plate: 'GL1234567', ownerKennitala: '5301005290', registrationDate: '2024-03-01' },
      }),
    )
    const result = await serve('--scenario', path).ended
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toEqual([
      `Failed to load the scenario ${path}: visit.plate is too long (expected a licence plate of 2 to 8 letters and digits, e.g. AB123 or ABC12; found "GL1234567"). Please fix the file.`,
    ])
  })
})
