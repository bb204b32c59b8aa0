// Reading a document or a file its $refs name: a path or URL located, its text read from the disk or fetched,
// parsed as JSON or handed on as text for the validator's YAML reader; a failure is an Unread.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REACH = 'Please check the URL and that this machine can reach it (--timeout gives it longer)'

export type Json = Record<string, unknown>

/** Why a file or URL could not be read, and what to do when it is the document itself. */
export class Unread extends Error {
  constructor(
    readonly reason: string,
    readonly advice?: string,
  ) {
    super(reason)
  }
}

/** The URL of a document named on the command line: an http(s) or file: URL, or a path. */
export function locate(source: string): URL {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
    if (!/^(https?|file):/i.test(source)) throw new Unread('it is neither a file nor an http(s) URL')
    try {
      return new URL(source)
    } catch {
      throw new Unread('it is not a valid URL', REACH)
    }
  }
  return pathToFileURL(resolve(source))
}

/** A file's or URL's text, and the URL its relative $refs are read from (a redirect's target for a URL). */
export async function load(url: URL, timeoutMs: number): Promise<{ text: string; url: URL }> {
  if (url.protocol === 'file:') return { text: await readText(url), url }
  return fetchText(url, timeoutMs)
}

export const withoutFragment = (url: URL) => url.href.replace(/#.*$/, '')
export const nameOf = (url: URL) => (url.protocol === 'file:' ? fileURLToPath(url) : url.href)

/** A URI as the validator reads a $ref (decodeURIComponent); undefined when it cannot be decoded. */
export function decoded(uri: string): string | undefined {
  try {
    return decodeURIComponent(uri)
  } catch {
    return undefined
  }
}

/** JSON as an object; anything else as text for the validator's YAML reader. */
export function parsed(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // YAML, or neither: the validator says which.
  }
  // The validator reads a string without a line break as a file name: text on one line gets one.
  return text.includes('\n') ? text : `${text}\n`
}

async function readText(url: URL): Promise<string> {
  try {
    return await readFile(fileURLToPath(url), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Unread(
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'it may not be read'
            : (error as Error).message,
    )
  }
}

async function fetchText(url: URL, timeoutMs: number): Promise<{ text: string; url: URL }> {
  let response: Response
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
    })
  } catch (error) {
    const name = (error as Error).name
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new Unread(`no answer within ${timeoutMs / 1000} s`, REACH)
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new Unread(`it could not be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})`, REACH)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new Unread(
      `the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      'Please check the URL (the interface publishes it in §9 Versioning)',
    )
  }
  try {
    return { text: await response.text(), url: response.url ? new URL(response.url) : url }
  } catch (error) {
    throw new Unread(`its answer broke off (${(error as Error).message})`, REACH)
  }
}
