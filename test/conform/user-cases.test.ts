// Cases of the user's own: a cases file read into conformance cases (with field errors for a bad
// one), and `relay-mock conform --cases` running them with a correct client and a broken one.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RelayMockError } from '../../src/core/errors.js'
import { loadCases } from '../../src/node/files/user-cases.js'
import { needs } from '../support/needs.js'

// The Python example.
needs('python3', 'urllib3')

const root = fileURLToPath(new URL('../..', import.meta.url))
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined }
const EXAMPLE = 'examples/cases.json'
const OWN_IDS = [
  'glansi/van/advanced',
  'glansi/van/simple',
  'glansi/retired-van',
  'glansi/new-van/advanced',
  'glansi/new-van/simple',
  'glansi/large-amount',
]

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-cases-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function relayMock(...args: string[]) {
  const child = spawn(process.execPath, ['bin/relay-mock.js', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }))
}

const entry = { id: 'mine/one', title: 'One visit', scenario: 'existing-vehicle', flow: 'simple', outcome: 'paid' }

/** The message loading `content` as a cases file fails with (one line, a RelayMockError). */
async function casesError(content: unknown): Promise<string> {
  const path = join(dir, 'cases.json')
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content))
  const error = await loadCases(path).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(RelayMockError)
  expect((error as Error).message).not.toContain('\n')
  return (error as Error).message
}

describe('a cases file', () => {
  it('becomes one case per flow, with its scenario files loaded and its outcomes per flow', async () => {
    const { cases, scenarios } = await loadCases(EXAMPLE)
    expect(cases.map((kase) => kase.id)).toEqual(OWN_IDS)
    expect(scenarios.map((s) => s.name).sort()).toEqual(['glansi-fleet', 'new-van'])
    expect(cases.find((k) => k.id === 'glansi/van/simple')).toMatchObject({
      flow: 'simple',
      scenario: 'glansi-fleet',
      outcome: 'paid',
    })
    expect(cases.find((k) => k.id === 'glansi/retired-van')).toMatchObject({
      flow: 'advanced',
      visit: { plate: 'GL456', registrationDate: '2019-06-15' },
    })
    expect(cases.find((k) => k.id === 'glansi/new-van/advanced')).toMatchObject({
      scenario: 'new-van',
      outcome: 'paid',
    })
    expect(cases.find((k) => k.id === 'glansi/new-van/simple')).toMatchObject({
      scenario: 'new-van',
      outcome: 'rejected',
    })
    expect(cases.find((k) => k.id === 'glansi/large-amount')).toMatchObject({
      scenario: 'existing-vehicle',
      visit: { amount: 125000 },
    })
  })

  it('keeps a list of outcomes a correct client may reach', async () => {
    const path = join(dir, 'outcomes.json')
    await writeFile(
      path,
      JSON.stringify({ cases: [{ ...entry, scenario: 'simple-unavailable', outcome: ['rejected', 'paid'] }] }),
    )
    const { cases } = await loadCases(path)
    expect(cases[0]).toMatchObject({ outcome: 'rejected', outcomes: ['rejected', 'paid'] })
  })

  const bad: Array<{ what: string; content: unknown; says: string[] }> = [
    { what: 'no cases', content: { cases: [] }, says: ['cases is empty'] },
    {
      what: 'an outcome that does not exist',
      content: { cases: [{ ...entry, outcome: 'done' }] },
      says: ['cases[0].outcome', 'paid, skipped or rejected', 'found "done"'],
    },
    { what: 'no flow', content: { cases: [{ ...entry, flow: undefined }] }, says: ['cases[0].flow is missing'] },
    {
      what: 'a flow and flows',
      content: { cases: [{ ...entry, flows: ['advanced'] }] },
      says: ['cases[0].flow is given beside flows'],
    },
    {
      what: 'a flow that does not exist',
      content: { cases: [{ ...entry, flow: 'express' }] },
      says: ['cases[0].flow is not a flow', 'expected advanced or simple', 'found "express"'],
    },
    {
      what: 'a per-flow outcome without one of its flows',
      content: { cases: [{ ...entry, flow: undefined, flows: ['advanced', 'simple'], outcome: { advanced: 'paid' } }] },
      says: ['cases[0].outcome.simple is missing'],
    },
    {
      what: 'a visit field of the wrong kind',
      content: { cases: [{ ...entry, visit: { amount: '2500' } }] },
      says: ['cases[0].visit.amount is a string, not a number', 'found "2500"'],
    },
    {
      what: 'a field the schema does not know',
      content: { cases: [{ ...entry, expect: 'paid' }] },
      says: [
        'cases[0].expect is not a known field',
        'expected only the fields id, title, scenario, flow, flows, visit, outcome',
      ],
    },
    {
      what: 'an id a built-in case has',
      content: { cases: [{ ...entry, id: 'simple/accepted' }] },
      says: ["cases[0].id makes the case simple/accepted, which is a built-in case's id too"],
    },
    {
      what: 'a scenario that is neither a built-in nor a file',
      content: { cases: [{ ...entry, scenario: 'existing-vehicel' }] },
      says: [
        'cases[0].scenario is not a scenario',
        'existing-vehicle',
        'or a path to a scenario file',
        'found "existing-vehicel"',
      ],
    },
    {
      what: 'a scenario file that is not there',
      content: { cases: [{ ...entry, scenario: './worlds/gone.json' }] },
      says: ['cases[0].scenario: Failed to load the scenario', 'gone.json: there is no such file'],
    },
    { what: 'text that is not JSON', content: '{"cases": [', says: ['it is not JSON'] },
  ]
  it.each(bad)('is refused with one error naming the field: $what', async ({ content, says }) => {
    const message = await casesError(content)
    expect(message).toMatch(/^Failed to load the cases .*cases\.json: /)
    for (const text of says) expect(message).toContain(text)
  })
})

describe.concurrent('relay-mock conform --cases', () => {
  // A run spawns a CLI and a client per case: on a busy machine that takes longer than a unit test.
  const SLOW = { timeout: 120_000 }

  it('runs the example cases, and a correct client passes them all', SLOW, async () => {
    const json = join(dir, 'own.json')
    const run = await relayMock(
      'conform',
      '--client',
      'python3 examples/clients/python/client.py',
      '--cases',
      EXAMPLE,
      '--case',
      'glansi/*',
      '--json',
      json,
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    for (const id of OWN_IDS) expect(run.stdout).toMatch(new RegExp(`✓ ${id.replace(/\//g, '\\/')} +\\d`))
    expect(run.stdout).toContain('Conformant: 6 cases, 6 passed, 0 failed')
    const report = JSON.parse(await readFile(json, 'utf8'))
    const byId = Object.fromEntries(report.cases.map((kase: { id: string }) => [kase.id, kase]))
    expect(byId['glansi/new-van/simple']).toMatchObject({
      scenario: 'new-van',
      expectedOutcome: 'rejected',
      report: { outcome: 'rejected' },
    })
    expect(byId['glansi/van/advanced']).toMatchObject({
      scenario: 'glansi-fleet',
      visit: { plate: 'GL123', amount: 3990 },
      report: { outcome: 'paid' },
    })
  })

  it('fails a client that breaks a rule in one of the cases, naming the rule', SLOW, async () => {
    const run = await relayMock(
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs create-when-found',
      '--cases',
      EXAMPLE,
      '--case',
      'glansi/*',
      '--flow',
      'advanced',
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/✗ glansi\/van\/advanced +\d/)
    // The retired van is not listed: creating it is what a correct client does too.
    expect(run.stdout).toMatch(/✓ glansi\/retired-van +\d/)
    expect(run.stdout).toContain(
      '✗ glansi/van/advanced — Our own van: pay for it, create nothing (scenario glansi-fleet)',
    )
    expect(run.stdout).toContain('advanced.no-create-when-found')
  })

  it('exits 2 with the field at fault for a bad cases file', SLOW, async () => {
    const path = join(dir, 'bad-cli.json')
    await writeFile(path, JSON.stringify({ cases: [{ ...entry, outcome: 'done' }] }))
    const run = await relayMock('conform', '--client', 'true', '--cases', path)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('cases[0].outcome')
  })
})
