import os from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The files that take longest (the whole default run for each library and example client, a browser,
 * npm pack), started first, so that two of them never end the run alone: vitest otherwise orders a
 * fresh clone's files by size, and these are short files. Slowest first.
 */
const SLOWEST = [
  'test/conform/examples.test.ts',
  'test/conform/libraries.test.ts',
  'test/service/large-bodies.test.ts',
  'test/report/browser.test.ts',
  'test/cli/compare.test.ts',
  'test/package.test.ts',
  'test/conform/matrix.test.ts',
  'test/conform/cli-control.test.ts',
]

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => SLOWEST.findIndex((path) => file.moduleId.endsWith(path))
    return [...sorted.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b)), ...sorted.filter((file) => rank(file) < 0)]
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
    sequence: { sequencer: SlowestFirst },
  },
})
