import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The files beside the example clients' runs (the project `long`, a file per core), in this order: the
 * whole default run for each example client; a browser, then the large bodies beside it. Vitest
 * would otherwise order a fresh clone's files by size, and these are short files. The other files run
 * after them (the project `short`).
 */
const FIRST = ['test/conform/examples.test.ts', 'test/report/browser.test.ts', 'test/service/large-bodies.test.ts']

/**
 * The slowest of the other files, started first among them in this order, so that the run does not end on
 * one of them alone. First the type checks (a single-threaded tsc each), npm pack and the matrix, then the
 * library clients' runs, which mostly wait (on a Retry-After, on a hung request's timeout), with the short
 * files beside them: never beside the example clients' runs, whose processes would starve the libraries'
 * in-process clients of the CPU until their requests time out.
 */
const SHORT_SLOWEST = [
  'test/architecture/types.test.ts',
  'test/architecture/lint.test.ts',
  'test/package.test.ts',
  'test/conform/matrix.test.ts',
  'test/cli/compare.test.ts',
  'test/conform/libraries.test.ts',
  'test/conform/single-defects.test.ts',
  'test/conform/ruby.test.ts',
  'test/conform/guzzle.test.ts',
  'test/conform/libcurl.test.ts',
  'test/conform/cli-control.test.ts',
  'test/architecture/layers.test.ts',
  'test/service/soak.test.ts',
  'test/conform/cli.test.ts',
  'test/conform/runner-control.test.ts',
  'test/compare/openapi-source.test.ts',
  'test/conform/variants.test.ts',
  'test/proxy/cli.test.ts',
  'test/conform/broken-clients.test.ts',
  'test/service/openapi-answers.test.ts',
  'test/cli/refusals.test.ts',
  'test/conform/user-cases.test.ts',
  'test/proxy/calibration.test.ts',
  'test/conform/vitest-helper.test.ts',
]

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (list: string[], file: TestSpecification) => list.findIndex((path) => file.moduleId.endsWith(path))
    const inList = (list: string[]) =>
      sorted.filter((file) => rank(list, file) >= 0).sort((a, b) => rank(list, a) - rank(list, b))
    const ORDER = [...FIRST, ...SHORT_SLOWEST]
    return [...inList(ORDER), ...sorted.filter((file) => rank(ORDER, file) < 0)]
  }
}

const ROOT = fileURLToPath(new URL('.', import.meta.url))
/** Every test file, as a path from the project's folder. */
const ALL = ['src', 'test', 'scenarios', 'suites'].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/')),
)
/** The files that need a tool beyond Node and npm (a browser, python3, a JDK, Go, curl, jq): each says which with needs(). */
const TOOLCHAIN = ALL.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes("/support/needs.js'"))
/**
 * The fast loop (`npm run test:fast`): every file that needs nothing beyond Node and npm, but for the
 * slowest (the clients' whole runs, the type checks, npm pack), in seconds.
 */
const FAST = ALL.filter((file) => ![...FIRST, ...SHORT_SLOWEST, ...TOOLCHAIN].includes(file))

export default defineConfig({
  test: {
    // The browser assets (src/**/*.css, *.js) as TypeScript modules, written afresh: see scripts/assets.mjs.
    // Then the tests' Node processes are spared the machine's extra certificates: see scripts/test-prerequisites.mjs.
    // What a file needs beyond npm (a browser, python3, java, go, curl, jq), the file checks: test/support/needs.ts.
    globalSetup: ['scripts/assets.mjs', 'scripts/test-prerequisites.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The files of a worker share its module graph: each file imports the modules the last one left
    // loaded rather than importing them again (a fresh graph per file cost a third of the suite's time).
    // No test file patches a global it does not restore: msw's server is closed, timers and env restored.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'long',
          include: FIRST,
          // A file per core, at least two: the clients' runs saturate the cores, and the timing that their
          // rules judge (a retry's wait, a hung request's timeout) holds only while each client gets its share.
          maxWorkers: Math.max(2, os.availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'short',
          include: ALL.filter((file) => !FIRST.includes(file) && !FAST.includes(file)),
          // Then the type checks, npm pack, the matrix, the library clients' runs and the short files, two
          // per core: most of their time is spent waiting on a process, a timeout or a browser, and the cores
          // would idle at one each.
          maxWorkers: 2 * Math.max(2, os.availableParallelism()),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          // Beside the project `short`, in the same group (the same workers): vitest run --project fast runs it alone.
          name: 'fast',
          include: FAST,
          maxWorkers: 2 * Math.max(2, os.availableParallelism()),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
