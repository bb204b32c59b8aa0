// The whole project type-checks under strict TypeScript, as `npm run typecheck` checks it: the sources,
// the tests, the examples and the benchmark (tsconfig.test.json), and the two browser scripts as the
// browser runs them (tsconfig.browser.json). `npm test` runs these checks here, beside the other test
// files, rather than before them: each is one single-threaded tsc, which fills a core the clients' runs
// leave idle while they wait. A failure is tsc's own report: each error with its file, line and column.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runTool } from '../support/tool.js'

const root = resolve(import.meta.dirname, '../..')
const TSC = resolve(root, 'node_modules/typescript/bin/tsc')

/** tsc's exit code and report for one project. */
async function typecheck(project: string): Promise<{ code: number | null; report: string }> {
  const run = await runTool(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd: root })
  return { code: run.exitCode, report: `${run.stdout}${run.stderr}`.trim() }
}

describe('the types', () => {
  it.concurrent(
    'of the sources, tests, examples and benchmark hold (tsconfig.test.json)',
    async () => {
      expect(await typecheck('tsconfig.test.json')).toEqual({ code: 0, report: '' })
    },
    240_000,
  )

  it.concurrent(
    'of the browser scripts hold, as ES5 against the DOM (tsconfig.browser.json)',
    async () => {
      expect(await typecheck('tsconfig.browser.json')).toEqual({ code: 0, report: '' })
    },
    240_000,
  )
})
