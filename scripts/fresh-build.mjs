// Builds only when the build's sources changed since the last build: `npm install` and `npm ci` build the
// project (its `prepare` script), and `npm test`, which tests the build, need not build it again.
//
//   node scripts/fresh-build.mjs           runs `npm run build` unless dist/ was built from these sources
//   node scripts/fresh-build.mjs --begin   notes the sources as the build begins to read them
//   node scripts/fresh-build.mjs --stamp   notes that dist/ was built from those (the last step of the build)
//
// The sources are every file the build reads: the folders tsconfig.json includes (src, scenarios, suites,
// the TypeScript example), the build's scripts and configuration, package.json and package-lock.json (the
// compilers' versions). What they hold, not their dates, decides: a checkout or a touch rebuilds nothing.
// The note lives in dist/, so that a dist removed or half-built (the build empties it first) is built
// again. A dependency changed without its lock (npm link, a patched package) is not seen: npm run build.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The folders tsc compiles: tsconfig.json's include. */
const folders = (root) => JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).include ?? []
const FILES = [
  'scripts/assets.mjs',
  'scripts/bundle.mjs',
  'scripts/fresh-build.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]
const NOTE = 'dist/.sources.sha256'
const PENDING = 'dist/.sources.pending'

/** Every file under `folders` of `root`, as a path from `root` with forward slashes. */
export function filesUnder(root, folders) {
  return folders.flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
          .filter((entry) => entry.isFile())
          .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
      : [],
  )
}

/** A SHA-256 of `files` of `root`: each one's path and content (a missing one marked so), in sorted order. */
export function hashOfFiles(root, files) {
  const hash = createHash('sha256')
  for (const file of [...files].sort()) {
    hash.update(`${file}\0`)
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '(none)')
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** One hash of the build's sources under `root`: each file's path and content, in a fixed order. */
export function sourcesHash(root) {
  return hashOfFiles(root, [...filesUnder(root, folders(root)), ...FILES])
}

/** Notes the sources as the build starts to read them (after the assets are written, before tsc). */
export function begin(root) {
  mkdirSync(join(root, 'dist'), { recursive: true })
  writeFileSync(join(root, PENDING), `${sourcesHash(root)}\n`)
}

/** Notes that `root`'s dist/ was built from the sources noted as it began: a file saved meanwhile builds again. */
export function stamp(root) {
  renameSync(join(root, PENDING), join(root, NOTE))
}

/** Whether `root`'s dist/ was built from its current sources. */
export function isFresh(root) {
  const note = join(root, NOTE)
  return existsSync(note) && readFileSync(note, 'utf8').trim() === sourcesHash(root)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  if (process.argv.includes('--begin')) {
    begin(root)
  } else if (process.argv.includes('--stamp')) {
    stamp(root)
  } else if (isFresh(root)) {
    console.log('relay-mock: dist/ is built from the current sources; not building it again (npm run build does).')
  } else {
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    })
    process.exit(build.status ?? 1)
  }
}
