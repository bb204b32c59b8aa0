// What the tests of the built command line share: where the package is, an environment without
// colours or GitHub Actions, and a scratch folder that exists only once the CLI is known to be built.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll } from 'vitest'

/** The package's root, where `bin/relay-mock.js` runs from. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The environment the CLI runs in: plain output, as outside a terminal and outside GitHub Actions. */
export const CLI_ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined }

/**
 * Fails the file at once when the CLI is not built, and gives it a scratch folder removed afterwards.
 * @example const scratch = useBuiltCli('relay-mock-cli-'); join(scratch(), 'conform.json')
 */
export function useBuiltCli(prefix: string): () => string {
  let dir: string | undefined
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/bundle/relay-mock.cjs'))) {
      throw new Error('The CLI is not built. Please run npm run build (npm test does) before these tests.')
    }
    dir = await mkdtemp(join(os.tmpdir(), prefix))
  })
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  return () => dir!
}

/** How a run of the command line ended: its exit status (null for a signal) and what it printed. */
export interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `node bin/relay-mock.js <args>` from the package's root in CLI_ENV, to its end (or `timeoutMs`).
 * @example const { code, stderr } = await runCli(['serve', '--port', 'x'])
 */
export function runCli(args: readonly string[], timeoutMs = 30_000): Promise<Ended> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/relay-mock.js', ...args],
      { cwd: ROOT, env: CLI_ENV, timeout: timeoutMs },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr })
      },
    )
  })
}
