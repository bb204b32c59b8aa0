// Bundles the command line as one CommonJS file, dist/bundle/relay-mock.cjs: start-up then reads one
// file instead of hundreds, and bin/relay-mock.js compiles it with V8's code cache of the last run
// (src/node/caches/code-cache.ts, bundled as start.cjs), so that a start deserializes the functions it runs
// instead of parsing and compiling them: Node 20 caches no compiled ES modules. The commands' import()
// of their own modules become lazy initializers, so a command runs only its own modules' bodies. Its first
// line names the build, so that a cache made from another build is never used.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { build } from 'esbuild'
// tsc has built dist/src before this script runs (npm run build).
import { BUILD_LINE_PREFIX } from '../dist/src/node/caches/code-cache.js'

// A fresh folder: nothing a former build left (its ES module chunks) is packed.
rmSync('dist/bundle', { recursive: true, force: true })

/** The command line's bundle, before the code cache's own needs (below). */
const common = {
  entryPoints: ['src/cli/index.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  external: [
    // jiti loads a user's TypeScript scenario, and only then: it stays a package of its own.
    'jiti',
    // faker ships prebuilt and minified: loading it from node_modules costs one more file read,
    // while bundling it would copy 150 KB of it into the package a second time.
    '@faker-js/faker',
    // compare's OpenAPI validator reads the OpenAPI schemas from its own folder at run time, and only
    // compare loads it.
    '@seriousme/openapi-schema-validator',
    // proxy's HTTP client, and only proxy loads it.
    'undici',
    // conform --explore's generator, and only --explore loads it (with importExternal).
    'fast-check',
  ],
  plugins: [
    {
      // yargs and its cliui bundle string-width (three copies), whose module bodies build an
      // Intl.Segmenter and Unicode-property RegExps (\p{RGI_Emoji}, flag v): ~30 ms of every start, though
      // only help text and wrapping measure a string. Each import of it gets a shim that loads the real
      // module on the first call: esbuild turns that require() into a lazy initializer in the bundle.
      name: 'lazy-string-width',
      setup(b) {
        b.onResolve({ filter: /^string-width$/ }, async (args) => {
          if (args.pluginData === 'real') return undefined
          const real = await b.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: 'real',
          })
          if (real.errors.length > 0) return { errors: real.errors }
          return { path: real.path, namespace: 'lazy-string-width' }
        })
        b.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
          contents: `let width\nexport default function stringWidth(text, options) {\n  width ??= require(${JSON.stringify(args.path)}).default\n  return width(text, options)\n}\n`,
          loader: 'js',
          resolveDir: dirname(args.path),
        }))
      },
    },
    {
      // yargs' ESM platform shim imports strictEqual and notStrictEqual from 'assert' for two internal
      // invariants, and nothing else in serve loads node:assert. yargs gets these two, throwing as
      // node:assert does (name, code, message) should an invariant ever break.
      name: 'yargs-assert',
      setup(b) {
        b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
          /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer)
            ? { path: 'yargs-assert', namespace: 'yargs-assert' }
            : undefined,
        )
        b.onLoad({ filter: /.*/, namespace: 'yargs-assert' }, () => ({
          contents: [
            "import { inspect } from 'node:util'",
            'class AssertionError extends Error {',
            "  constructor(message, actual, expected, operator) { super(message); this.name = 'AssertionError'; this.code = 'ERR_ASSERTION'; Object.assign(this, { actual, expected, operator, generatedMessage: message === undefined }) }",
            '}',
            'export function strictEqual(actual, expected, message) {',
            "  if (!Object.is(actual, expected)) throw new AssertionError(message ?? `Expected values to be strictly equal:\\n+ actual - expected\\n\\n+ ${inspect(actual)}\\n- ${inspect(expected)}`, actual, expected, 'strictEqual')",
            '}',
            'export function notStrictEqual(actual, expected, message) {',
            '  if (Object.is(actual, expected)) throw new AssertionError(message ?? `Expected "actual" to be strictly unequal to: ${inspect(expected)}`, actual, expected, \'notStrictEqual\')',
            '}',
          ].join('\n'),
          loader: 'js',
        }))
      },
    },
    {
      // zod re-exports every locale's messages; the mock speaks English only (zod's default).
      name: 'zod-english-only',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
          args.importer.includes('/zod/') ? { path: 'zod-locales', namespace: 'stub' } : undefined,
        )
        b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export {}', loader: 'js' }))
      },
    },
  ],
}

// One file (a code cache covers one script). Faker (ES modules only), jiti and a user's files are imported
// by the loader, for the bundle, with Node's own ES module loader.
const cjs = 'dist/bundle/relay-mock.cjs'
await build({
  ...common,
  outfile: cjs,
  format: 'cjs',
  plugins: [
    ...common.plugins,
    {
      // Code compiled from a code cache cannot run import() on Node 20: the bundle's import() of what it
      // leaves outside goes to the importer the loader passes in (src/node/caches/code-cache.ts).
      name: 'loader-import',
      setup(b) {
        b.onResolve({ filter: /\/import-external\.js$/ }, (args) =>
          /[\\/]src[\\/]/.test(args.importer) ? { path: 'import-external', namespace: 'loader-import' } : undefined,
        )
        b.onLoad({ filter: /.*/, namespace: 'loader-import' }, () => ({
          contents: 'export function importExternal(specifier) { return __relayImport(specifier) }',
          loader: 'js',
        }))
      },
    },
  ],
  define: { 'import.meta.url': '__relayImportMetaUrl' },
  // 'use strict' first: the bundle's own directive would come after the banner, where it is no directive.
  banner: { js: "'use strict'; var __relayImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
})
const code = readFileSync(cjs, 'utf8')
// import( not after a dot: a method named import (jiti's) is no import().
if (/(^|[^.\w$])import\s*\(/.test(code)) {
  throw new Error(
    `${cjs} calls import(), which fails in code compiled from a code cache. Please import packages and user files with importExternal (src/core/import-external.ts).`,
  )
}
writeFileSync(cjs, `${BUILD_LINE_PREFIX}${createHash('sha256').update(code).digest('hex').slice(0, 32)}\n${code}`)

// The loader that bin/relay-mock.js (CommonJS: bin/package.json) requires: src/node/caches/code-cache.ts and
// the folder it reads, as one CommonJS file, so that a start from the code cache never sets up Node's
// ES module loader (its own ES module, imported, cost about 5 ms of every start).
await build({
  entryPoints: ['src/node/caches/code-cache.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/bundle/start.cjs',
  legalComments: 'none',
  logLevel: 'warning',
})
