// `conform --har` then `conform --from`: the HAR of a whole default run (every suite: failures, lost
// payments, faults) reads back to the same verdicts, case by case, for a correct client and a broken one.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkHarFile } from '../../src/node/files/from-har.js'
import { createHarReporter } from '../../src/node/reporters/har.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import type { RunResult } from '../../src/core/rules/types.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from '../conform/clients/defective.mjs'

let dir: string
let correct: { run: RunResult; back: RunResult }
let broken: { run: RunResult; back: RunResult }
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-har-round-trip-'))
  // Both runs at once: most of a run's time is its clients waiting (Retry-After, hung answers, timeouts).
  ;[correct, broken] = await Promise.all([
    roundTrip(referenceClient, 'reference'),
    roundTrip(createDefectiveClient('resend-payment') as ClientFunction, 'resend-payment'),
  ])
}, 120_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Each case's verdict and each rule's finding, by case id. */
const verdicts = (result: RunResult) =>
  Object.fromEntries(
    result.cases.map((c) => [
      c.id,
      { status: c.status, checks: Object.fromEntries(c.checks.map((k) => [k.rule, k.status])) },
    ]),
  )

async function roundTrip(client: ClientFunction, name: string) {
  const file = join(dir, `${name}.har`)
  const run = await runConformance({
    client,
    name,
    jobs: 32,
    timeoutMs: 20_000,
    reporters: [createHarReporter({ file })],
  })
  return { run, back: await checkHarFile(file) }
}

describe('conform --from on the HAR of a whole default run', () => {
  it('reads a correct client\'s run back to the same verdicts, lost payments ("unknown") included', () => {
    const { run, back } = correct
    expect(run.cases.some((c) => c.expectedOutcome === 'unknown' || c.expectedOutcomes?.includes('unknown'))).toBe(true)
    expect(run.cases.some((c) => c.report?.outcome === 'unknown')).toBe(true)
    expect(back.cases.map((c) => c.id)).toEqual(run.cases.map((c) => c.id))
    expect(verdicts(back)).toEqual(verdicts(run))
  })

  it("reads a broken client's run back to the same verdicts, its failures included", () => {
    const { run, back } = broken
    expect(run.cases.filter((c) => c.status === 'failed').length).toBeGreaterThan(0)
    expect(back.cases.map((c) => c.id)).toEqual(run.cases.map((c) => c.id))
    expect(verdicts(back)).toEqual(verdicts(run))
  })

  it('refuses an entry whose _relay fields are not what relay-mock writes, naming the entry and the field', async () => {
    const har = JSON.parse(await readFile(join(dir, 'reference.har'), 'utf8'))
    har.log.entries[3]._relay.auth = 'perhaps'
    const file = join(dir, 'edited.har')
    await writeFile(file, JSON.stringify(har))
    await expect(checkHarFile(file)).rejects.toThrow(
      /^Failed to read the HAR entry log\.entries\[3\] \([A-Z]+ http:\/\/127\.0\.0\.1:\d+\/[^)]*\): _relay\.auth invalid option: expected one of "ok"\|"missing"\|"malformed"\|"unknown-token"\|"revoked"\. Please remove/,
    )
  })
})
