// Calibration: a report of the probe against a stand-in that answers otherwise than relay-mock, served
// back as the stand-in answers (in process, on the wire with serve --calibrate, and under conform).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRelayService } from '../../src/core/service/mock.js'
import { messagePath, readCalibration } from '../../src/core/service/calibration.js'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { CLI_ENV, ROOT, runCli, useBuiltCli } from '../support/cli.js'
import { closeAfterEach } from '../support/proxy.js'
import { createReferenceClient, referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { calibrationLine } from '../../src/node/reporters/console.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { STAND_IN_TOKEN, standInReport } from '../support/stand-in.js'

closeAfterEach()
const scratch = useBuiltCli('relay-mock-calibrate-')

const TOKEN = 'relay-mock-token'
const ask = (
  service: Awaited<ReturnType<typeof createRelayService>>,
  method: string,
  url: string,
  body?: unknown,
  token: string | null = TOKEN,
) =>
  service.handle({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('calibration', () => {
  it('keeps in the report the answers that contradicted each assumption, and no token', async () => {
    const { report } = await standInReport()
    const text = JSON.stringify(report)
    expect(text).not.toContain(STAND_IN_TOKEN.slice(0, -4))
    const errorBody = report.assumptions.find((a: any) => a.id === 'error.body')
    expect(errorBody.observed[0]).toMatchObject({
      status: expect.any(Number),
      headers: { 'content-type': 'application/json' },
      body: { error: { code: expect.any(String), message: expect.any(String) } },
    })
    const extra = report.assumptions.find((a: any) => a.id === 'records.extra-fields')
    expect(extra.observed[0].extra).toEqual({ registeredAt: '2024-03-01T10:00:00Z' })
    // A success keeps its fields' types, not the record's data.
    expect(JSON.stringify(report.assumptions.find((a: any) => a.id === 'simple.answer').observed)).not.toMatch(
      /[0-9a-f]{8}-[0-9a-f]{4}-/,
    )
  })

  it('answers as the stand-in was seen to: its error shape with the message in its place, its statuses, headers and extra fields', async () => {
    const { report } = await standInReport()
    const service = await createRelayService({ scenario: 'new-vehicle', tokens: [TOKEN], calibration: report })
    const unknown = await ask(service, 'GET', '/vehicle')
    expect(unknown.status).toBe(404)
    expect(unknown.headers['content-type']).toBe('application/json')
    const body = JSON.parse(unknown.text)
    expect(Object.keys(body)).toEqual(['error'])
    expect(body.error).toMatchObject({ code: expect.any(String), message: expect.stringMatching(/\/vehicle/) })
    const refused = await ask(service, 'GET', '/vehicles?plate=AB123', undefined, null)
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.text).error.message).toMatch(/Authorization/)
    const invalid = await ask(service, 'POST', '/vehicles', { plate: 7, country: 'is' })
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.text).error.message).toMatch(/plate/)
    const created = await ask(service, 'POST', '/vehicles', { plate: 'QQ9Q9', country: 'is' })
    expect(created.status).toBe(201)
    expect(created.headers.location).toBeUndefined()
    expect(JSON.parse(created.text)).toMatchObject({
      id: expect.any(String),
      link: expect.any(String),
      registeredAt: '2024-03-01T10:00:00Z',
    })
    const listed = JSON.parse((await ask(service, 'GET', '/vehicles?plate=QQ9Q9')).text)
    expect(listed[0].registeredAt).toBe('2024-03-01T10:00:00Z')
    const link = await ask(service, 'GET', JSON.parse(created.text).link)
    expect(link.status).toBe(404)
    expect(JSON.parse(link.text).error.message).toMatch(/cannot be fetched/)
    const world = [...service.worlds.values()][0]
    const simple = await ask(service, 'POST', '/payment', {
      location: world.location.id,
      vehicle: {
        owner: world.visit.ownerKennitala,
        plate: world.visit.plate,
        acquiredOn: world.visit.registrationDate,
      },
      visit: { startedOn: world.visit.visitStart, endedOn: world.visit.visitEnd },
      payment: { amount: world.visit.amount, currency: world.visit.currency },
    })
    expect(simple.status).toBe(200)
    expect(JSON.parse(simple.text)).toMatchObject({ id: expect.any(String), status: 'accepted' })
  })

  it('refuses a report it cannot read in one sentence that says why', () => {
    expect(() => readCalibration([], 'a.json')).toThrow(
      /^Failed to read the calibration a\.json: it is not a JSON object\. Please give the assumptions\.json/,
    )
    expect(() => readCalibration({ log: { entries: [] } }, 'a.har')).toThrow(/it is not an assumptions report/)
    expect(() =>
      readCalibration({ upstream: 'http://x', assumptions: [{ id: 'no.such', status: 'unseen' }] }, 'old.json'),
    ).toThrow(/names the assumption "no\.such", which relay-mock's ledger no longer has/)
    expect(() =>
      readCalibration(
        { upstream: 'http://x', assumptions: [{ id: 'error.body', status: 'contradicted' }] },
        'old.json',
      ),
    ).toThrow(/keeps none of the answers/)
  })

  it('learns no error shape from an answer that was not JSON', async () => {
    const report = {
      upstream: 'https://staging.example',
      assumptions: [
        {
          id: 'error.body',
          status: 'contradicted',
          observed: [
            {
              request: 'GET /vehicle',
              relayMock: 'application/problem+json with message',
              status: 404,
              headers: { 'content-type': 'text/html' },
            },
          ],
        },
      ],
    }
    const service = await createRelayService({ tokens: [TOKEN], calibration: report })
    const answer = await ask(service, 'GET', '/vehicle')
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(JSON.parse(answer.text).message).toMatch(/vehicle/)
  })

  it('finds the message where a service put it', () => {
    expect(messagePath({ error: { code: 'x', message: 'm' } })).toEqual(['error', 'message'])
    expect(messagePath({ errors: [{ detail: 'd' }], title: 'Bad' })).toEqual(['title'])
    expect(messagePath({ fault: { reason: 'a long reason', code: 'x' } })).toEqual(['fault', 'reason'])
  })
})

describe('serve --calibrate', () => {
  it("answers the stand-in's shapes on the wire, and says in its banner against what it was calibrated", async () => {
    const { path, report } = await standInReport()
    const child = spawn(process.execPath, ['bin/relay-mock.js', 'serve', '--port', '0', '--calibrate', path], {
      cwd: ROOT,
      env: CLI_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.setEncoding('utf8')
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk
        const match = /serving the relay service at (http:\/\/\S+)/.exec(stdout)
        if (match && /calibrated/.test(stdout)) resolve(match[1])
      })
      child.once('exit', (code) => reject(new Error(`serve ended (${code})`)))
    })
    try {
      expect(stdout).toContain(
        `calibrated  against ${report.upstream}, as seen on ${report.date.slice(0, 10)}: answers as observed for `,
      )
      const token = /token\s+(\S+)/.exec(stdout)![1]
      const answer = await fetch(`${url}/vehicle`, { headers: { authorization: `Bearer ${token}` } })
      expect(answer.status).toBe(404)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(await answer.json()).toEqual({ error: { code: 'not_found', message: expect.stringMatching(/vehicle/) } })
      const created = await fetch(`${url}/vehicles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plate: 'QQ9Q9', country: 'is' }),
      })
      expect(created.status).toBe(201)
      expect(created.headers.get('location')).toBeNull()
      expect(await created.json()).toMatchObject({ registeredAt: '2024-03-01T10:00:00Z' })
    } finally {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  })

  it('refuses a calibration it cannot read in one line, exit 2: missing, another format, an assumption that no longer exists', async () => {
    const other = join(scratch(), 'other.json')
    writeFileSync(other, JSON.stringify({ log: { version: '1.2', entries: [] } }))
    const old = join(scratch(), 'old.json')
    writeFileSync(
      old,
      JSON.stringify({
        upstream: 'https://staging.example',
        assumptions: [{ id: 'create.location', status: 'confirmed' }],
      }),
    )
    for (const [file, why] of [
      [join(scratch(), 'none.json'), /--calibrate .*none\.json/],
      [other, /it is not an assumptions report/],
      [old, /names the assumption "create\.location", which relay-mock's ledger no longer has/],
    ] as const) {
      const run = await runCli(['serve', '--port', '0', '--calibrate', file])
      expect(run.code, file).toBe(2)
      expect(run.stderr.trim().split('\n'), file).toHaveLength(1)
      expect(run.stderr, file).toMatch(why)
    }
  })
})

describe('conform --calibrate', () => {
  /** A client written against relay-mock's answers: it reads every error's `message` at the top, and breaks where there is none. */
  const topMessageClient = createReferenceClient({
    fetch: async (input, init) => {
      const answer = await fetch(input, init)
      if (answer.status >= 400) {
        const body = (await answer
          .clone()
          .json()
          .catch(() => ({}))) as { message?: unknown }
        if (typeof body.message !== 'string')
          throw new TypeError("Cannot read properties of undefined (reading 'length'): the error's message")
      }
      return answer
    },
  })
  const cases = [
    'resilience/payment-create/unavailable/once',
    'advanced/new-vehicle',
    'simple/accepted',
    'simple/unknown-owner',
    'variants/*',
  ]

  it("fails a client that works against relay-mock's answers but not the stand-in's, passes the correct one, and says against what it ran", async () => {
    const { report } = await standInReport()
    const plain = await runConformance({ client: topMessageClient, cases, jobs: 4 })
    expect(
      plain.summary.failed,
      plain.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => c.id)
        .join(', '),
    ).toBe(0)
    const calibrated = await runConformance({ client: topMessageClient, cases, jobs: 4, calibration: report })
    expect(calibrated.cases.find((c) => c.id === 'resilience/payment-create/unavailable/once')?.status).toBe('failed')
    const correct = await runConformance({ client: referenceClient, cases, jobs: 4, calibration: report })
    expect(
      correct.summary.failed,
      correct.cases
        .filter((c) => c.status !== 'passed')
        .map(
          (c) =>
            `${c.id} ${c.checks
              .filter((k) => k.status === 'failed')
              .map((k) => k.rule)
              .join(',')}`,
        )
        .join('; '),
    ).toBe(0)
    // The service's unknown-owner payment is recorded: a correct client reports paid.
    expect(correct.cases.find((c) => c.id === 'simple/unknown-owner')?.status).toBe('passed')
    // A calibrated assumption is no longer varied; one the stand-in confirmed still is.
    const ids = correct.cases.map((c) => c.id)
    expect(ids.some((id) => id.startsWith('variants/error.body='))).toBe(false)
    expect(ids.some((id) => id.startsWith('variants/auth.refusal='))).toBe(true)
    expect(correct.summary.calibration).toMatchObject({
      upstream: report.upstream,
      date: report.date,
      calibrated: expect.arrayContaining(['error.body', 'create.status']),
      variantCasesLeftOut: expect.any(Number),
    })
    expect(calibrationLine(correct.summary.calibration!)).toMatch(
      /^Calibrated against http:\/\/127\.0\.0\.1:\d+, as seen on \d{4}-\d{2}-\d{2}: answered as observed for /,
    )
    expect(toHtmlReport(correct)).toContain(`<dt>Calibrated</dt><dd>Calibrated against ${report.upstream}`)
  })

  it('says why when every case selected varies a calibrated assumption', async () => {
    const { report } = await standInReport()
    await expect(
      runConformance({ client: referenceClient, cases: ['variants/error.body=*'], calibration: report }),
    ).rejects.toThrow(
      /the \d+ cases selected vary assumptions the calibration answers as the real service does \(.*error\.body.*\), and a calibrated assumption is no longer varied/,
    )
  })

  it('refuses a calibration it cannot read in one line, exit 2', async () => {
    const run = await runCli(['conform', '--client', 'true', '--calibrate', join(scratch(), 'none.json')])
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })
})
