import os from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The files that take longest, started first and in this order, so that none of them ends the run alone
 * (vitest otherwise orders a fresh clone's files by size, and these are short files): the whole default
 * run for each example client; a browser beside it; then the library clients' runs, which mostly wait
 * (on a Retry-After, on a hung request's timeout), as the example clients' runs end; the type checks,
 * each a single-threaded tsc. The many short files fill the gaps after them.
 */
const FIRST = [
  'test/conform/examples.test.ts',
  'test/service/large-bodies.test.ts',
  'test/report/browser.test.ts',
  'test/conform/libraries.test.ts',
  'test/cli/compare.test.ts',
  'test/package.test.ts',
  'test/conform/matrix.test.ts',
  'test/architecture/types.test.ts',
  'test/conform/cli-control.test.ts',
]

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (list: string[], file: TestSpecification) => list.findIndex((path) => file.moduleId.endsWith(path))
    const inList = (list: string[]) => sorted.filter((file) => rank(list, file) >= 0).sort((a, b) => rank(list, a) - rank(list, b))
    return [...inList(FIRST), ...sorted.filter((file) => rank(FIRST, file) < 0)]
  }
}

export default defineConfig({
  test: {
    // The browser assets (src/**/*.css, *.js) as TypeScript modules, written afresh: see scripts/assets.mjs.
    // Then what the tests need beyond npm (a browser, python3's modules, jq, curl, java), found and handed to
    // the tests, or the run stops saying what is missing: see scripts/test-prerequisites.mjs.
    globalSetup: ['scripts/assets.mjs', 'scripts/test-prerequisites.mjs'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scenarios/**/*.test.ts', 'suites/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A file per core, at least two: vitest's default on two cores is one (the cores less one), which
    // leaves a core idle while a file waits on its clients (a Retry-After, a hung request's timeout).
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The files of a worker share its module graph: each file imports the modules the last one left
    // loaded rather than importing them again (a fresh graph per file cost a third of the suite's time).
    // No test file patches a global it does not restore: msw's server is closed, timers and env restored.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
  },
})
