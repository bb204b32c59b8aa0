// Checking a captured conversation: `conform --har` writes one, `conform --from` reads one back.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCapture } from '../../src/devtools/live/capture.js'
import { checkHarFile } from '../../src/node/from-har.js'
import { createHarReporter } from '../../src/node/reporters/har.js'
import { runConformance, type ClientFunction } from '../../src/node/runner.js'
import type { RunResult } from '../../src/core/rules/types.js'
import { converse } from './fixtures.js'
import { harValidator } from './har-schema.js'

/** An advanced client that never links the vehicle it creates to the company. */
const skipsCustodian: ClientFunction = async function skipsCustodian(visit, env) {
  const call = async (method: string, path: string, body?: unknown) =>
    (await fetch(`${env.RELAY_BASE_URL}${path}`, { method, headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })).json() as Promise<any>
  const [company] = await call('GET', `/rental-companies?kennitala=${visit.ownerKennitala}`)
  if (!company) return { outcome: 'skipped' }
  let [vehicle] = await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (!vehicle) vehicle = await call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
  const payment = await call('POST', '/payments', { locationId: visit.locationId, vehicleId: vehicle.id, amount: { amount: visit.amount, currency: visit.currency }, startedOn: visit.visitStart, endedOn: visit.visitEnd })
  return { outcome: 'paid', paymentId: payment.id }
}

let dir: string
let harFile: string
let run: RunResult
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-capture-'))
  harFile = join(dir, 'run.har')
  run = await runConformance({ client: skipsCustodian, cases: ['advanced/new-vehicle', 'advanced/existing-vehicle', 'advanced/unknown-owner'], jobs: 3, reporters: [createHarReporter({ file: harFile })] })
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const brokenBy = (result: RunResult) =>
  Object.fromEntries(result.cases.map((c) => [c.id, c.checks.filter((k) => k.status === 'failed').map((k) => k.rule)]))

describe('conform --har', () => {
  it('writes every case\'s requests as valid HAR 1.2, a page per case, under each case\'s address', async () => {
    const har = JSON.parse(await readFile(harFile, 'utf8'))
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
    expect(har.log.pages.map((p: any) => p.id)).toEqual(run.cases.map((c) => c.id))
    expect(har.log.entries).toHaveLength(run.cases.reduce((n, c) => n + c.requests.length, 0))
    expect(har.log.entries.every((e: any) => /^http:\/\/127\.0\.0\.1:\d+\//.test(e.request.url))).toBe(true)
  })
})

describe('conform --from', () => {
  it('reads the run back with the same verdicts, case by case, even though the cases ran in parallel', async () => {
    const back = await checkHarFile(harFile)
    expect(back.cases.map((c) => c.id)).toEqual(run.cases.map((c) => c.id))
    const ruled = (result: RunResult) => Object.fromEntries(Object.entries(brokenBy(result)).map(([id, rules]) => [id, rules.filter((r) => !r.startsWith('client.'))]))
    expect(brokenBy(back)).toEqual(ruled(run))
    expect(brokenBy(back)['advanced/new-vehicle']).toContain('advanced.custodian-after-create')
  })

  it('skips the rules that need the visit\'s inputs rather than passing them', async () => {
    const back = await checkHarFile(harFile)
    const completes = back.cases[0].checks.find((c) => c.rule === 'client.completes')
    expect(completes?.status).toBe('skipped')
  })

  it('refuses a file that is not there, saying what to pass', async () => {
    await expect(checkHarFile(join(dir, 'missing.har'))).rejects.toMatchObject({ code: 'HAR_UNREADABLE', message: expect.stringMatching(/no such file.*Please pass a HAR 1\.2 file/) })
  })

  it('refuses a capture with no request to the service, naming the hosts it saw', async () => {
    const file = join(dir, 'other.har')
    const entry = { startedDateTime: '2026-11-21T10:00:00Z', time: 1, request: { method: 'GET', url: 'https://cdn.example/app.js', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 }, response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: 'text/javascript' }, redirectURL: '', headersSize: -1, bodySize: 0 }, cache: {}, timings: { send: 0, wait: 1, receive: 0 } }
    await writeFile(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } }))
    await expect(checkHarFile(file)).rejects.toMatchObject({ code: 'HAR_EMPTY', message: expect.stringContaining('cdn.example') })
  })

  it('exits 1 from the command line when a visit broke a rule, and writes the HTML report', () => {
    const html = join(dir, 'from.html')
    const result = spawnSync(process.execPath, ['bin/relay-mock.js', 'conform', '--from', harFile, '--html', html], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 })
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/✗ advanced\/new-vehicle/)
    expect(result.stdout).toMatch(/Not checked \(a capture has no visit inputs, no client exit status\): .*client\.completes/)
    return readFile(html, 'utf8').then((page) => expect(page).toContain('visits failed'))
  })

  it('exits 2 from the command line when given neither a client nor a capture', () => {
    const result = spawnSync(process.execPath, ['bin/relay-mock.js', 'conform'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 })
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/^relay-mock conform: --client is missing: expected the command that runs your client .*--from FILE\.har/)
  })
})

describe('checkCapture', () => {
  it('names the visits of a single conversation visit-1, visit-2, … and judges each', async () => {
    const { entries } = await converse('default', (w) => [
      { method: 'GET', url: `/rental-companies?kennitala=${w.hints.unknownKennitala}` },
      { method: 'POST', url: '/payment', body: {} },
    ])
    const result = checkCapture([{ id: 'x', entries }], { source: 'capture.har', version: '0.1.0' })
    expect(result.cases.map((c) => [c.id, c.flow, c.status])).toEqual([
      ['visit-1', 'advanced', 'passed'],
      ['visit-2', 'simple', 'failed'],
    ])
    expect(result.summary).toMatchObject({ total: 2, passed: 1, failed: 1, client: 'capture.har' })
  })
})
