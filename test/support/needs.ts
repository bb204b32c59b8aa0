// What a test file needs beyond Node and npm, checked by the file that needs it: a file that runs a client
// in Python, Java, Go or the shell, or drives a browser, calls needs() once, after its imports. A need
// missing fails the file with a line saying what to install (never a skip); what was found is handed to
// the file's tests (CHROMIUM_PATH; PATH with the python3, java and go to run put first) and taken back
// after them. The needs, how each is found and installed: scripts/test-prerequisites.mjs. The files
// that import this module are left out of the fast loop (vitest.config.ts, npm run test:fast).
import { afterAll } from 'vitest'
// @ts-expect-error: a plain ES module without types (npm test runs it before anything is built)
import { createContext, findAll, missingLine, testEnvironment } from '../../scripts/test-prerequisites.mjs'

interface Found {
  missing?: string
}

/**
 * Fails the calling file, saying what to install, unless every need of `ids` is here; hands the file what
 * was found until its tests end.
 * @example needs('python3', 'urllib3') // the Python example client
 */
export function needs(...ids: string[]): void {
  const ctx = createContext({ uid: process.getuid?.() })
  const results: Found[] = findAll(ctx, ids)
  const missing = results.filter((result) => result.missing)
  if (missing.length) {
    throw new Error(
      `${missing.map((result) => missingLine(ctx, result) as string).join('\n')}\n(npm test installs what is missing where it can: as root, with apt-get.)`,
    )
  }
  const { env, cleanup }: { env: Record<string, string | undefined>; cleanup: () => void } = testEnvironment(
    ctx,
    results,
  )
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]))
  setEnv(env)
  afterAll(() => {
    setEnv(before)
    cleanup()
  })
}

function setEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}
