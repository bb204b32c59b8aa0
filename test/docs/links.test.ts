// The README keeps its promises as a short guide: at most 600 lines, a contents list that reaches every
// section, unique headings, and links into docs/ that land on a page and a heading that exist (relative
// links, so they hold on GitHub and on npm's page alike). Every docs page is held to the same links.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** The lines of a markdown text outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced
    return !fenced && !line.startsWith('```')
  })
}

/** A heading's anchor as GitHub and npm make it: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-')
}

/** The headings of a markdown text, with their level and anchor. */
function headings(text: string): Array<{ level: number; text: string; anchor: string }> {
  return prose(text)
    .map((line) => /^(#{1,6}) (.+?)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ level: match[1].length, text: match[2], anchor: slug(match[2]) }))
}

/** The relative links of a markdown text (no scheme), as written. */
function links(text: string): string[] {
  return prose(text)
    .flatMap((line) => [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** What is wrong with each relative link of `page`: a file that does not exist, or an anchor no heading has. */
function brokenLinks(page: string, text: string, readPage: (path: string) => string | undefined): string[] {
  return links(text).flatMap((target) => {
    const [path, anchor] = target.split('#') as [string, string | undefined]
    const file = path === '' ? page : relative(root, join(root, dirname(page), path))
    const found = path === '' ? text : readPage(file)
    if (found === undefined) return [`${page}: ${target} (no file ${file})`]
    if (anchor !== undefined && !headings(found).some((heading) => heading.anchor === anchor))
      return [`${page}: ${target} (no heading #${anchor} in ${file})`]
    return []
  })
}

const readPage = (path: string) => {
  if (!existsSync(join(root, path))) return undefined
  return path.endsWith('.md') ? read(path) : ''
}

describe('the README', () => {
  const readme = read('README.md')

  it('is at most 600 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(600)
  })

  it('opens its quick start with the two commands', () => {
    const quickStart = readme.slice(readme.indexOf('\n## Quick start\n'))
    const commands = /```sh\n([\s\S]*?)```/.exec(quickStart)![1]
    expect(
      commands
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/\s+#.*$/, '')),
    ).toEqual(['npm install && npm start', 'npm test'])
  })

  it('has a contents list that links to every section after it, and only to its sections', () => {
    const all = headings(readme)
    const start = readme.indexOf('\n## Contents\n')
    expect(start).toBeGreaterThan(-1)
    const contents = readme.slice(start + 1, readme.indexOf('\n## ', start + 1))
    const linked = links(contents)
    expect(
      linked.filter((target) => !target.startsWith('#') || !all.some((heading) => `#${heading.anchor}` === target)),
    ).toEqual([])
    const after = all.slice(all.findIndex((heading) => heading.text === 'Contents') + 1)
    const sections = after.filter((heading) => heading.level === 2).map((heading) => `#${heading.anchor}`)
    expect(sections.filter((anchor) => !linked.includes(anchor))).toEqual([])
  })
})

describe.each(pages)('%s', (page) => {
  const text = read(page)

  it('has unique headings, so no two anchors collide', () => {
    const anchors = headings(text).map((heading) => heading.anchor)
    expect(anchors.filter((anchor, i) => anchors.indexOf(anchor) !== i)).toEqual([])
  })

  it('links only to files and headings that exist', () => {
    expect(brokenLinks(page, text, readPage)).toEqual([])
  })
})

describe('the link check', () => {
  it('finds a missing page, a missing heading and a missing anchor of the page itself (the check can fail)', () => {
    const pages: Record<string, string> = { 'docs/a.md': '# A\n\n## Two words\n\n```sh\n# not a heading\n```\n' }
    const text =
      '# Here\n\n[ok](docs/a.md#two-words) [gone](docs/b.md) [no](docs/a.md#not-a-heading) [self](#here) [lost](#there) [web](https://example.com/x.md)\n'
    expect(brokenLinks('README.md', text, (path) => pages[path])).toEqual([
      'README.md: docs/b.md (no file docs/b.md)',
      'README.md: docs/a.md#not-a-heading (no heading #not-a-heading in docs/a.md)',
      'README.md: #there (no heading #there in README.md)',
    ])
  })

  it("makes GitHub's anchors: backticks, commas and colons dropped, case lowered", () => {
    expect(slug('Conformance kit: `relay-mock conform`')).toBe('conformance-kit-relay-mock-conform')
    expect(slug('What the interface leaves open, and what relay-mock does')).toBe(
      'what-the-interface-leaves-open-and-what-relay-mock-does',
    )
    expect(slug("Where the rest of GET's gap is")).toBe('where-the-rest-of-gets-gap-is')
  })
})
