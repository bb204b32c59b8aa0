// relay-mock probe against a stand-in of the real service that answers otherwise than relay-mock: it
// settles most of the ledger with no write, --allow-writes settles the creates and writes only what it
// lists, and upstream trouble is a line of the report.
import { describe, expect, it, vi } from 'vitest'
import type { AssumptionReport } from '../../src/core/ledger/report.js'
import { runProbe, type ProbeArgs } from '../../src/cli/actions/probe.js'
import { closeAfterEach, closedPort, rawUpstream } from '../support/proxy.js'
import { runCli, useBuiltCli } from '../support/cli.js'
import { STAND_IN_COMPANY, STAND_IN_LOCATION, STAND_IN_TOKEN, STAND_IN_VEHICLE, standIn } from '../support/stand-in.js'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

closeAfterEach()
const scratch = useBuiltCli('relay-mock-probe-cli-')

/** Runs a probe in process, its console kept; the report as written. */
async function probeOf(args: Partial<ProbeArgs> & Pick<ProbeArgs, 'upstream'>) {
  const dir = mkdtempSync(join(tmpdir(), 'relay-mock-probe-'))
  const lines: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')))
  const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')))
  try {
    const code = await runProbe({
      token: STAND_IN_TOKEN,
      upstreamTimeout: 5,
      pace: 0,
      reportDir: dir,
      check: true,
      ...args,
    })
    const report = JSON.parse(readFileSync(join(dir, 'assumptions.json'), 'utf8')) as AssumptionReport
    return {
      code,
      report,
      // eslint-disable-next-line no-control-regex -- the escape character is the point: colour codes to strip
      console: lines.join('\n').replace(/\u001b\[[0-9;]*m/g, ''),
      html: readFileSync(join(dir, 'assumptions.html'), 'utf8'),
    }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}

const settled = (report: AssumptionReport) => report.assumptions.filter((a) => a.status !== 'unseen').map((a) => a.id)
const standing = (report: AssumptionReport, id: string) => report.assumptions.find((a) => a.id === id)!

describe('relay-mock probe', () => {
  it('settles most of the ledger with no write, and says why each assumption it left unseen stayed so', async () => {
    const service = await standIn()
    const {
      code,
      report,
      console: out,
      html,
    } = await probeOf({ upstream: service.url, kennitala: STAND_IN_COMPANY.kennitala, plate: STAND_IN_VEHICLE.plate })
    expect(service.written).toEqual([])
    expect(settled(report).length, settled(report).join(', ')).toBeGreaterThan(report.assumptions.length / 2)
    // What the stand-in does otherwise, found without a write.
    expect(standing(report, 'error.body')).toMatchObject({ status: 'contradicted' })
    expect(standing(report, 'error.body').evidence[0].came).toMatch(/application\/json \{error\}/)
    expect(standing(report, 'links.fetchable')).toMatchObject({
      status: 'contradicted',
      evidence: expect.arrayContaining([
        expect.objectContaining({ request: `GET /vehicles/${STAND_IN_VEHICLE.id}`, alternative: 'not-fetchable' }),
      ]),
    })
    expect(standing(report, 'records.extra-fields')).toMatchObject({ status: 'contradicted' })
    expect(standing(report, 'invalid.status')).toMatchObject({
      status: 'contradicted',
      variants: [expect.objectContaining({ alternative: '400' })],
    })
    expect(standing(report, 'request.refusals').status).toBe('contradicted')
    for (const id of [
      'auth.refusal',
      'slip.path',
      'slip.method',
      'http.head',
      'http.options',
      'query.extra',
      'http.get-body',
      'lists.paging',
      'request.check-order',
    ])
      expect(standing(report, id).status, id).not.toBe('unseen')
    // Each unseen one says why.
    for (const a of report.assumptions.filter((a) => a.status === 'unseen'))
      expect(a.unseen, a.id).toMatch(/^(traffic cannot show it|needs a write|the answers did not tell): /)
    expect(standing(report, 'create.status').unseen).toMatch(/^needs a write: only a create shows it \(--allow-writes/)
    expect(report.probe).toMatchObject({
      allowWrites: false,
      written: [],
      skipped: [expect.stringMatching(/need --allow-writes/)],
    })
    expect(report.probe!.sent).toBeLessThanOrEqual(40)
    expect(code).toBe(1)
    expect(out).toMatch(/no request it sends leaves a record/)
    expect(out).toMatch(/create\.status\s+needs a write/)
    expect(html).toMatch(/Unseen: needs a write/)
    // The token is masked in everything the probe shows.
    expect(out + html + JSON.stringify(report)).not.toContain(STAND_IN_TOKEN.slice(0, -4))
  })

  it('with --allow-writes settles the creates, and writes only what it lists', async () => {
    const service = await standIn()
    const { report, console: out } = await probeOf({
      upstream: service.url,
      kennitala: STAND_IN_COMPANY.kennitala,
      allowWrites: true,
      location: STAND_IN_LOCATION,
    })
    for (const id of [
      'create.status',
      'simple.answer',
      'simple.unknown-owner',
      'vehicle.country',
      'request.number-form',
      'request.duplicate-keys',
    ])
      expect(standing(report, id).status, id).not.toBe('unseen')
    expect(standing(report, 'request.number-form').evidence[0]).toMatchObject({
      request: 'POST /payments',
      relayMock: '1.0 read as 1 (amount.amount)',
    })
    expect(standing(report, 'simple.answer').variants).toEqual([
      expect.objectContaining({ alternative: 'status-accepted' }),
    ])
    expect(standing(report, 'simple.unknown-owner').variants).toEqual([
      expect.objectContaining({ alternative: 'accepted' }),
    ])
    expect(standing(report, 'create.status').evidence.map((e) => e.came)).toContain('201 without Location')
    // What the service recorded is what the probe lists, one of each at most.
    expect(report.probe!.written.map((w) => [w.kind, w.id])).toEqual(service.written.map((w) => [w.kind, w.id]))
    expect(service.written.map((w) => w.kind)).toEqual(['vehicle', 'custodian', 'payment', 'simple payment'])
    expect(out).toMatch(/--allow-writes: this WRITES REAL RECORDS/)
    for (const w of service.written) expect(out).toContain(w.id)
    expect(settled(report).length).toBeGreaterThan(
      settled((await probeOf({ upstream: (await standIn()).url, kennitala: STAND_IN_COMPANY.kennitala })).report)
        .length,
    )
  })

  it('makes upstream trouble a line of the report, never a crash: refused, hung, garbage', async () => {
    const refused = await probeOf({ upstream: await closedPort() })
    const hung = await probeOf({ upstream: await rawUpstream(() => undefined), upstreamTimeout: 0.3 })
    const garbage = await probeOf({ upstream: await rawUpstream((socket) => socket.end('SSH-2.0-OpenSSH\r\n\r\n')) })
    for (const [kind, run] of [
      ['refused', refused],
      ['timeout', hung],
      ['not-http', garbage],
    ] as const) {
      expect(
        run.report.findings.map((f) => f.kind),
        kind,
      ).toContain('upstream-trouble')
      expect(run.report.probe!.stopped, kind).toMatch(/the upstream was in trouble on 2 requests in a row/)
      expect(run.report.probe!.sent, kind).toBe(2)
      expect(run.code, kind).toBe(0)
      expect(standing(run.report, 'auth.refusal').unseen, kind).toMatch(
        /^not asked: the probe stopped early, as the upstream was in trouble/,
      )
      expect(run.console, kind).toMatch(/upstream-trouble: GET \/rental-companies/)
    }
    expect(refused.report.findings[0].message).toMatch(/refused the connection/)
    expect(hung.report.findings[0].message).toMatch(/did not answer in time/)
  })
})

describe('relay-mock probe on the command line', () => {
  it('says plainly that --allow-writes writes real records, lists them, masks the token, and exits 1 with --check', async () => {
    const service = await standIn()
    const dir = join(scratch(), 'report')
    const run = await runCli([
      'probe',
      '--upstream',
      service.url,
      '--token',
      STAND_IN_TOKEN,
      '--pace',
      '0',
      '--allow-writes',
      '--location',
      STAND_IN_LOCATION,
      '--kennitala',
      STAND_IN_COMPANY.kennitala,
      '--report-dir',
      dir,
      '--check',
    ])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toMatch(
      /--allow-writes: this WRITES REAL RECORDS on http:\/\/127\.0\.0\.1:\d+: at most one vehicle \(plate ZZ9T99\), one custodian, one payment and one simple payment of 1 ISK\.\n\s+Use it against a staging service only, never against production/,
    )
    expect(run.stdout).toMatch(/Wrote on http:\/\/127\.0\.0\.1:\d+:/)
    for (const written of service.written) expect(run.stdout).toContain(written.id)
    expect(run.stdout).toContain(`with the token …${STAND_IN_TOKEN.slice(-4)}`)
    expect(
      run.stdout +
        run.stderr +
        readFileSync(join(dir, 'assumptions.json'), 'utf8') +
        readFileSync(join(dir, 'assumptions.html'), 'utf8'),
    ).not.toContain(STAND_IN_TOKEN.slice(0, -4))
  })
})
