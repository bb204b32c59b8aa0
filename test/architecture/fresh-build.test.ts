// scripts/fresh-build.mjs: `npm test` builds again only when what the build reads has changed since the
// last build, judged by content, never by dates; a dist/ emptied or half-built is built again.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module without types (npm test runs it before anything is built)
import { begin, isFresh, stamp } from '../../scripts/fresh-build.mjs'

const root = mkdtempSync(join(os.tmpdir(), 'relay-mock-fresh-build-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

/** A project as the build reads it, freshly built. */
function built(): void {
  rmSync(root, { recursive: true, force: true })
  write('src/core/world.ts', 'export const a = 1\n')
  write('src/devtools/live/live.css', 'body {}\n')
  write('scenarios/default.ts', 'export default {}\n')
  write('suites/simple.ts', 'export default {}\n')
  write('examples/clients/typescript/client.ts', '// a client\n')
  write('package.json', '{}\n')
  write('package-lock.json', '{}\n')
  write('tsconfig.json', '{ "include": ["src", "scenarios", "suites", "examples/clients/typescript"] }\n')
  begin(root)
  write('dist/src/core/world.js', 'export const a = 1\n')
  stamp(root)
}

describe('the build before the tests', () => {
  it('is not made again when nothing it reads has changed, even when a file was touched', () => {
    built()
    expect(isFresh(root)).toBe(true)
    utimesSync(join(root, 'src/core/world.ts'), new Date(), new Date(Date.now() + 60_000))
    expect(isFresh(root)).toBe(true)
  })

  it('is made again when a source was saved while it was being built', () => {
    built()
    begin(root)
    write('src/core/world.ts', 'export const a = 3\n')
    stamp(root)
    expect(isFresh(root)).toBe(false)
  })

  it.each([
    ['a source changed', () => write('src/core/world.ts', 'export const a = 2\n')],
    ['a browser asset changed', () => write('src/devtools/live/live.css', 'body { color: red }\n')],
    ['a source added', () => write('src/core/clock.ts', 'export {}\n')],
    ['a source removed', () => rmSync(join(root, 'scenarios/default.ts'))],
    ['a suite changed', () => write('suites/simple.ts', 'export default { cases: [] }\n')],
    ['the TypeScript example changed', () => write('examples/clients/typescript/client.ts', '// another client\n')],
    ['the locked dependencies changed', () => write('package-lock.json', '{ "lockfileVersion": 3 }\n')],
    [
      'the compiler options changed',
      () =>
        write(
          'tsconfig.json',
          '{ "compilerOptions": {}, "include": ["src", "scenarios", "suites", "examples/clients/typescript"] }\n',
        ),
    ],
    ['dist/ was removed', () => rmSync(join(root, 'dist'), { recursive: true })],
  ])('is made again when %s', (_what, change) => {
    built()
    change()
    expect(isFresh(root)).toBe(false)
  })
})
