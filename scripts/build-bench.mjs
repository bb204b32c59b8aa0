// Builds the benchmark and the soak beside the package, into dist-bench (the published files never
// carry it): bench/, and the src/ and scenarios/ it imports, each file transpiled on its own by esbuild
// (types removed, nothing bundled), in under a second. Their types are checked by `tsc -p tsconfig.test.json`, whose
// project includes bench/. `npm test`, `npm run bench` and `npm run soak` run this.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const OUT = 'dist-bench'

/** Every TypeScript source under `dir`, tests and declarations left out. */
const sources = (dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(dir, file))

rmSync(OUT, { recursive: true, force: true })
await build({
  entryPoints: ['bench', 'src', 'scenarios'].flatMap(sources),
  outdir: OUT,
  outbase: '.',
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
})
