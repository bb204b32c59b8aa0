// A calibrated run's reports mark, in their table of assumptions, each one the real service's answers
// settled and what it answered; and a recorded run read back with `conform --from FILE --calibrate` is
// judged as the calibrated run would judge it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pc from 'picocolors'
import { describe, expect, it } from 'vitest'
import { toHeld } from '../../src/core/rules/held.js'
import { checkHarFile } from '../../src/node/files/from-har.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { heldLines } from '../../src/node/reporters/console.js'
import { toHtmlReport, toJsonReport, toJUnitXml, toRunHar } from '../../src/node/reporters/index.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { runCli, useBuiltCli } from '../support/cli.js'
import { standInReport } from '../support/stand-in.js'

const scratch = useBuiltCli('relay-mock-calibrated-reports-')
const CASES = ['advanced/new-vehicle', 'simple/unknown-owner', 'variants/error.body=*', 'variants/auth.refusal=*']

describe('a calibrated run, in every report', () => {
  it("marks each assumption the calibration settled, with what the service answered, beside the variants' table", async () => {
    const { report } = await standInReport()
    const result = await runConformance({ client: referenceClient, cases: CASES, jobs: 4, calibration: report })
    const settled = result.summary.calibration!.settled
    // The stand-in's error body is served as observed; its 401 with a challenge confirms relay-mock's choice.
    expect(settled).toContainEqual({
      assumption: 'error.body',
      status: 'contradicted',
      answered: expect.stringMatching(/^application\/json \{error\}/),
      served: true,
    })
    expect(settled.find((s) => s.assumption === 'auth.refusal')).toMatchObject({ status: 'confirmed', served: false })

    const held = toHeld(result.cases, result.summary.calibration)!
    const errorBody = held.find((entry) => entry.assumption === 'error.body')!
    // Its variant cases no longer ran: the row is the calibration's alone.
    expect(errorBody.alternatives).toEqual([])
    expect(held.find((entry) => entry.assumption === 'auth.refusal')!.alternatives.length).toBeGreaterThan(0)

    const lines = heldLines(held, pc.createColors(false)).join('\n')
    expect(lines).toMatch(
      /= error\.body\s*\n\s+settled by the calibration: the service answered application\/json \{error\}.*; the run answered so/,
    )
    expect(lines).toMatch(
      /auth\.refusal .*\n\s+settled by the calibration: the service answered 401 with WWW-Authenticate.*, as relay-mock chose/,
    )
    expect(toJsonReport(result).variants).toContainEqual(
      expect.objectContaining({
        assumption: 'error.body',
        settled: expect.objectContaining({ status: 'contradicted', served: true }),
      }),
    )
    expect(toJUnitXml(result)).toMatch(
      /<property name="relay-mock\.calibration\.error\.body" value="settled by the calibration: the service answered application\/json \{error\}/,
    )
    expect(toHtmlReport(result)).toMatch(
      /<code>error\.body<\/code>.*<p class="settled">settled by the calibration: the service answered/,
    )
  })

  it('shows no calibration marks in a run without one', async () => {
    const result = await runConformance({ client: referenceClient, cases: ['variants/error.body=*'], jobs: 2 })
    expect(toHeld(result.cases, result.summary.calibration)!.every((entry) => entry.settled === undefined)).toBe(true)
    expect(toJUnitXml(result)).not.toContain('relay-mock.calibration.')
  })
})

describe('conform --from FILE --calibrate', () => {
  const recorded = async (calibration?: object) => {
    const result = await runConformance({
      client: referenceClient,
      cases: CASES,
      jobs: 4,
      ...(calibration ? { calibration } : {}),
    })
    const file = join(mkdtempSync(join(tmpdir(), 'relay-mock-recorded-')), 'run.har')
    writeFileSync(file, JSON.stringify(toRunHar(result)))
    return file
  }

  it('judges a recorded run as the calibrated run would: the calibrated variants left out, and the summary says against what', async () => {
    const { report } = await standInReport()
    const file = await recorded()
    const plain = await checkHarFile(file)
    expect(plain.cases.some((kase) => kase.id.startsWith('variants/error.body='))).toBe(true)
    const judged = await checkHarFile(file, { calibration: report })
    expect(judged.cases.some((kase) => kase.id.startsWith('variants/error.body='))).toBe(false)
    expect(judged.cases.some((kase) => kase.id.startsWith('variants/auth.refusal='))).toBe(true)
    expect(judged.summary.calibration).toMatchObject({
      upstream: report.upstream,
      calibrated: expect.arrayContaining(['error.body']),
      variantCasesLeftOut: plain.cases.length - judged.cases.length,
    })
    // Recorded without the calibration, the unknown owner's payment was refused: the client is held to the answer it got.
    expect(judged.cases.find((kase) => kase.id === 'simple/unknown-owner')).toMatchObject({
      status: 'passed',
      expectedOutcome: 'rejected',
    })
    expect(judged.summary.conformant).toBe(true)
  })

  it('holds a calibrated recording to what the calibrated service answered: the unknown owner paid', async () => {
    const { report } = await standInReport()
    const judged = await checkHarFile(await recorded(report), { calibration: report })
    expect(judged.cases.find((kase) => kase.id === 'simple/unknown-owner')).toMatchObject({
      status: 'passed',
      expectedOutcome: 'paid',
    })
  })

  it('on the command line: the run is calibrated, said in one line, and its table marks what was settled', async () => {
    const { path } = await standInReport()
    const file = await recorded()
    const json = join(scratch(), 'conform.json')
    const run = await runCli(['conform', '--from', file, '--calibrate', path, '--json', json])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/Calibrated against http:\/\/127\.0\.0\.1:\d+/)
    expect(run.stdout).toMatch(/settled by the calibration: the service answered/)
  })
})
