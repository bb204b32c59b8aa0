// Where relay-mock keeps its caches on disk (seeded worlds, compiled code): one folder, chosen as build
// tools choose theirs. Its own module, with node:* imports only, so the command's loader reads it before
// anything else is loaded.
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * relay-mock's cache folder: `node_modules/.cache/relay-mock` of the working directory when it has a
 * node_modules folder (where build tools keep their caches), else `relay-mock-cache` in the temp folder.
 * @example cacheDir('/work/app') // '/work/app/node_modules/.cache/relay-mock'
 */
export function cacheDir(cwd: string = process.cwd()): string {
  const modules = join(cwd, 'node_modules')
  return existsSync(modules) ? join(modules, '.cache', 'relay-mock') : join(tmpdir(), 'relay-mock-cache')
}
