// Checking a captured conversation: `conform --har` writes one (each case's inputs on its page), `conform
// --from` reads one back; a HAR captured elsewhere is checked with the inputs of a `--visits` file, and
// without them its visits are partial, never passed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCapture } from '../../src/devtools/live/capture.js'
import { checkHarFile } from '../../src/node/files/from-har.js'
import { createHarReporter, toCaseInputs } from '../../src/node/reporters/har.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import type { RunResult } from '../../src/core/rules/types.js'
import { converse } from './fixtures.js'
import { harValidator } from './har-schema.js'

/** An advanced client that never links the vehicle it creates to the company. */
const skipsCustodian: ClientFunction = async function skipsCustodian(visit, env) {
  const call = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${env.RELAY_BASE_URL}${path}`, {
        method,
        headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json()
  const [company] = await call('GET', `/rental-companies?kennitala=${visit.ownerKennitala}`)
  if (!company) return { outcome: 'skipped' }
  let [vehicle] = await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (!vehicle) vehicle = await call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
  const payment = await call('POST', '/payments', {
    locationId: visit.locationId,
    vehicleId: vehicle.id,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
  })
  return { outcome: 'paid', paymentId: payment.id }
}

let dir: string
let harFile: string
let run: RunResult
/** A correct client's run, as relay-mock's HAR, and the same HAR with the case inputs taken out (a capture from elsewhere). */
let goodHar: string
let foreignHar: string
let goodRun: RunResult
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-capture-'))
  harFile = join(dir, 'run.har')
  goodHar = join(dir, 'good.har')
  foreignHar = join(dir, 'foreign.har')
  run = await runConformance({
    client: skipsCustodian,
    cases: ['advanced/new-vehicle', 'advanced/existing-vehicle', 'advanced/unknown-owner'],
    jobs: 3,
    reporters: [createHarReporter({ file: harFile })],
  })
  goodRun = await runConformance({
    client: referenceClient,
    cases: ['advanced/new-vehicle', 'simple/accepted'],
    jobs: 1,
    reporters: [createHarReporter({ file: goodHar })],
  })
  const har = JSON.parse(await readFile(goodHar, 'utf8'))
  // As a proxy in front of staging would record it: one address, no pages, no relay-mock fields.
  const entries = har.log.entries.map(({ _relay, pageref, ...entry }: any) => ({
    ...entry,
    request: {
      ...entry.request,
      url: entry.request.url.replace(/^http:\/\/[^/]+/, 'https://staging.relay.example/api'),
    },
  }))
  await writeFile(
    foreignHar,
    JSON.stringify({ log: { version: '1.2', creator: { name: 'proxy', version: '1' }, entries } }),
  )
})

function relayMock(...args: string[]) {
  return spawnSync(process.execPath, ['bin/relay-mock.js', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: undefined },
    timeout: 20_000,
  })
}

const statuses = (result: RunResult) => Object.fromEntries(result.cases.map((c) => [c.id, c.status]))
const checkStatuses = (result: RunResult) => result.cases.map((c) => c.checks.map((k) => `${k.rule}:${k.status}`))
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const brokenBy = (result: RunResult) =>
  Object.fromEntries(result.cases.map((c) => [c.id, c.checks.filter((k) => k.status === 'failed').map((k) => k.rule)]))

describe('conform --har', () => {
  it("writes every case's requests as valid HAR 1.2, a page per case, under each case's address", async () => {
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
    expect(brokenBy(back)).toEqual(brokenBy(run))
    expect(brokenBy(back)['advanced/new-vehicle']).toContain('advanced.custodian-after-create')
  })

  it("checks every rule of relay-mock's own HAR, since each page carries its case's inputs: nothing is left not checked", async () => {
    const back = await checkHarFile(goodHar)
    expect(back.cases.flatMap((c) => c.checks).filter((k) => k.status === 'not-checked')).toEqual([])
    expect(checkStatuses(back)).toEqual(checkStatuses(goodRun))
    expect(statuses(back)).toEqual({ 'advanced/new-vehicle': 'passed', 'simple/accepted': 'passed' })
    expect(back.summary).toMatchObject({ passed: 2, partial: 0, conformant: true })
    expect(back.cases[0].visit).toEqual(goodRun.cases[0].visit)
  })

  it('writes the inputs on each HAR page, the token masked', async () => {
    const har = JSON.parse(await readFile(goodHar, 'utf8'))
    const [page] = har.log.pages
    expect(page._relay).toEqual(toCaseInputs(goodRun.cases[0]))
    expect(page._relay).toMatchObject({
      case: 'advanced/new-vehicle',
      flow: 'advanced',
      outcome: 'paid',
      client: { exitCode: 0, timedOut: false, report: { outcome: 'paid' } },
    })
    expect(page._relay.token).toMatch(/^…\S{4}$/)
  })

  it("reports a capture's visits partial when it carries no inputs: the rules that read the visit or the client are not checked, saying which input", async () => {
    const back = await checkHarFile(foreignHar)
    expect(statuses(back)).toEqual({ 'visit-1': 'partial', 'visit-2': 'partial' })
    const custodian = back.cases[0].checks.find((c) => c.rule === 'advanced.custodian-after-create')!
    expect(custodian).toMatchObject({ status: 'not-checked', missing: ['visit'] })
    expect(custodian.message).toContain('pass the visits with --visits FILE')
    expect(back.cases[0].checks.find((c) => c.rule === 'client.completes')).toMatchObject({
      status: 'not-checked',
      missing: ['client'],
    })
    expect(back.summary).toMatchObject({ passed: 0, partial: 2, failed: 0, conformant: false })
    expect(back.summary.rulesNotChecked).toEqual(
      expect.arrayContaining([
        'advanced.custodian-after-create',
        'advanced.company-lookup-first',
        'simple.body',
        'client.completes',
        'client.outcome',
      ]),
    )
  })

  it('checks every rule of a foreign capture given its visits in a --visits file, in order or keyed by visit id', async () => {
    const inputs = goodRun.cases.map((kase) => {
      const { case: _id, flow: _flow, ...given } = toCaseInputs(kase)
      return given
    })
    const ordered = join(dir, 'visits.json')
    await writeFile(ordered, JSON.stringify(inputs))
    const back = await checkHarFile(foreignHar, { visitsFile: ordered })
    expect(back.cases.flatMap((c) => c.checks).filter((k) => k.status === 'not-checked')).toEqual([])
    expect(checkStatuses(back)).toEqual(checkStatuses(goodRun))
    expect(statuses(back)).toEqual({ 'visit-1': 'passed', 'visit-2': 'passed' })

    const keyed = join(dir, 'visits-keyed.json')
    await writeFile(keyed, JSON.stringify({ 'visit-2': inputs[1] }))
    expect(statuses(await checkHarFile(foreignHar, { visitsFile: keyed }))).toEqual({
      'visit-1': 'partial',
      'visit-2': 'passed',
    })
  })

  it('refuses a --visits file with every wrong field named, and one that does not fit the capture', async () => {
    const bad = join(dir, 'bad-visits.json')
    await writeFile(
      bad,
      JSON.stringify([
        { visit: { plate: 'AB123', amount: '2490', currency: 'EUR' }, client: { exitCode: 'zero' } },
        { tokn: 'x' },
      ]),
    )
    const error = await checkHarFile(foreignHar, { visitsFile: bad }).catch((e) => e)
    expect(error).toMatchObject({ code: 'VISITS_INVALID' })
    expect(error.message).toContain('[0].visit.amount is a string, not a number')
    expect(error.message).toContain('[0].visit.currency')
    expect(error.message).toContain('[0].visit.ownerKennitala is missing')
    expect(error.message).toContain('[0].client.exitCode')
    expect(error.message).toContain('[1].tokn is not a field')
    const short = join(dir, 'one-visit.json')
    await writeFile(short, JSON.stringify([{}]))
    await expect(checkHarFile(foreignHar, { visitsFile: short })).rejects.toMatchObject({
      code: 'VISITS_MISMATCH',
      message: expect.stringContaining('it lists 1 visit, the capture has 2 visits (visit-1, visit-2)'),
    })
  })

  it('refuses a file that is not there, saying what to pass', async () => {
    await expect(checkHarFile(join(dir, 'missing.har'))).rejects.toMatchObject({
      code: 'HAR_UNREADABLE',
      message: expect.stringMatching(/no such file.*Please pass a HAR 1\.2 file/),
    })
  })

  it('refuses a capture with no request to the service, naming the hosts it saw', async () => {
    const file = join(dir, 'other.har')
    const entry = {
      startedDateTime: '2026-11-21T10:00:00Z',
      time: 1,
      request: {
        method: 'GET',
        url: 'https://cdn.example/app.js',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'text/javascript' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    }
    await writeFile(
      file,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } }),
    )
    await expect(checkHarFile(file)).rejects.toMatchObject({
      code: 'HAR_EMPTY',
      message: expect.stringContaining('cdn.example'),
    })
  })

  it('exits 1 from the command line when a visit broke a rule, and writes the HTML report', () => {
    const html = join(dir, 'from.html')
    const result = relayMock('conform', '--from', harFile, '--html', html)
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/✗ advanced\/new-vehicle/)
    expect(result.stdout).not.toContain('Not checked')
    return readFile(html, 'utf8').then((page) => expect(page).toContain('visits failed'))
  })

  it('exits 1 from the command line on partial visits, listing each rule not checked and why; 0 with --allow-partial', () => {
    const partial = relayMock('conform', '--from', foreignHar)
    expect(partial.status).toBe(1)
    expect(partial.stdout).toMatch(/\? visit-1 +\S+ \S+ +\d+ rules not checked/)
    expect(partial.stdout).toMatch(
      /\? Not checked \(an input was missing; a partial case fails the run unless --allow-partial\)\n {4}advanced\.company-lookup-first, advanced\.vehicle-lookup, .* in visit-1\n {6}Not checked: it needs the visit the client was given/,
    )
    expect(partial.stdout).toMatch(
      / {4}client\.completes, client\.outcome in all 2 visits\n {6}Not checked: it needs the client's run/,
    )
    expect(partial.stdout).toContain('Not conformant: 2 cases, 0 passed, 2 partial, 0 failed')
    const allowed = relayMock('conform', '--from', foreignHar, '--allow-partial')
    expect(allowed.status).toBe(0)
    expect(allowed.stdout).toContain('Conformant: 2 cases, 0 passed, 2 partial, 0 failed')
  })

  it('exits 2 from the command line with the field errors of a bad --visits file, and refuses --visits without --from', async () => {
    const bad = join(dir, 'bad-cli-visits.json')
    await writeFile(bad, JSON.stringify([{ visit: { amount: -1 } }, {}]))
    const result = relayMock('conform', '--from', foreignHar, '--visits', bad)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`Failed to read the visits file ${bad}:`)
    expect(result.stderr).toContain('[0].visit.amount is not positive')
    expect(result.stderr).not.toMatch(/\n\s+at /)
    const alone = relayMock('conform', '--client', 'true', '--visits', bad)
    expect(alone.status).toBe(2)
    expect(alone.stderr).toMatch(/visits -> from|Missing dependent arguments/)
  })

  it('exits 2 from the command line when given neither a client nor a capture', () => {
    const result = relayMock('conform')
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(
      /^relay-mock conform: --client is missing: expected the command that runs your client .*--from FILE\.har/,
    )
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
      ['visit-1', 'advanced', 'partial'],
      ['visit-2', 'simple', 'failed'],
    ])
    expect(result.summary).toMatchObject({ total: 2, passed: 0, partial: 1, failed: 1, client: 'capture.har' })
  })
})
