// What is generated from the assumption ledger says what the ledger says: the README's table, the page
// docs/assumptions.md, `relay-mock assumptions`, and the OpenAPI documents' `x-relay-assumption`.
// Regenerate the two files after changing the ledger (npm run build first):
//   node --input-type=module -e "import('./dist/src/core/ledger/docs.js').then((m) => process.stdout.write(m.toAssumptionsPage()))" > docs/assumptions.md
// and paste toAssumptionTable() under the README's "What the interface leaves open, and what relay-mock does".
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { answerAssumptions, toAssumptionsPage, toAssumptionTable } from '../../src/core/ledger/docs.js'
import { assumption, ASSUMPTIONS } from '../../src/core/ledger/assumptions.js'
import { serviceRoutes } from '../../src/core/service/handlers/index.js'
import { openApiJson } from '../support/openapi-json.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8')

describe('the README and docs/assumptions.md', () => {
  it('carry the ledger\'s table under "What the interface leaves open", row for row', () => {
    const readme = read('README.md')
    const section = readme.slice(readme.indexOf('## What the interface leaves open, and what relay-mock does'))
    const table = section.slice(
      section.indexOf('| question | id |'),
      section.indexOf('\n\n', section.indexOf('| question | id |')),
    )
    expect(table).toBe(toAssumptionTable())
  })

  it('docs/assumptions.md is the page generated from the ledger', () => {
    expect(read('docs/assumptions.md')).toBe(toAssumptionsPage())
  })
})

describe('relay-mock assumptions', () => {
  it('--json lists every assumption with its citation, choice, alternatives and the variants served', () => {
    const result = spawnSync(process.execPath, ['bin/relay-mock.js', 'assumptions', '--json'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    const listed = JSON.parse(result.stdout) as Array<{
      id: string
      interface: string
      choice: string
      alternatives: unknown[]
      variants: string[]
      fidelityRule?: string
    }>
    expect(listed.length).toBeGreaterThanOrEqual(8)
    expect(listed.map((entry) => entry.id)).toEqual(ASSUMPTIONS.map((entry) => entry.id))
    for (const entry of listed) {
      expect(entry.interface).toMatch(/§\d/)
      expect(entry.alternatives.length).toBeGreaterThan(0)
    }
    expect(listed.find((entry) => entry.id === 'create.status')).toMatchObject({
      variants: ['create.status=200-no-location', 'create.status=201-no-location'],
      fidelityRule: 'fidelity.create.status',
    })
  })

  it('prints each assumption readably: question, the interface, the choice, the alternatives', () => {
    const result = spawnSync(process.execPath, ['bin/relay-mock.js', 'assumptions'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^create\.status {2}What status and headers answer a create/)
    expect(result.stdout).toMatch(/\n {2}instead {5}create\.status=200-no-location: A create is answered 200/)
    expect(result.stdout).toMatch(/slip\.method=get-with-body \(no variant\)/)
  })
})

describe('the OpenAPI documents', () => {
  it('mark each answer that rests on an assumption with x-relay-assumption, naming ids of the ledger', () => {
    const advanced = openApiJson('advanced')
    const simple = openApiJson('simple')
    expect(advanced.paths['/vehicles'].post.responses['201']['x-relay-assumption']).toEqual([
      'create.status',
      'records.extra-fields',
    ])
    expect(advanced.paths['/vehicles'].post.responses['422']['x-relay-assumption']).toEqual([
      'invalid.status',
      'error.body',
    ])
    expect(advanced.paths['/vehicles'].get.responses['401']['x-relay-assumption']).toEqual([
      'auth.refusal',
      'error.body',
    ])
    expect(advanced.paths['/vehicles/{id}'].get.responses['200']['x-relay-assumption']).toEqual([
      'records.extra-fields',
      'links.fetchable',
    ])
    expect(simple.paths['/payment'].post.responses['201']['x-relay-assumption']).toEqual([
      'create.status',
      'simple.answer',
    ])
    expect(simple.paths['/payment'].post.responses['422']['x-relay-assumption']).toEqual([
      'simple.refusal-status',
      'simple.unknown-owner',
      'error.body',
    ])
    expect(advanced.components.responses.UnknownPath['x-relay-assumption']).toContain('slip.path')
    expect(advanced.components.responses.MethodNotAllowed['x-relay-assumption']).toContain('slip.method')
    const named = [advanced, simple]
      .flatMap((document) => JSON.stringify(document).match(/"x-relay-assumption":\[[^\]]*\]/g) ?? [])
      .flatMap((match) => JSON.parse(match.slice(match.indexOf('['))) as string[])
    for (const id of named) expect(assumption(id), id).toBeDefined()
  })

  it('marks no answer of a route with an assumption it does not rest on', () => {
    for (const route of serviceRoutes) expect(answerAssumptions({ route, status: 500 })).toEqual(['error.body'])
  })
})
