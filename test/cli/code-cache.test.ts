// The command line's code cache (src/node/caches/code-cache.ts), through bin/relay-mock.js as a user runs it:
// whatever state the cache file is in, a command prints what the bundle prints when Node runs it itself,
// and a cache that cannot be used is replaced.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cacheDir } from '../../src/node/caches/cache-dir.js'
import { codeCacheFile } from '../../src/node/caches/code-cache.js'
import { CLI_ENV, ROOT } from '../support/cli.js'

const BIN = join(ROOT, 'bin/relay-mock.js')
const BUNDLE = join(ROOT, 'dist/bundle/relay-mock.cjs')
/** What a cache file made by this Node starts with (the build's hash follows). */
const KEY_START = `${process.version} ${process.arch} `

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

function run(script: string, args: string[], cwd: string): Promise<Ended> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd, env: CLI_ENV, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr })
    })
  })
}

let work: string
/** The cache folder of a command run in `work`: its node_modules makes it `node_modules/.cache/relay-mock`. */
let cache: string
let expected: Ended

beforeAll(async () => {
  if (!existsSync(BUNDLE))
    throw new Error('The CLI is not built. Please run npm run build (npm test does) before these tests.')
  // What the command prints without the loader: the bundle run by Node as a CommonJS module, with no
  // code cache (scenarios imports nothing outside the bundle, which only the loader could import for it).
  expected = await run(BUNDLE, ['scenarios'], os.tmpdir())
  expect(expected.code).toBe(0)
  expect(expected.stdout).toContain('default')
})

beforeEach(async () => {
  work = await mkdtemp(join(os.tmpdir(), 'relay-mock-code-cache-'))
  await mkdir(join(work, 'node_modules'))
  cache = join(work, 'node_modules', '.cache', 'relay-mock')
})
afterEach(async () => {
  await rm(work, { recursive: true, force: true })
})

describe('the code cache of the command line', () => {
  it('is written by a command that ends, and read by the next run with the same output', async () => {
    const first = await run(BIN, ['scenarios'], work)
    expect(first).toEqual(expected)
    const stored = await readFile(codeCacheFile(cache, ['scenarios']))
    expect(stored.toString('latin1', 0, KEY_START.length)).toBe(KEY_START)

    const { ino } = await stat(codeCacheFile(cache, ['scenarios']))
    const second = await run(BIN, ['scenarios'], work)
    expect(second).toEqual(expected)
    // Accepted: a cache that V8 took is not written again (a write renames a new file into place: a new inode).
    expect((await stat(codeCacheFile(cache, ['scenarios']))).ino).toBe(ino)
  })

  it.each([
    ['garbage', () => Buffer.from('not a cache at all')],
    [
      'a cache from another Node',
      () => Buffer.concat([Buffer.from('v0.0.1 x64 0123456789abcdef0123456789abcdef\n'), Buffer.alloc(4096, 7)]),
    ],
  ])('ignores and replaces %s, printing the same', async (_, content) => {
    const file = codeCacheFile(cache, ['scenarios'])
    await mkdir(cache, { recursive: true })
    await writeFile(file, content())

    expect(await run(BIN, ['scenarios'], work)).toEqual(expected)
    const stored = await readFile(file)
    expect(stored.toString('latin1', 0, KEY_START.length)).toBe(KEY_START)
  })

  it('ignores and replaces compiled code V8 rejects under this build, printing the same', async () => {
    const file = codeCacheFile(cache, ['scenarios'])
    await run(BIN, ['scenarios'], work)
    const stored = await readFile(file)
    const keyEnd = stored.indexOf(10) + 1
    // This build's key, with data that is not V8's.
    const corrupt = Buffer.concat([stored.subarray(0, keyEnd), Buffer.alloc(stored.length - keyEnd, 0x5a)])
    await writeFile(file, corrupt)

    expect(await run(BIN, ['scenarios'], work)).toEqual(expected)
    const replaced = await readFile(file)
    expect(replaced.subarray(0, keyEnd)).toEqual(stored.subarray(0, keyEnd))
    expect(replaced.subarray(keyEnd).equals(corrupt.subarray(keyEnd))).toBe(false)
  })

  it('never fails a command when its folder cannot be written', async () => {
    // A file where the cache folder's parent should be: no user (not even root) can make the folder.
    await writeFile(join(work, 'node_modules', '.cache'), 'not a folder')

    expect(await run(BIN, ['scenarios'], work)).toEqual(expected)
    expect(await run(BIN, ['scenarios'], work)).toEqual(expected)
  })

  it('is written once serve has started, and the next start seeds from cached code, with nothing on stderr', async () => {
    const file = codeCacheFile(cache, ['serve'])
    // serve keeps running: the file appears while it serves, not at its exit.
    const first = await serveUntil(() => existsSync(file))
    expect(first.stdout).toContain('relay-mock is serving the relay service at http://127.0.0.1:')
    const stored = await readFile(file)
    expect(stored.toString('latin1', 0, KEY_START.length)).toBe(KEY_START)
    const { ino } = await stat(file)

    // Another seed: faker is loaded (an import() from code compiled from the cache) to seed its world.
    const second = await serveUntil(() => true, ['--seed', '7'])
    expect(second.stdout).toContain('relay-mock is serving the relay service at http://127.0.0.1:')
    expect((await stat(file)).ino).toBe(ino)
    expect(first.stderr + second.stderr).toBe('')
  }, 60_000)
})

/** Starts serve in `work`, waits for its banner and then for `done`, stops it, and returns what it printed. */
async function serveUntil(done: () => boolean, args: string[] = []): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: work,
    env: CLI_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  try {
    while (!(stdout.includes('Ctrl-C stops it.') && done()) && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(child.exitCode).toBe(null)
  } finally {
    child.kill('SIGTERM')
    if (child.exitCode === null) await once(child, 'exit')
  }
  return { stdout, stderr }
}

describe('the bin without its bundle', () => {
  it('says what is missing and what to do, and exits 2', async () => {
    // An install whose bundle is gone: the bin and its loader, without relay-mock.cjs.
    for (const folder of ['bin', 'dist/bundle']) await mkdir(join(work, folder), { recursive: true })
    for (const file of ['bin/relay-mock.js', 'bin/package.json', 'dist/bundle/start.cjs'])
      await writeFile(join(work, file), await readFile(join(ROOT, file)))
    const ended = await run(join(work, 'bin/relay-mock.js'), ['--version'], work)
    expect(ended.code).toBe(2)
    expect(ended.stdout).toBe('')
    expect(ended.stderr).toBe(
      `Failed to start relay-mock: ${join(work, 'dist/bundle/relay-mock.cjs')} is missing or is not a relay-mock build. Please install relay-mock again (in a checkout of its repository: npm run build).\n`,
    )
  })
})

describe('codeCacheFile', () => {
  it('names the file by the command, and help or version as other', () => {
    expect(codeCacheFile('/c', ['serve', '--port', '0'])).toBe(join('/c', 'code-serve.bin'))
    expect(codeCacheFile('/c', ['serve', '--help'])).toBe(join('/c', 'code-other.bin'))
    expect(codeCacheFile('/c', ['--version'])).toBe(join('/c', 'code-other.bin'))
    expect(codeCacheFile('/c', ['../../x'])).toBe(join('/c', 'code-other.bin'))
    expect(codeCacheFile('/c', [])).toBe(join('/c', 'code-other.bin'))
  })
})

describe('cacheDir', () => {
  // Compiled code from the cache is run: outside a project, only a temp folder of the user's own is used.
  const withTmp = async (body: (tmp: string, cwd: string) => Promise<void>) => {
    const tmp = await mkdtemp(join(os.tmpdir(), 'relay-tmp-'))
    const cwd = await mkdtemp(join(os.tmpdir(), 'relay-cwd-'))
    const saved = process.env.TMPDIR
    process.env.TMPDIR = tmp
    try {
      await body(tmp, cwd)
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
      await rm(tmp, { recursive: true, force: true })
      await rm(cwd, { recursive: true, force: true })
    }
  }
  const own = (tmp: string) => join(tmp, `relay-mock-cache-${process.getuid!()}`)

  it("is the project's node_modules/.cache/relay-mock when there is a node_modules", async () => {
    await withTmp(async (_, cwd) => {
      await mkdir(join(cwd, 'node_modules'))
      expect(cacheDir(cwd)).toBe(join(cwd, 'node_modules', '.cache', 'relay-mock'))
    })
  })

  it("else makes a folder of the user's own in the temp folder, that only they may write in", async () => {
    await withTmp(async (tmp, cwd) => {
      expect(cacheDir(cwd)).toBe(own(tmp))
      expect((await stat(own(tmp))).mode & 0o777).toBe(0o700)
    })
  })

  it('refuses a temp folder others may write in, or a link to another folder', async () => {
    await withTmp(async (tmp, cwd) => {
      await mkdir(own(tmp), { mode: 0o777 })
      await chmod(own(tmp), 0o777)
      expect(cacheDir(cwd)).toBeUndefined()
    })
    await withTmp(async (tmp, cwd) => {
      const elsewhere = await mkdtemp(join(tmp, 'elsewhere-'))
      await symlink(elsewhere, own(tmp))
      expect(cacheDir(cwd)).toBeUndefined()
    })
  })
})
