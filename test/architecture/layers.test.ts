// The project's tree keeps the layer rules (as `npm run layers` checks it), and the rules are real: the
// same configuration fails a tree that breaks them, naming the rule.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { explain, runTool } from '../support/tool.js'

const root = resolve(import.meta.dirname, '../..')
const fixture = mkdtempSync(join(os.tmpdir(), 'relay-layers-'))
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

function write(path: string, text: string) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true })
  writeFileSync(join(fixture, path), text)
}

function cruise(): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', join(root, '.dependency-cruiser.cjs')], {
    cwd: fixture,
    encoding: 'utf8',
  })
  return { status: result.status, output: result.stdout + result.stderr }
}

const DEPCRUISE = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')

it("holds for the project's own tree: src, scenarios, suites and bench", async () => {
  // The files of `npm run layers`; a rule broken is reported with its name and the import that broke it.
  const run = await runTool(
    process.execPath,
    [DEPCRUISE, 'src', 'scenarios', 'suites', 'bench', '--config', '.dependency-cruiser.cjs'],
    { cwd: root },
  )
  expect(run.exitCode, explain(run)).toBe(0)
}, 60_000)

it('fails a core module that imports a dev tool, a Node module, or sits on a cycle', () => {
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
  )
  write('src/devtools/page.ts', "import { readFile } from 'node:fs/promises'\nexport const page = readFile\n")
  write('src/index.ts', "import os from 'node:os'\nexport const index = os\n")
  write(
    'src/core/store.ts',
    "import { page } from '../devtools/page.js'\nimport { readFileSync } from 'node:fs'\nimport { b } from './b.js'\nexport const a = [page, readFileSync, b]\n",
  )
  write('src/core/b.ts', "import { a } from './store.js'\nexport const b = () => a\n")
  write('src/node/server/server.ts', "import { run } from '../../cli/index.js'\nexport const serve = run\n")
  write('src/cli/index.ts', 'export const run = 1\n')
  write('src/node.ts', 'export const entry = 1\n')
  write('src/core/world.ts', "import { entry } from '../node.js'\nexport const world = entry\n")
  write('src/devtools/har.ts', "import { entry } from '../node.js'\nexport const har = entry\n")
  const { status, output } = cruise()
  expect(status).not.toBe(0)
  expect(output).toContain('core-knows-no-tools: src/core/store.ts → src/devtools/page.ts')
  expect(output).toContain('core-is-runtime-neutral: src/core/store.ts → fs')
  // The dev tools and the runtime-neutral entry run in-process under msw, in a browser too.
  expect(output).toContain('core-is-runtime-neutral: src/devtools/page.ts → fs/promises')
  expect(output).toContain('core-is-runtime-neutral: src/index.ts → os')
  expect(output).toContain('no-cycles')
  expect(output).toContain('node-below-cli: src/node/server/server.ts → src/cli/index.ts')
  // The entry files sit at the top with the CLI, though they are not in its folder.
  expect(output).toContain('core-knows-no-tools: src/core/world.ts → src/node.ts')
  expect(output).toContain('devtools-above-core-only: src/devtools/har.ts → src/node.ts')
})

it('fails a serve action that reaches the conformance kit, even through a module between', () => {
  write(
    'src/cli/actions/serve.ts',
    "import { resolveScenario } from '../../node/files/user-files.js'\nexport const serve = resolveScenario\n",
  )
  write(
    'src/node/files/user-files.ts',
    "import { cases } from './user-cases.js'\nexport const resolveScenario = cases\n",
  )
  write('src/node/files/user-cases.ts', 'export const cases = 1\n')
  const { status, output } = cruise()
  expect(status).not.toBe(0)
  expect(output).toContain('serve-loads-no-conformance-kit: src/cli/actions/serve.ts → src/node/files/user-cases.ts')
})

it("fails an import across the core's folders against their order, naming the rule", () => {
  write('src/core/text.ts', "import { store } from './service/store.js'\nexport const text = store\n")
  write('src/core/service/store.ts', 'export const store = 1\n')
  write(
    'src/core/service/pipeline.ts',
    "import { check } from '../ledger/checks.js'\nimport { rule } from '../rules/rule.js'\nexport const pipeline = [check, rule]\n",
  )
  write(
    'src/core/service/variants.ts',
    "import { declared } from '../ledger/assumptions.js'\nexport const variants = declared\n",
  )
  write('src/core/ledger/assumptions.ts', 'export const declared = 1\n')
  write(
    'src/core/ledger/checks.ts',
    "import { recording } from '../proxy/recording.js'\nexport const check = recording\n",
  )
  write(
    'src/core/proxy/recording.ts',
    "import { documents } from '../openapi/documents.js'\nexport const recording = documents\n",
  )
  write('src/core/openapi/documents.ts', 'export const documents = 1\n')
  write('src/core/rules/rule.ts', "import { store } from '../service/store.js'\nexport const rule = store\n")
  const { status, output } = cruise()
  expect(status).not.toBe(0)
  expect(output).toContain('core-basics-import-no-folder: src/core/text.ts → src/core/service/store.ts')
  expect(output).toContain('service-below-the-kit: src/core/service/pipeline.ts → src/core/ledger/checks.ts')
  expect(output).toContain('service-below-the-kit: src/core/service/pipeline.ts → src/core/rules/rule.ts')
  expect(output).toContain('rules-judge-the-journal: src/core/rules/rule.ts → src/core/service/store.ts')
  expect(output).toContain('ledger-knows-no-proxy: src/core/ledger/checks.ts → src/core/proxy/recording.ts')
  expect(output).toContain('proxy-apart-from-openapi: src/core/proxy/recording.ts → src/core/openapi/documents.ts')
  // The service reads the ledger's declarations (plain data) to serve their alternatives: allowed.
  expect(output).not.toContain('src/core/service/variants.ts →')
})

it("fails an exchange reader that reads a world's state or a layer above it, and a service that reads more of it than its answers", () => {
  write('src/core/exchange/answer.ts', "import { store } from '../service/store.js'\nexport const answer = store\n")
  write(
    'src/core/exchange/request.ts',
    "import { check } from '../ledger/checks.js'\nimport { table } from '../service/protocol.js'\nexport const request = [check, table]\n",
  )
  write(
    'src/core/exchange/entry.ts',
    "import { pipeline } from '../service/pipeline.js'\nexport const entry = pipeline\n",
  )
  write('src/core/service/protocol.ts', 'export const table = 1\n')
  write(
    'src/core/service/calibration.ts',
    "import { answer } from '../exchange/answer.js'\nimport { entry } from '../exchange/entry.js'\nexport const calibration = [answer, entry]\n",
  )
  const { status, output } = cruise()
  expect(status).not.toBe(0)
  expect(output).toContain('exchange-answer-is-a-basic: src/core/exchange/answer.ts → src/core/service/store.ts')
  expect(output).toContain('exchange-reads-the-facts: src/core/exchange/request.ts → src/core/ledger/checks.ts')
  expect(output).toContain('exchange-reads-the-facts: src/core/exchange/entry.ts → src/core/service/pipeline.ts')
  expect(output).toContain('service-below-the-kit: src/core/service/calibration.ts → src/core/exchange/entry.ts')
  // The service reads an answer's class and records (answer.ts, plain values), and the exchange the service's facts: allowed.
  expect(output).not.toContain('src/core/service/calibration.ts → src/core/exchange/answer.ts')
  expect(output).not.toContain('src/core/exchange/request.ts → src/core/service/protocol.ts')
})

it("fails an import across the Node layer's folders that their READMEs do not allow, naming the rule", () => {
  write('src/node/server/server.ts', "import { run } from '../runner/runner.js'\nexport const serve = run\n")
  write(
    'src/node/caches/seed-cache.ts',
    "import { dir } from './cache-dir.js'\nimport { serve } from '../server/server.js'\nexport const cache = [dir, serve]\n",
  )
  write('src/node/caches/cache-dir.ts', 'export const dir = 1\n')
  write(
    'src/node/reporters/console.ts',
    "import { cases } from '../files/user-cases.js'\nexport const console = cases\n",
  )
  write('src/node/files/user-cases.ts', 'export const cases = 1\n')
  write(
    'src/node/runner/runner.ts',
    "import { console } from '../reporters/console.js'\nimport { spawn } from '../processes/client-process.js'\nimport { contract } from './contract.js'\nexport const run = [console, spawn, contract]\n",
  )
  write('src/node/runner/contract.ts', 'export const contract = 1\n')
  write('src/node/processes/client-process.ts', 'export const spawn = 1\n')
  write(
    'src/node/reference-client/reference-client.ts',
    "import { contract } from '../runner/contract.js'\nimport { run } from '../runner/runner.js'\nexport const client = [contract, run]\n",
  )
  const { status, output } = cruise()
  expect(status).not.toBe(0)
  expect(output).toContain('node-folders-stand-alone: src/node/server/server.ts → src/node/runner/runner.ts')
  expect(output).toContain('node-folders-stand-alone: src/node/caches/seed-cache.ts → src/node/server/server.ts')
  expect(output).toContain('node-folders-stand-alone: src/node/reporters/console.ts → src/node/files/user-cases.ts')
  expect(output).toContain(
    'runner-runs-clients-on-listeners: src/node/runner/runner.ts → src/node/reporters/console.ts',
  )
  expect(output).toContain(
    'reference-client-speaks-the-contract: src/node/reference-client/reference-client.ts → src/node/runner/runner.ts',
  )
  // A folder's own files, the runner's client processes and the reference client's contract: allowed.
  expect(output).not.toContain('src/node/caches/seed-cache.ts → src/node/caches/cache-dir.ts')
  expect(output).not.toContain('src/node/runner/runner.ts → src/node/processes/client-process.ts')
  expect(output).not.toContain('src/node/reference-client/reference-client.ts → src/node/runner/contract.ts')
})
