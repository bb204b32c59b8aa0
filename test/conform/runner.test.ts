// The runner with real client processes: the environment contract, timeouts that kill the whole
// tree, nothing left behind, set-up errors, and in-process function clients.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { RelayMockError } from '../../src/core/service/mock.js'
import type { CaseResult } from '../../src/core/rules/types.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { selectCases } from '../../src/node/runner/select.js'
import type { RelayEnv } from '../../src/node/runner/contract.js'

const DEFECTIVE = 'node test/conform/clients/defective.mjs'

/** The command lines of running processes that contain `marker`. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
}

describe('runConformance with a command', () => {
  it('gives the client the contract variables, RELAY_VISIT with the location and the flow', async () => {
    const result = await runConformance({
      client: 'env | grep ^RELAY_ | sort',
      cases: ['advanced/same-start-end'],
      jobs: 1,
    })
    const [kase] = result.cases
    const env = Object.fromEntries(
      kase.stdout
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
    expect(Object.keys(env).sort()).toEqual(
      [
        'RELAY_AMOUNT',
        'RELAY_API_TOKEN',
        'RELAY_BASE_URL',
        'RELAY_CURRENCY',
        'RELAY_FLOW',
        'RELAY_LOCATION_ID',
        'RELAY_OWNER_KENNITALA',
        'RELAY_PLATE',
        'RELAY_REGISTRATION_DATE',
        'RELAY_REQUEST_TIMEOUT_MS',
        'RELAY_RESULT_FILE',
        'RELAY_VISIT',
        'RELAY_VISIT_END',
        'RELAY_VISIT_START',
      ].sort(),
    )
    expect(env.RELAY_FLOW).toBe('advanced')
    expect(env.RELAY_VISIT_START).toBe('2026-11-21 10:00:00')
    expect(env.RELAY_VISIT_END).toBe(env.RELAY_VISIT_START)
    expect(env.RELAY_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(JSON.parse(env.RELAY_VISIT)).toEqual({ ...kase.visit, flow: 'advanced' })
    expect(kase.visit?.locationId).toBe(env.RELAY_LOCATION_ID)
  })

  it('gives each case its own token and world', async () => {
    const result = await runConformance({ client: 'echo $RELAY_API_TOKEN', flows: ['simple'], jobs: 2 })
    const tokens = result.cases.map((kase) => kase.stdout.trim())
    expect(new Set(tokens).size).toBe(result.cases.length)
    expect(new Set(result.cases.map((kase) => kase.worldId)).size).toBe(result.cases.length)
  })

  it('kills the whole process tree of a client that hangs, and reports it timed out', async () => {
    const marker = '317.125'
    const result = await runConformance({
      client: `${DEFECTIVE} spawn-sleeper ${marker}`,
      cases: ['simple/accepted'],
      jobs: 1,
      timeoutMs: 1000,
    })
    expect(result.cases[0]).toMatchObject({ timedOut: true, status: 'failed' })
    expect(result.cases[0].checks.find((check) => check.rule === 'client.completes')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('killed with its whole process tree'),
    })
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })

  it('leaves nothing behind when a client exits 0 with a child still running', async () => {
    const marker = '318.375'
    const result = await runConformance({
      client: `sleep ${marker} & echo started`,
      cases: ['simple/accepted'],
      jobs: 1,
    })
    expect(result.cases[0]).toMatchObject({ exitCode: 0, timedOut: false })
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })

  it('reports a command that is not found as a set-up error, not as failed rules', async () => {
    const ended: CaseResult[] = []
    const run = runConformance({
      client: 'relay-mock-no-such-client --flag',
      jobs: 2,
      reporters: [{ onCaseEnd: (result) => void ended.push(result) }],
    })
    await expect(run).rejects.toThrow(RelayMockError)
    await expect(run).rejects.toMatchObject({
      code: 'CLIENT_NOT_FOUND',
      message: expect.stringContaining(
        'the client command could not start: relay-mock-no-such-client --flag (exit 127',
      ),
    })
    expect(ended).toEqual([])
  })

  it('ends its other clients when a case cannot be set up, and reports the set-up error', async () => {
    const marker = '320.875'
    const suite = [
      {
        id: 'advanced/broken',
        flow: 'advanced' as const,
        scenario: 'no-such-scenario',
        title: 'cannot be seeded',
        outcome: 'paid' as const,
      },
      {
        id: 'advanced/fine',
        flow: 'advanced' as const,
        scenario: 'existing-vehicle',
        title: 'runs',
        outcome: 'paid' as const,
      },
    ]
    await expect(runConformance({ client: `sleep ${marker}`, suite, jobs: 2 })).rejects.toMatchObject({
      code: 'SCENARIO_NOT_FOUND',
    })
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  })

  it('keeps only the first bytes of a chatty client', async () => {
    const result = await runConformance({
      client: 'head -c 200000 /dev/zero | tr "\\0" x',
      cases: ['simple/accepted'],
      jobs: 1,
      outputLimit: 1000,
    })
    expect(result.cases[0].stdout).toMatch(/^x{1000}\n\[\.\.\. 199000 more bytes not kept\]$/)
  })

  it('measures the client time and the wall time of the run', async () => {
    const result = await runConformance({
      client: 'sleep 0.2',
      flows: ['simple'],
      cases: ['simple/accepted', 'simple/rejected'],
      jobs: 1,
    })
    expect(result.summary.clientMs).toBe(result.cases.reduce((sum, kase) => sum + kase.durationMs, 0))
    expect(result.summary.clientMs).toBeGreaterThanOrEqual(400)
    expect(result.summary.wallMs).toBeGreaterThanOrEqual(result.summary.clientMs)
  })

  it('reports the cases in suite order whatever order they end in', async () => {
    const result = await runConformance({ client: 'sleep 0.$((RANDOM % 3))', flows: ['simple'], jobs: 3 })
    expect(result.cases.map((kase) => kase.id)).toEqual(selectCases({ flows: ['simple'] }).map((kase) => kase.id))
  })
})

describe('runConformance with a function client', () => {
  it('passes the visit and the same variables, and serves the case over HTTP', async () => {
    let seen: { visit: unknown; env: RelayEnv } | undefined
    const result = await runConformance({
      client: async (visit, env) => {
        seen = { visit, env }
        await fetch(`${env.RELAY_BASE_URL}/rental-companies?kennitala=${visit.ownerKennitala}`, {
          headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
        })
        return { outcome: 'skipped' }
      },
      cases: ['advanced/unknown-owner'],
    })
    expect(JSON.parse(seen!.env.RELAY_VISIT)).toEqual(seen!.visit)
    expect(result.cases[0]).toMatchObject({ status: 'passed', report: { outcome: 'skipped' } })
    expect(result.cases[0].requests.map((entry) => entry.route)).toEqual(['GET /rental-companies'])
  })

  it('journals every body the mock reads whole, so a long but valid payment body is checked, not skipped', async () => {
    const result = await runConformance({
      client: async (visit, env) => {
        const headers = { authorization: `Bearer ${env.RELAY_API_TOKEN}`, 'content-type': 'application/json' }
        const body = {
          location: visit.locationId,
          vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
          visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
          payment: { amount: visit.amount, currency: visit.currency },
        }
        const answer = await fetch(`${env.RELAY_BASE_URL}/payment`, {
          method: 'POST',
          headers,
          body: `${' '.repeat(10_000)}${JSON.stringify(body)}`,
        })
        const { id } = (await answer.json()) as { id: string }
        return { outcome: 'paid', paymentId: id }
      },
      cases: ['simple/accepted'],
    })
    expect(result.cases[0].requests[0].request).not.toHaveProperty('bodyTruncated')
    expect(result.cases[0].checks.find((check) => check.rule === 'simple.body')).toMatchObject({ status: 'passed' })
  })

  it("records relay-mock's version as package.json gives it (the one version source)", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    const result = await runConformance({
      client: () => Promise.resolve({ outcome: 'skipped' }),
      cases: ['advanced/unknown-owner'],
    })
    expect(result.summary.version).toBe(version)
  })

  it("tells every reporter of every request though one reporter's onRequest throws, and blames no client for it", async () => {
    const heard: string[] = []
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const result = await runConformance({
        client: async (visit, env) => {
          await fetch(`${env.RELAY_BASE_URL}/rental-companies?kennitala=${visit.ownerKennitala}`, {
            headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}` },
          })
          return { outcome: 'skipped' }
        },
        cases: ['advanced/unknown-owner'],
        reporters: [
          {
            onRequest() {
              throw new Error('a reporter broke')
            },
          },
          { onRequest: (entry) => void heard.push(entry.route ?? '') },
        ],
      })
      expect(heard).toEqual(['GET /rental-companies'])
      expect(result.cases[0].status).toBe('passed')
      expect(reported.mock.calls.map((call) => String(call[0]))).toEqual([
        expect.stringContaining('a journal subscriber failed on journal entry 1 (a reporter broke)'),
      ])
    } finally {
      reported.mockRestore()
    }
  })

  it('counts a thrown error as exit 1', async () => {
    const result = await runConformance({
      client: () => Promise.reject(new Error('no network')),
      cases: ['advanced/unknown-owner'],
    })
    expect(result.cases[0]).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('no network') })
    expect(result.cases[0].checks.find((check) => check.rule === 'client.completes')?.status).toBe('failed')
  })

  it('names the summary client after the function', async () => {
    const result = await runConformance({ client: async function myLocationClient() {}, cases: ['simple/accepted'] })
    expect(result.summary.client).toBe('myLocationClient')
  })
})

describe('selectCases', () => {
  it('selects a flow', () => {
    expect(selectCases({ flows: ['simple'] }).every((kase) => kase.flow === 'simple')).toBe(true)
  })

  it('selects by id prefix', () => {
    expect(selectCases({ cases: ['advanced/*'] }).map((kase) => kase.flow)).not.toContain('simple')
  })

  it('selects by a glob anywhere in the id: * takes any run of characters, / included, and ? one', () => {
    const ids = (...cases: string[]) => selectCases({ cases }).map((kase) => kase.id)
    const unavailable = ids('resilience/*/unavailable/*')
    expect(unavailable).toEqual(
      selectCases({ suites: ['resilience'] })
        .filter((kase) => kase.cell?.kind === 'unavailable')
        .map((kase) => kase.id),
    )
    expect(unavailable.length).toBeGreaterThan(4)
    expect(ids('*/existing-vehicle')).toEqual(['advanced/existing-vehicle'])
    expect(ids('resilience/*-lookup/hang/once')).toEqual([
      'resilience/company-lookup/hang/once',
      'resilience/vehicle-lookup/hang/once',
    ])
    expect(ids('simple/rejected?ok-status')).toEqual(['simple/rejected-ok-status'])
    // The characters of an id stand for themselves: a dot is not any character.
    expect(() => selectCases({ cases: ['variants/create.status=200-no-location/advanced.new-vehicle'] })).toThrow(
      /Failed to find the case/,
    )
    // A trailing * and a trailing / still select by prefix.
    expect(ids('resilience/payment-create/*')).toEqual(ids('resilience/payment-create/'))
  })

  it('refuses an unknown case in one sentence with the nearest ids and a glob per suite, not every id', () => {
    let message = ''
    try {
      selectCases({ cases: ['resilience/*/unavailble/*'] })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe(
      'Failed to find the case "resilience/*/unavailble/*": no case matches it. Please use an id such as resilience/company-lookup/unavailable/once, resilience/company-lookup/unavailable/always or resilience/vehicle-lookup/unavailable/once (the nearest), or a glob such as advanced/*, simple/*, resilience/* or variants/*.',
    )
    expect(() => selectCases({ cases: ['advanced/nope'] })).toThrow(
      /^Failed to find the case "advanced\/nope": no case matches it\. Please use an id such as advanced\//,
    )
  })

  it('refuses an unknown flow', () => {
    expect(() => selectCases({ flows: ['fancy' as 'simple'] })).toThrow(/no flow "fancy"/)
  })
})
