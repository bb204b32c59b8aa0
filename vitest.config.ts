import os from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The files that take longest (a browser, npm pack, the whole default run for each example client),
 * started first, so that none of them ends the run alone: vitest otherwise orders a fresh clone's files
 * by size, and these are short files. Slowest first.
 */
const FIRST = [
  'test/conform/examples.test.ts',
  'test/service/large-bodies.test.ts',
  'test/report/browser.test.ts',
  'test/cli/compare.test.ts',
  'test/package.test.ts',
  'test/conform/matrix.test.ts',
  'test/conform/cli-control.test.ts',
]
/**
 * Started last, once the example clients' runs are over: the library clients' eight runs of the whole
 * default run. Both at once starve a 2-core machine's clients of the CPU until their answers time out.
 */
const LAST = ['test/conform/libraries.test.ts']

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (list: string[], file: TestSpecification) => list.findIndex((path) => file.moduleId.endsWith(path))
    const inList = (list: string[]) => sorted.filter((file) => rank(list, file) >= 0).sort((a, b) => rank(list, a) - rank(list, b))
    return [...inList(FIRST), ...sorted.filter((file) => rank(FIRST, file) < 0 && rank(LAST, file) < 0), ...inList(LAST)]
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
