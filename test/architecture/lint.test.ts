// `npm run lint` and `npm run format:check` hold, here beside the other test files as the type checks do:
// ESLint with typescript-eslint's type-checked rules over the tree (src/ within 400 lines a file and 80 a
// function, counting code lines), and Prettier at 120 columns. Each also fails on a fault planted in text
// it is handed, so a rule switched off or a configuration that matches nothing shows here.
import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'
import { runTool } from '../support/tool.js'

const root = resolve(import.meta.dirname, '../..')

/**
 * ESLint's findings on `code` as if it were the file `path` of the project (which must exist: it is typed).
 * typescript-eslint takes a run with CI=true for a single run over the files on disk, and would then lint
 * the file as it is there, not the text handed to it: the planted faults would never be seen.
 */
async function findingsOn(code: string, path: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
  })
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) })
  return result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`)
}

describe('the linter', () => {
  it.concurrent(
    'finds nothing in the tree (npm run lint)',
    async () => {
      const run = await runTool(
        process.execPath,
        [resolve(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.'],
        { cwd: root },
      )
      expect(`${run.stdout}${run.stderr}`.trim()).toBe('')
      expect(run.exitCode).toBe(0)
    },
    240_000,
  )

  it.concurrent(
    'fails a function over 80 lines of code, a file over 400, and an any, in src/',
    async () => {
      const body = Array.from({ length: 81 }, (_, i) => `  total += ${i}`).join('\n')
      const long = `export function planted(): number {\n  let total = 0\n${body}\n  return total\n}\n`
      expect(await findingsOn(long, 'src/core/text.ts')).toContainEqual(
        expect.stringMatching(/^max-lines-per-function: .*Maximum allowed is 80/),
      )
      const lines = Array.from({ length: 401 }, (_, i) => `export const planted${i} = ${i}`).join('\n')
      expect(await findingsOn(`${lines}\n`, 'src/core/text.ts')).toContainEqual(
        expect.stringMatching(/^max-lines: .*\(401\)\. Maximum allowed is 400/),
      )
      expect(await findingsOn('export const planted: any = 1\n', 'src/core/text.ts')).toContainEqual(
        expect.stringMatching(/^@typescript-eslint\/no-explicit-any: /),
      )
    },
    120_000,
  )

  it.concurrent(
    'fails a floating promise, which only the type-checked rules see',
    async () => {
      const code =
        'export async function planted(): Promise<void> {}\nexport function caller(): void {\n  planted()\n}\n'
      expect(await findingsOn(code, 'src/core/text.ts')).toContainEqual(
        expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /),
      )
    },
    120_000,
  )
})

describe('the formatter', () => {
  it.concurrent(
    'finds the tree formatted (npm run format:check)',
    async () => {
      const run = await runTool(
        process.execPath,
        [resolve(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'],
        { cwd: root },
      )
      expect(`${run.stdout}${run.stderr}`.trim()).toBe('')
      expect(run.exitCode).toBe(0)
    },
    120_000,
  )

  it('fails a line over 120 columns and a semicolon, with the project settings', async () => {
    const path = resolve(root, 'src/core/text.ts')
    const options = { ...(await prettier.resolveConfig(path)), filepath: path }
    expect(options.printWidth).toBe(120)
    const wide = `export const planted = [${Array.from({ length: 30 }, (_, i) => `'item${i}'`).join(', ')}]\n`
    expect(await prettier.check(wide, options)).toBe(false)
    expect(await prettier.check("export const planted = 'x';\n", options)).toBe(false)
    expect(await prettier.check(await prettier.format(wide, options), options)).toBe(true)
  })
})
