// conform --explore: generated visits over the whole space the interface allows, the same for the same
// seed, each valid to the schemas the service checks requests with; and a client with an encoding bug
// shrunk to the smallest visit that breaks it, handed back as an entry a cases file accepts.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { amountValue, date, plate, timestamp } from '../../src/core/service/schemas.js'
import { explore, exploredVisits } from '../../src/node/runner/explore.js'
import { loadCases } from '../../src/node/files/user-cases.js'
import { createQuirkyClient } from './clients/quirky.js'
import { CLI_ENV, ROOT, useBuiltCli } from '../support/cli.js'

useBuiltCli('relay-mock-explore-')

/** The built CLI, as a user runs it: its exit code and output. */
const relayMock = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['bin/relay-mock.js', ...args], { cwd: ROOT, env: CLI_ENV }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })

describe('the generated visits', () => {
  it('are the same for the same seed, and others for another', async () => {
    const first = await exploredVisits(50, 1234)
    expect(await exploredVisits(50, 1234)).toEqual(first)
    expect(await exploredVisits(50, 1235)).not.toEqual(first)
  })

  it('are each valid to the schemas the service reads them with, and reach into the corners of the space', async () => {
    const visits = await exploredVisits(400, 99)
    for (const { visit } of visits) {
      if (visit.plate !== undefined) expect(plate.safeParse(visit.plate).success, visit.plate).toBe(true)
      if (visit.amount !== undefined)
        expect(amountValue.safeParse(visit.amount).success, String(visit.amount)).toBe(true)
      if (visit.registrationDate !== undefined)
        expect(date.safeParse(visit.registrationDate).success, visit.registrationDate).toBe(true)
      if (visit.visitStart !== undefined) {
        expect(
          timestamp.safeParse(visit.visitStart).success && timestamp.safeParse(visit.visitEnd).success,
          `${visit.visitStart} - ${visit.visitEnd}`,
        ).toBe(true)
        expect(visit.visitEnd! >= visit.visitStart).toBe(true)
      }
    }
    const plates = visits.flatMap(({ visit }) => (visit.plate === undefined ? [] : [visit.plate]))
    expect(plates.some((p) => /[ÁÐÉÍÓÚÝÞÆÖáðéíóúýþæö]/.test(p))).toBe(true)
    expect(plates.some((p) => p.includes(' '))).toBe(true)
    expect(plates.some((p) => p.includes('-'))).toBe(true)
    expect(plates.some((p) => /^[^A-Z]*[a-z][^A-Z]*$/.test(p))).toBe(true)
    expect(new Set(visits.map(({ flow }) => flow))).toEqual(new Set(['advanced', 'simple']))
    const amounts = visits.flatMap(({ visit }) => (visit.amount === undefined ? [] : [visit.amount]))
    expect(Math.min(...amounts)).toBeLessThan(10)
    expect(Math.max(...amounts)).toBeGreaterThan(900_000_000)
    expect(
      visits.some(
        ({ visit }) => visit.visitStart !== undefined && visit.visitStart.slice(0, 10) !== visit.visitEnd!.slice(0, 10),
      ),
    ).toBe(true)
    expect(visits.some(({ visit }) => visit.registrationDate !== undefined && visit.registrationDate < '1970')).toBe(
      true,
    )
  })
})

describe('explore', () => {
  it('shrinks a client that pastes the plate into the query unencoded to the smallest visit that breaks it: an advanced visit that changes the plate alone, to a short one that needs encoding', async () => {
    const result = await explore({
      client: createQuirkyClient({ pastePlate: true }),
      runs: 20,
      seed: 7,
      jobs: 8,
      timeoutMs: 10_000,
    })
    expect(result.results.filter((r) => r.status === 'failed').length).toBeGreaterThan(0)
    const smallest = result.smallest!
    expect(smallest.explored.flow).toBe('advanced')
    expect(Object.keys(smallest.explored.visit)).toEqual(['plate'])
    const shrunk = smallest.explored.visit.plate!
    expect(shrunk).toMatch(/[^A-Za-z0-9._~-]/)
    expect(shrunk.length).toBeLessThanOrEqual(3)
    expect(smallest.shrinks).toBeGreaterThan(0)
    expect(smallest.result.checks.find((check) => check.rule === 'advanced.vehicle-lookup')?.message).toContain(
      `The plate \`${shrunk}\` never reached the service: percent-encode query values`,
    )

    // The entry is one a cases file takes as it is, and the case it makes breaks the client again.
    const dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-explore-'))
    try {
      const file = join(dir, 'cases.json')
      await writeFile(file, JSON.stringify({ cases: [smallest.entry] }))
      const { cases } = await loadCases(file)
      expect(cases.map((kase) => [kase.id, kase.flow, kase.visit])).toEqual([
        [smallest.entry.id, 'advanced', { plate: shrunk }],
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('finds nothing to shrink in a correct client', async () => {
    const result = await explore({ client: createQuirkyClient(), runs: 20, seed: 7, jobs: 8, timeoutMs: 10_000 })
    expect(
      result.results
        .filter((r) => r.status === 'failed')
        .map(
          (r) =>
            `${r.id}: ${r.checks
              .filter((c) => c.status === 'failed')
              .map((c) => c.message)
              .join(' ')}`,
        ),
    ).toEqual([])
    expect(result.smallest).toBeUndefined()
  })
})

describe('conform --explore', () => {
  it.concurrent('runs the visits of its seed and says none broke a correct client (exit 0)', async () => {
    const run = await relayMock(
      'conform',
      '--client',
      'node test/conform/clients/defective.mjs none',
      '--explore',
      '3',
      '--seed',
      '3',
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('3 visits generated: 3 passed, 0 broke the client.')
    expect(run.stdout).toContain('No visit of seed 3 broke the client')
    expect(run.code).toBe(0)
  })

  it.concurrent(
    'refuses a count that is no number of visits, and the options that choose cases, in one line (exit 2)',
    async () => {
      const none = await relayMock('conform', '--client', 'true', '--explore', '0')
      expect([none.code, none.stderr.trim()]).toEqual([
        2,
        'relay-mock conform: --explore "0" is not a number of visits: expected an integer 1-100000.',
      ])
      const both = await relayMock('conform', '--client', 'true', '--explore', '5', '--case', 'advanced/new-vehicle')
      expect([both.code, both.stderr.trim()]).toEqual([
        2,
        'relay-mock conform: --explore and --case cannot be used together: expected one of them.',
      ])
    },
  )
})
