// How bin/relay-mock.js starts the command line: from V8's compiled code of the last run when it can,
// so that a start deserializes the bundle's functions instead of parsing and compiling them. The build
// also bundles this module as dist/bundle/start.cjs, which the bin (CommonJS) requires.
//
// Node 20 has no compile cache for ES modules (module.enableCompileCache came in 22), but vm.Script
// takes and makes V8's code cache. So the build writes the command line as one CommonJS file
// (dist/bundle/relay-mock.cjs); this module compiles it as Node compiles a CommonJS module, with the
// cached data of the last run, and stores new data once the command has started (serve: its banner
// printed) or has ended other than by a usage error. Anything wrong with the cache (missing,
// unreadable, built by another Node, bundle or V8 flags, rejected by V8, a folder that cannot be
// written) costs only the saving: the command runs the same.
//
// The bundle calls no import() of its own: on Node 20 a function deserialized from a code cache loses
// the script's dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the main-context
// loader option warns that it is experimental. Its import() of faker, jiti and a user's modules go
// through importExternal (src/core/import-external.ts), which the CommonJS build turns into a call of
// the importer this module passes in.
import type { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import vm from 'node:vm'
import { cacheDir, writeCacheFile } from './cache-dir.js'

/** The event of announceStarted. */
const CLI_STARTED_EVENT = 'relay-mock:started'

/**
 * Tells the loader that a long-running command has started (serve: its banner printed), so that the
 * code compiled so far is stored for the next start. Without the loader, nothing listens.
 * @example console.log(banner); announceStarted()
 */
export function announceStarted(): void {
  ;(process as EventEmitter).emit(CLI_STARTED_EVENT)
}

/** The first line of the CommonJS bundle names its build: `//relay-mock-build <hash>` (scripts/bundle.mjs writes it). */
export const BUILD_LINE_PREFIX = '//relay-mock-build '

export interface CodeCacheOptions {
  /** The CommonJS bundle of the command line. */
  bundle: string
  /** The folder of the cache files. Default: relay-mock's cache folder (see cacheDir). */
  dir?: string
  /** The command line's arguments, to name the cache file by command. Default: `process.argv.slice(2)`. */
  args?: string[]
}

/** What startCachedCli did with the cache: 'unavailable' when it ran nothing. */
export type CodeCacheOutcome = 'accepted' | 'rejected' | 'missing' | 'unavailable'

/**
 * The cache file of a command: each command compiles other functions, so each keeps its own.
 * @example codeCacheFile('/tmp/c', ['serve', '--port', '0']) // '/tmp/c/code-serve.bin'
 */
export function codeCacheFile(dir: string, args: string[]): string {
  // Help and version print text only: their few functions would make a poor cache for the command.
  const command =
    /^[a-z]{1,20}$/.test(args[0] ?? '') && !args.some((arg) => /^(--help|-h|--version)$/.test(arg)) ? args[0] : 'other'
  return join(dir, `code-${command}.bin`)
}

/**
 * Runs the CommonJS bundle of the command line with V8's code cache, and returns what became of the
 * cache; returns 'unavailable' without running anything when the bundle cannot run this way (missing,
 * or not a build that names itself).
 * @example if (startCachedCli({ bundle: 'dist/bundle/relay-mock.cjs' }) === 'unavailable') process.exitCode = 2
 */
export function startCachedCli(options: CodeCacheOptions): CodeCacheOutcome {
  let compiled: ReturnType<typeof compile>
  try {
    compiled = compile(options)
  } catch {
    return 'unavailable'
  }
  // The command itself runs outside the try: its own errors are its own, and it must never run twice.
  compiled.run()
  return compiled.outcome
}

/** The bundle's import(): an ES module's, resolving packages from relay-mock's own folder. */
const importExternal = (specifier: string): Promise<unknown> => import(specifier)

function compile(options: CodeCacheOptions) {
  const { bundle } = options
  const source = readFileSync(bundle, 'utf8')
  const build = source.startsWith(BUILD_LINE_PREFIX) ? source.slice(BUILD_LINE_PREFIX.length, source.indexOf('\n')) : ''
  if (!/^[0-9a-f]{16,64}$/.test(build)) throw new Error('The bundle does not name its build.')
  const key = `${process.version} ${process.arch} ${build}`
  let file: string | undefined
  let cachedData: Buffer | undefined
  try {
    const dir = options.dir ?? cacheDir()
    if (dir !== undefined) file = codeCacheFile(dir, options.args ?? process.argv.slice(2))
    if (file !== undefined) cachedData = readCache(file, key)
  } catch {
    // No cache to read: compile from the source, and store the result if the folder allows it.
  }
  // As Node wraps a CommonJS module (plus the importer), on one line so that the bundle's line numbers stay its own.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __relayImport) {${source}\n})`,
    { filename: bundle, cachedData },
  )
  const outcome: CodeCacheOutcome =
    cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  return {
    outcome,
    run() {
      if (outcome !== 'accepted' && file !== undefined) storeWhenStarted(script, file, key)
      const module = { exports: {}, filename: bundle, id: '.', loaded: false }
      wrapper.call(
        module.exports,
        module.exports,
        createRequire(bundle),
        module,
        bundle,
        dirname(bundle),
        importExternal,
      )
    },
  }
}

/** The cached data in a file, if the file was made for this key. */
function readCache(file: string, key: string): Buffer | undefined {
  const content = readFileSync(file)
  const end = content.indexOf(10)
  if (end < 0 || content.toString('utf8', 0, end) !== key) return undefined
  return content.subarray(end + 1)
}

/** Stores the compiled code once the command has started, or at its exit unless a usage error (status 2) ended it. */
function storeWhenStarted(script: vm.Script, file: string, key: string): void {
  let stored = false
  const store = () => {
    if (stored) return
    stored = true
    writeCacheFile(file, Buffer.concat([Buffer.from(`${key}\n`), script.createCachedData()]))
  }
  // After the banner's turn of the event loop, before the first request: a process stopped right after
  // its first answer (a benchmark, a test) still leaves its cache behind.
  process.once(CLI_STARTED_EVENT, () => setImmediate(store).unref())
  process.once('exit', (code) => {
    if (code !== 2) store()
  })
}
