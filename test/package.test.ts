// The published package as a user gets it: `npm pack` of the built project, installed into a fresh
// folder, type-checked by a strict consumer, and its bin run. Catches what the project's own tests
// cannot see: files missing from `files`, types a .d.ts imports from a devDependency, a bundle
// that only works inside the repository.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explain, runTool } from './support/tool.js'

const root = fileURLToPath(new URL('..', import.meta.url))
// npm may reach the registry: the certificate authorities the machine names for Node are its again (the
// tests' own processes start without them, see scripts/test-prerequisites.mjs).
const env = {
  ...process.env,
  NO_COLOR: '1',
  FORCE_COLOR: undefined,
  GITHUB_ACTIONS: undefined,
  NODE_EXTRA_CA_CERTS: process.env.KEPT_NODE_EXTRA_CA_CERTS,
}
// The CLI ships once (one CommonJS file, for V8's code cache) beside dist/src for the entry points.
const MAX_TARBALL_BYTES = 1_000_000
// Packing, installing from the npm cache and a strict tsc run take tens of seconds, more on a busy machine.
const SLOW = 240_000

/** Runs a tool with the test's environment, in `cwd`. */
const run = (command: string, args: string[], cwd: string) => runTool(command, args, { cwd, env })

interface PackedFile {
  path: string
  size: number
}

let dir: string
let tarball: string
let files: string[]
let consumer: string

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/bundle/relay-mock.cjs'))) {
    throw new Error('The package is not built. Please run npm run build (npm test does) before this test.')
  }
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-package-'))

  // --ignore-scripts: `prepare` would rebuild (and first empty) dist while other test files use it.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)
  expect(pack.exitCode, explain(pack)).toBe(0)
  const [packed] = JSON.parse(pack.stdout) as { filename: string; files: PackedFile[] }[]
  tarball = join(dir, packed.filename)
  files = packed.files.map((file) => file.path)

  consumer = join(dir, 'consumer')
  await mkdir(consumer)
  await writeFile(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  )
  // The dependencies are in the npm cache since the project's own install; the registry serves the rest.
  const install = await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], consumer)
  expect(install.exitCode, explain(install)).toBe(0)
}, SLOW)

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the npm package', () => {
  it('is a tarball of 1 MB or less with no benchmark and no source maps', async () => {
    expect((await stat(tarball)).size).toBeLessThanOrEqual(MAX_TARBALL_BYTES)
    expect(files.filter((path) => /(^|\/)bench(\/|$)/.test(path))).toEqual([])
    expect(files.filter((path) => path.endsWith('.map'))).toEqual([])
  })

  it('carries one manifest, its own: no copy in dist, none embedded in a bundle', async () => {
    // bin/package.json only marks bin/ as CommonJS (a start from the code cache then sets up no ES module loader).
    expect(files.filter((path) => path.endsWith('package.json'))).toEqual(['bin/package.json', 'package.json'])
    expect(JSON.parse(await readFile(join(root, 'bin/package.json'), 'utf8'))).toEqual({ type: 'commonjs' })
    const bundles = files.filter((path) => path.startsWith('dist/bundle/'))
    // The command line once, and the loader that starts it from the code cache.
    expect(bundles.sort()).toEqual(['dist/bundle/relay-mock.cjs', 'dist/bundle/start.cjs'])
    for (const bundle of bundles)
      expect(await readFile(join(root, bundle), 'utf8'), bundle).not.toContain('devDependencies')
  })

  it('ships the README and every docs page it links to', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8')
    const linked = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((match) => match[1]))]
    expect(linked.length).toBeGreaterThan(0)
    expect(['README.md', ...linked].filter((path) => !files.includes(path))).toEqual([])
  })

  it('ships every file its exports, types and bin point at', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>
      exports: Record<string, { types: string; default: string }>
    }
    const targets = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((entry) => [entry.types, entry.default]),
    ].map((target) => target.replace(/^\.\//, ''))
    expect(targets.filter((target) => !files.includes(target))).toEqual([])
    expect(files).toContain('dist/bundle/relay-mock.cjs')
  })

  it(
    'type-checks in a strict nodenext consumer that imports every entry point',
    async () => {
      await writeFile(
        join(consumer, 'tsconfig.json'),
        JSON.stringify(
          {
            compilerOptions: {
              strict: true,
              module: 'nodenext',
              moduleResolution: 'nodenext',
              target: 'es2022',
              noEmit: true,
            },
            include: ['consumer.ts'],
          },
          null,
          2,
        ),
      )
      // Each entry of `exports`, with exports whose types reach msw, zod, har-format and node:http.
      await writeFile(
        join(consumer, 'consumer.ts'),
        `import { createRelayMock, defineScenario, scenarios, type JournalEntry } from 'relay-mock'
import { createServer, listen, close, runConformance, toJUnitXml, type RunOptions, type RunResult } from 'relay-mock/node'
import { defineConformanceTests, type ConformanceTestOptions } from 'relay-mock/vitest'

const mock = await createRelayMock({ scenario: 'new-vehicle' })
const server = createServer(mock)
await listen(server, { port: 0 })
await close(server)

const scenario = defineScenario({
  name: 'fleet-owner',
  description: 'A new plate for the first rental company',
  seed({ data, unusedPlate, visitDefaults }) {
    return { plate: unusedPlate(), ownerKennitala: data.rentalCompanies[0].kennitala, registrationDate: '2025-05-14', ...visitDefaults }
  },
})

const options: RunOptions = { client: 'node client.js', env: { RELAY_EXTRA: '1' } }
const conform: (options: RunOptions) => Promise<RunResult> = runConformance
const report: (result: RunResult) => string = toJUnitXml
const tests: ConformanceTestOptions = { ...options, name: 'my client' }
const seen: JournalEntry[] = []

console.log(scenario.name, Object.keys(scenarios).length, mock.baseUrl, typeof conform, typeof report, tests.name, seen.length, typeof defineConformanceTests)
`,
      )
      const tsc = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], consumer)
      expect(tsc.exitCode, explain(tsc)).toBe(0)
    },
    SLOW,
  )

  it(
    'loads its entry points from node_modules at run time',
    async () => {
      // relay-mock/vitest imports vitest, which a consumer brings (a peer dependency): not loaded here.
      const script = `const api = await import('relay-mock'); const node = await import('relay-mock/node');
const mock = await api.createRelayMock({ scenario: 'new-vehicle' });
console.log(typeof node.runConformance, mock.world.token.length > 0)`
      const loaded = await run(process.execPath, ['--input-type=module', '-e', script], consumer)
      expect(loaded.exitCode, explain(loaded)).toBe(0)
      expect(loaded.stdout.trim()).toBe('function true')
    },
    SLOW,
  )

  it(
    'runs `relay-mock serve` from the installed bin: it answers a request and stops on SIGINT',
    async () => {
      const serve = spawn(
        join(consumer, 'node_modules/.bin/relay-mock'),
        ['serve', '--port', '0', '--token', 'package-token'],
        { cwd: consumer, env, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let printed = ''
      serve.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk))
      serve.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk))
      const ended = once(serve, 'exit')
      try {
        let baseUrl: string | undefined
        while (
          !(baseUrl = /serving the relay service at (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1]) &&
          serve.exitCode === null
        )
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(baseUrl, printed).toBeDefined()
        const answer = await fetch(`${baseUrl}/vehicles?plate=AB123`, {
          headers: { authorization: 'Bearer package-token' },
        })
        expect(answer.status).toBe(200)
      } finally {
        serve.kill('SIGINT')
      }
      expect((await ended)[0], printed).toBe(0)
    },
    SLOW,
  )

  it(
    'runs `relay-mock conform` from the installed bin: its suites, a client and a verdict',
    async () => {
      // A client that sends nothing (the examples need their own libraries): the verdict names the rule.
      const conform = await run(
        join(consumer, 'node_modules/.bin/relay-mock'),
        ['conform', '--client', 'true', '--case', 'simple/accepted'],
        consumer,
      )
      expect(conform.exitCode, explain(conform)).toBe(1)
      expect(conform.stdout).toMatch(/^Not conformant: 1 case, 0 passed, 1 failed$/m)
      expect(conform.stdout).toMatch(/^Rules broken: simple\.one-request$/m)
    },
    SLOW,
  )

  it(
    'runs `npx relay-mock demo` from the installed bin',
    async () => {
      // --no: the installed bin or a failure, never a download of some other relay-mock.
      const demo = await run('npx', ['--no', 'relay-mock', 'demo'], consumer)
      expect(demo.exitCode, explain(demo)).toBe(0)
      expect(demo.stdout).toMatch(/^Conformant: \d+ cases, \d+ passed, 0 failed$/m)
    },
    SLOW,
  )
})
