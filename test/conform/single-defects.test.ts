// One defect, one verdict: a client with a single defect the kit fails under any service fails exactly its
// own rules, in the default run and under --strict grading, counted once; the variant cases that repeat a
// visit it failed say "same defect as in <case>" instead of failing a fidelity rule, in every report.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CaseResult, RunResult } from '../../src/core/rules/types.js'
import { countCases, rulesWith } from '../../src/core/rules/verdict.js'
import { toGitHubAnnotations } from '../../src/node/reporters/github.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { toJsonReport } from '../../src/node/reporters/json.js'
import { toJUnitXml } from '../../src/node/reporters/junit.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { forkClient } from '../support/fork-client.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from './clients/defective.mjs'
import { pythonWith, SINGLE_DEFECTS, type SingleDefect } from './clients/single-defects.js'
import { needs } from '../support/needs.js'

needs('python3', 'urllib3')

/**
 * Exactly the rules each defect fails. Every defect runs in JavaScript (in-process); those with Python edits
 * (clients/single-defects.ts) run in Python too (forked). A default
 * run per client costs about 20 s of waiting (Retry-After, hung answers) and a few seconds of CPU.
 */
const EXPECTED: Record<string, { rules: string[] }> = {
  'the amount as a string': { rules: ['advanced.payment-body', 'simple.body'] },
  'ISO timestamps': { rules: ['advanced.payment-body'] },
  'a JSON body without Content-Type': { rules: ['http.json-body'] },
  'exit 1 on a refusal': { rules: ['client.completes'] },
  'a POST retried after a 500': { rules: ['resilience.no-resend'] },
  'going on after an unknown owner': { rules: ['advanced.unknown-owner-stops'] },
  'errors read as lost answers': { rules: ['client.outcome'] },
  '`rejected` for a lost payment answer': { rules: [] },
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-single-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const runs = new Map<string, Promise<RunResult>>()
const queue: Array<() => void> = []
let running = 0
/** Runs `task` once fewer than `AT_ONCE` tasks run: the cases mostly wait, but each run has its own timing to keep. */
async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => queue.push(resolve))
  running++
  try {
    return await task()
  } finally {
    running--
    queue.shift()?.()
  }
}
const AT_ONCE = 4

/** The default run of one single-defect client, once per file. */
function defaultRun(defect: SingleDefect, language: 'JavaScript' | 'Python'): Promise<RunResult> {
  const key = `${defect.defect} (${language})`
  if (!runs.has(key)) {
    const run = limited(async () => {
      if (language === 'JavaScript')
        return runConformance({ client: createDefectiveClient(defect.js) as ClientFunction, name: key })
      const client = forkClient(await pythonWith(defect, dir))
      try {
        return await runConformance({ client, name: key })
      } finally {
        await client.close()
      }
    })
    // Awaited by its tests; until then, a rejection is theirs to report.
    run.catch(() => {})
    runs.set(key, run)
  }
  return runs.get(key)!
}

const failedRules = (cases: ReadonlyArray<CaseResult>) => rulesWith(cases, 'failed').sort()

const table = SINGLE_DEFECTS.flatMap((defect) => [
  { defect, language: 'JavaScript' as const },
  ...(defect.python ? [{ defect, language: 'Python' as const }] : []),
])

// Every run starts at once (AT_ONCE at a time); each test waits for the one it reads.
beforeAll(() => {
  for (const { defect, language } of table) void defaultRun(defect, language)
})

describe.each(table)('$defect.defect ($language)', ({ defect, language }) => {
  const expected = EXPECTED[defect.defect].rules

  it('fails exactly its own rules in the default run, and under --strict grading', async () => {
    const { cases, summary } = await defaultRun(defect, language)
    expect(failedRules(cases)).toEqual(expected)
    expect(summary.rulesBroken.sort()).toEqual(expected)
    const strict = countCases(cases, { strict: true })
    // Under --strict a warning fails too: still only the defect's own rules.
    expect([...new Set([...strict.rulesBroken, ...strict.rulesWarned])].sort()).toEqual(
      expected.length > 0 ? expected : ['client.outcome'],
    )
    expect(strict.conformant).toBe(false)
  }, 240_000)

  it('fails no variant case for it: each variant that met it names the flow case and its rule once', async () => {
    const { cases } = await defaultRun(defect, language)
    const variants = cases.filter((kase) => kase.id.startsWith('variants/'))
    for (const kase of variants) {
      expect(
        kase.checks.filter((check) => check.status === 'failed').map((check) => `${kase.id}: ${check.rule}`),
      ).toEqual([])
      if (kase.status !== 'echo') continue
      const base = cases.find((other) => other.id === kase.of)!
      expect(base.status, kase.id).toBe('failed')
      expect(kase.sameAs, kase.id).toEqual({ case: base.id, rules: failedRules([base]) })
      for (const check of kase.checks.filter((c) => c.status === 'echo'))
        expect(check.message).toMatch(new RegExp(`^Same defect as in ${base.id}: .* failed there`))
    }
    const echoes = variants.filter((kase) => kase.status === 'echo')
    if (expected.length > 0) expect(echoes.length).toBeGreaterThan(0)
  }, 240_000)
})

describe("a client that reports `rejected` where the payment's answer was lost", () => {
  const defect = SINGLE_DEFECTS.find((d) => d.js === 'rejected-when-unknown')!

  it('is warned in every case that lost the answer, the variant cases too, and the default run passes', async () => {
    const { cases, summary } = await defaultRun(defect, 'JavaScript')
    expect(summary.conformant).toBe(true)
    expect(summary.failed).toBe(0)
    expect(summary.rulesWarned).toEqual(['client.outcome'])
    const lostAnswer = cases.filter((kase) =>
      kase.checks.some((check) => check.rule === 'client.outcome' && check.status === 'warning'),
    )
    expect(lostAnswer.map((kase) => kase.id)).toContain('resilience/payment-create/server-error/once')
    expect(lostAnswer.map((kase) => kase.id)).toContain(
      'variants/error.body=json-message/resilience-payment-create-server-error-once',
    )
    for (const kase of lostAnswer) expect(kase.status, kase.id).toBe('warning')
    // The fidelity rule that failed it before carries the flow case's grade: the same warning, told once.
    const variant = cases.find(
      (kase) => kase.id === 'variants/error.body=json-message/resilience-payment-create-server-error-once',
    )!
    const fidelity = variant.checks.find((check) => check.rule === 'fidelity.error.body')!
    expect(fidelity.status).toBe('echo')
    expect(fidelity.message).toMatch(
      /^Same flaw as in resilience\/payment-create\/server-error\/once: client.outcome warned there, under relay-mock's choice, and here/,
    )
    expect(variant.sameAs).toEqual({
      case: 'resilience/payment-create/server-error/once',
      rules: ['client.outcome'],
      warned: true,
    })
  }, 240_000)
})

describe('every report counts the defect once', () => {
  const defect = SINGLE_DEFECTS.find((d) => d.js === 'amount-string+simple-amount-string')!
  const echoed = 'variants/create.status=201-no-location/advanced-new-vehicle'

  it('JSON: the echoes are counted apart from the failures, and each names its flow case', async () => {
    const result = await defaultRun(defect, 'JavaScript')
    const json = JSON.parse(JSON.stringify(toJsonReport(result)))
    expect(json.summary.failed).toBe(result.cases.filter((kase) => kase.status === 'failed').length)
    expect(json.summary.echo).toBeGreaterThan(0)
    const kase = json.cases.find((k: CaseResult) => k.id === echoed)
    expect(kase.status).toBe('echo')
    expect(kase.sameAs).toEqual({ case: 'advanced/new-vehicle', rules: ['advanced.payment-body'] })
    expect(kase.checks.find((c: { rule: string }) => c.rule === 'fidelity.create.status').echoed).toMatch(
      /^Expected the client to complete the visit under create\.status=201-no-location/,
    )
  }, 240_000)

  it('JUnit: an echo is skipped, naming the flow case, never a <failure>', async () => {
    const xml = toJUnitXml(await defaultRun(defect, 'JavaScript'))
    const testcase = xml.match(new RegExp(`<testcase[^>]*name="${echoed}"[\\s\\S]*?</testcase>`))![0]
    expect(testcase).not.toContain('<failure')
    expect(testcase).toContain(
      '<skipped message="same defect as in advanced/new-vehicle: advanced.payment-body failed there"/>',
    )
  }, 240_000)

  it('GitHub: no annotation for an echo; the notice counts it apart', async () => {
    const lines = toGitHubAnnotations(await defaultRun(defect, 'JavaScript'))
    expect(lines.filter((line) => line.includes(` in ${echoed}`))).toEqual([])
    expect(lines.filter((line) => line.startsWith('::error') && line.includes('fidelity.'))).toEqual([])
    expect(lines.at(-1)).toMatch(/ \d+ the same defect again/)
  }, 240_000)

  it('HTML: the case says whose defect it is', async () => {
    const page = toHtmlReport(await defaultRun(defect, 'JavaScript'), { now: new Date(0) })
    expect(page).toContain('<h3>The same defect as in <code>advanced/new-vehicle</code></h3>')
  }, 240_000)
})
