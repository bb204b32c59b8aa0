// The PHP example with one of its settings taken out: a copy, in a folder of its own, of
// examples/clients/php/client.php with each given text replaced (edits.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ROOT } from './cli.js'
import { withEdits } from './edits.js'

export const PHP_EXAMPLE = path.join(ROOT, 'examples/clients/php/client.php')

const folders: string[] = []

/**
 * Writes the example with each `[text, replacement]` applied; returns the command that runs the copy.
 * The copy loads Guzzle as the example does (Composer's vendor/ beside the example, else Debian's).
 * @example phpVariant('no-timeout', [["    'timeout' => $TIMEOUT_MS / 1000,", '']]) // 'php /tmp/…/no-timeout.php'
 */
export function phpVariant(name: string, edits: ReadonlyArray<readonly [string, string]>): string {
  const source = withEdits(
    PHP_EXAMPLE,
    readFileSync(PHP_EXAMPLE, 'utf8').replaceAll('__DIR__', JSON.stringify(path.dirname(PHP_EXAMPLE))),
    name,
    edits,
  )
  const folder = mkdtempSync(path.join(os.tmpdir(), 'relay-mock-php-'))
  folders.push(folder)
  const file = path.join(folder, `${name}.php`)
  writeFileSync(file, source)
  return `php ${file}`
}

/** Removes every copy written. */
export function removePhpVariants(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
}
