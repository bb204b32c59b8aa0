// Where relay-mock keeps its caches on disk (seeded worlds, compiled code): one folder, chosen as build
// tools choose theirs, and the one way a cache file is written. Its own module, with node:* imports only,
// so the command's loader reads it before anything else is loaded.
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * relay-mock's cache folder: `node_modules/.cache/relay-mock` of the working directory when it has a
 * node_modules folder (where build tools keep their caches), else a folder of the user's own in the temp
 * folder. Undefined when that folder is not safe to read from: the compiled code in it is run, so a
 * folder another user made, or may write in, is never used (a shared /tmp would let them plant it).
 * @example cacheDir('/work/app') // '/work/app/node_modules/.cache/relay-mock'
 */
export function cacheDir(cwd: string = process.cwd()): string | undefined {
  const modules = join(cwd, 'node_modules')
  if (existsSync(modules)) return join(modules, '.cache', 'relay-mock')
  const uid = process.getuid?.()
  // Windows gives each user a temp folder of their own.
  if (uid === undefined) return join(tmpdir(), 'relay-mock-cache')
  const dir = join(tmpdir(), `relay-mock-cache-${uid}`)
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch {
    // It exists already (or cannot be made): whose it is decides below.
  }
  try {
    const stat = lstatSync(dir)
    // Ours, a real folder (not a link to elsewhere), and nobody else may write in it.
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0 ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * Writes a cache file whole (a temporary file, then a rename), so that a reader never sees half of one,
 * and never throws: a cache that cannot be written costs the next start its work, nothing more.
 * Its folder is made if missing.
 * @example writeCacheFile('/tmp/relay-mock-cache-1000/code-serve.bin', data)
 */
export function writeCacheFile(file: string, data: string | Uint8Array): void {
  // Unique among the processes writing now: the pid, and a random part for a pid reused in another container.
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(temporary, data)
    renameSync(temporary, file)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing was written.
    }
  }
}
