// The example client code docs/example-clients.md shows is the real client's: each code block of its
// section "What a client does when the service fails" (and of docs/http-libraries.md's "PHP: Guzzle 7") is a run of excerpts (split at a line that is
// only `...` or `// …`), and each excerpt is found, verbatim and in order, in the example file of its
// language. An edit to a client that the page shows fails here until the page shows it too.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8')

const FILES: Record<string, string> = {
  python: 'examples/clients/python/client.py',
  ts: 'examples/clients/typescript/client.ts',
  sh: 'examples/clients/shell/client.sh',
  php: 'examples/clients/php/client.php',
}
const GAP = /^\s*(\.\.\.|\/\/ …|# …)\s*$/

/** The code blocks of the page's section `heading` (up to the next heading of its level or above, outside code), with their language. */
function blocks(page: string, heading: string): Array<{ lang: string; code: string }> {
  const lines = page.split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`The page has no section "${heading}".`)
  const level = heading.indexOf(' ')
  let fenced = false
  let end = lines.length
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].startsWith('```')) fenced = !fenced
    else if (!fenced && /^#+ /.test(lines[i]) && lines[i].indexOf(' ') <= level) {
      end = i
      break
    }
  }
  const section = lines.slice(start, end).join('\n')
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1], code: match[2] }))
}

/** The excerpts of a block: its runs of lines between gap lines. */
function excerpts(code: string): string[] {
  const runs: string[][] = [[]]
  for (const line of code.replace(/\n$/, '').split('\n')) {
    if (GAP.test(line)) runs.push([])
    else runs.at(-1)!.push(line)
  }
  return runs.map((run) => run.join('\n').replace(/^\n+|\n+$/g, '')).filter((run) => run !== '')
}

/** The excerpts not found in `source` in order, each with why. */
function missing(source: string, parts: string[]): string[] {
  const wrong: string[] = []
  let from = 0
  for (const part of parts) {
    const at = source.indexOf(part, from)
    if (at < 0) wrong.push(source.includes(part) ? `out of order:\n${part}` : `not in the file:\n${part}`)
    else from = at + part.length
  }
  return wrong
}

describe('the example client code in docs/example-clients.md', () => {
  const shown = blocks(read('docs/example-clients.md'), '## What a client does when the service fails')

  it('shows the Python and the TypeScript client', () => {
    expect(shown.map((block) => block.lang)).toEqual(['python', 'ts'])
  })

  it.each(shown.map((block, index) => ({ ...block, index })))(
    'block $index ($lang) is excerpts of the example client, verbatim and in order',
    ({ lang, code }) => {
      const file = FILES[lang]
      expect(file, `a ${lang} block has no example client`).toBeDefined()
      const parts = excerpts(code)
      expect(parts.length).toBeGreaterThan(0)
      expect(missing(read(file), parts)).toEqual([])
    },
  )

  it('finds an edited line (the check can fail)', () => {
    const source = 'a = 1\nb = 2\nc = 3\n'
    expect(missing(source, excerpts('a = 1\n...\nc = 3\n'))).toEqual([])
    expect(missing(source, excerpts('a = 1\n...\nc = 4\n'))).toEqual(['not in the file:\nc = 4'])
    expect(missing(source, excerpts('c = 3\n...\na = 1\n'))).toEqual(['out of order:\na = 1'])
  })
})

describe('the PHP example code in docs/http-libraries.md', () => {
  const shown = blocks(read('docs/http-libraries.md'), '### PHP: Guzzle 7')

  it('shows the PHP client once', () => {
    expect(shown.map((block) => block.lang)).toEqual(['php'])
  })

  it('is excerpts of examples/clients/php/client.php, verbatim and in order', () => {
    const parts = excerpts(shown[0].code)
    expect(parts.length).toBeGreaterThan(3)
    expect(missing(read(FILES.php), parts)).toEqual([])
  })
})
