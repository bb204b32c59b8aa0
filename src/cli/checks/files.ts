// The files and folders: one to read, and one to write to (writable, or creatable with its missing
// folders).
import { accessSync, constants, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { refuse, type Check } from './check.js'

/**
 * Why nothing can be created at `path` (a folder or a file), or undefined if it can: its nearest
 * existing ancestor must be a folder this process may write into.
 */
function cannotCreate(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let stat
    try {
      stat = statSync(dir)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(dir) !== dir) continue
      return `cannot be written (${dir} cannot be read: ${code})`
    }
    if (!stat.isDirectory()) return `cannot be written (${dir} is a file, not a folder)`
    return writable(dir) ? undefined : `cannot be written (the folder ${dir} is not writable)`
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function existing(path: string) {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** A path to write to, of one kind: writable if it exists, else creatable (its missing folders too). */
function writablePath(kind: 'file' | 'folder', expected: string): Check<string> {
  const other = kind === 'file' ? 'folder' : 'file'
  return {
    expected,
    parse(text) {
      if (text.trim() === '') refuse('is empty')
      const path = resolve(text)
      const stat = existing(path)
      if (stat && stat.isDirectory() !== (kind === 'folder')) refuse(`is a ${other}, not a ${kind}`)
      if (stat && !writable(path)) refuse(`cannot be written (the ${kind} is not writable)`)
      const reason = stat ? undefined : cannotCreate(path)
      if (reason) refuse(reason)
      return text
    },
  }
}

/**
 * A file to write a report to: it is writable, or it can be created (its missing folders too).
 * @example writableFile.parse('reports/conform.json') // 'reports/conform.json'
 */
export const writableFile: Check<string> = writablePath(
  'file',
  'a file in a folder that exists and is writable, or can be created',
)

/**
 * A folder to write reports into: it exists and is writable, or it can be created.
 * @example writableFolder.parse('conform-report') // 'conform-report'
 */
export const writableFolder: Check<string> = writablePath(
  'folder',
  'a folder that exists and is writable, or can be created',
)

/**
 * A file to read.
 * @example readableFile.parse('staging.har') // 'staging.har'
 */
export const readableFile: Check<string> = {
  expected: 'a file that exists and can be read',
  parse(text) {
    if (text.trim() === '') refuse('is empty')
    const stat = existing(resolve(text))
    if (!stat) refuse('does not exist')
    if (!stat.isFile()) refuse('is not a file')
    try {
      accessSync(text, constants.R_OK)
    } catch {
      refuse('cannot be read')
    }
    return text
  },
}
