// The example clients (six languages: real processes, the TypeScript one in a worker thread per case,
// the Python one forked per case from an interpreter that imported its modules)
// pass the default conform run: every case of both flows and every cell of the resilience matrix, each
// in a fresh world, cells in parallel. The
// conformance rules are the one judge: a case that does not pass is listed with each rule that failed
// or warned there and its message (a cell not reached names the request it never made). The examples
// make no second-best choice, so a warning is listed too. The in-process reference client runs both
// flows here; matrix.test.ts runs it through every cell.
import type { ExecFileOptions } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import advanced from '../../suites/advanced.js'
import simple from '../../suites/simple.js'
import { FAULT_STEPS } from '../../src/core/service/faults.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { selectCases } from '../../src/node/runner/select.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { forkClient } from '../support/fork-client.js'
import { explain, runTool } from '../support/tool.js'
import { workerClient } from '../support/worker-client.js'
import type { RunResult } from '../../src/core/rules/types.js'
import { casePasses } from '../../src/core/rules/verdict.js'
import { needs } from '../support/needs.js'

// The shell, Python, Java, Go and PHP examples.
needs('curl', 'jq', 'python3', 'urllib3', 'java', 'go', 'php', 'php-curl', 'guzzle')

const flowCases = [...advanced.cases, ...simple.cases]

/** Each case that did not pass, with the rules that failed or warned there and what they said. */
function notPassing(result: RunResult): string[] {
  return result.cases
    .filter((kase) => kase.status !== 'passed')
    .map((kase) => {
      const broken = kase.checks
        .filter((check) => check.status !== 'passed' && check.status !== 'skipped')
        .map((check) => `\n  ${check.rule} (${check.status}): ${check.message}`)
      const missed =
        kase.status === 'not-reached' && kase.cell
          ? `\n  never sent ${FAULT_STEPS[kase.cell.step]}, the request its fault breaks`
          : ''
      return `${kase.id}: ${kase.status}${missed}${broken.join('')}`
    })
}

/** Each case where a request came on a connection unknown or used before in the case, with its connections. */
function sharedConnections(result: RunResult): string[] {
  return result.cases.flatMap((kase) => {
    const connections = kase.requests.map((entry) => entry.connection)
    return connections.every((id) => id !== undefined) && new Set(connections).size === connections.length
      ? []
      : [`${kase.id}: ${JSON.stringify(connections)}`]
  })
}

/** Each case whose report is not an outcome its suite says a correct client reaches (client.outcome skips a missing report). */
function offOutcome(result: RunResult): string[] {
  return result.cases.flatMap((kase) => {
    const allowed = kase.expectedOutcomes ?? (kase.expectedOutcome ? [kase.expectedOutcome] : [])
    return kase.report && allowed.includes(kase.report.outcome)
      ? []
      : [`${kase.id}: wrote ${JSON.stringify(kase.report ?? null)}, expected ${allowed.join(' or ')}`]
  })
}

// `java Client.java` compiles the source on every start; the cases run the classes compiled once, in a
// jar, on a JVM told to start quickly (the client runs for a second: no optimising compiler, one GC
// thread) from a class-data archive of its own classes and java.net.http's, written by one run of one
// case (a JVM without it starts as it would anyway).
const java = mkdtempSync(join(os.tmpdir(), 'relay-mock-java-'))
const JAVA_START = `java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -cp ${join(java, 'client.jar')}`
const JAVA = `${JAVA_START} -XX:SharedArchiveFile=${join(java, 'client.jsa')} Client`
// The Go client is built once with `go build`; the cases run the binary, which starts in milliseconds.
const goBuild = mkdtempSync(join(os.tmpdir(), 'relay-mock-go-'))
const GO = join(goBuild, 'relay-client')

// Guzzle 7 from Composer's vendor/ beside the script, else Debian's php-guzzlehttp-guzzle.
const PHP = 'php examples/clients/php/client.php'

// Built by `npm run build` (npm test builds first, if the sources changed).
const TYPESCRIPT = 'dist/examples/clients/typescript/client.js'

const PYTHON = 'examples/clients/python/client.py'
// A process per case, forked from one interpreter that imported urllib3 and the rest of the script's
// imports: the same script, its own environment, sockets and exit status, without an interpreter's start
// per case. As a command, below.
const python = forkClient(PYTHON)

/** Runs one step of building a client; a failure is the tool's own report. */
async function step(command: string, args: string[], options: ExecFileOptions = {}): Promise<void> {
  const run = await runTool(command, args, options)
  if (run.exitCode !== 0) throw new Error(explain(run))
}

// The Java and Go clients are built while the other clients' runs go on; each run waits for its own.
let built: { java: Promise<void>; go: Promise<void> }

const examples: {
  name: string
  client: string | ClientFunction
  how?: string
  ready?: () => Promise<void>
  /** Every request on a connection of its own, so that libcurl has none to send again by itself (docs/http-libraries.md). */
  ownConnections?: true
}[] = [
  { name: 'shell (bash, curl, jq)', client: 'bash examples/clients/shell/client.sh', ownConnections: true },
  { name: 'Python (urllib3)', client: python, how: ' (forked per case from one interpreter)' },
  // The same script in a worker thread per case: its own process.env, modules, connection pool and exit
  // code, without starting Node for each case. As a command, below.
  { name: 'TypeScript (ky)', client: workerClient(TYPESCRIPT), how: ' (in a worker thread per case)' },
  { name: 'Java (java.net.http)', client: JAVA, ready: () => built.java },
  { name: 'Go (net/http)', client: GO, ready: () => built.go },
  // A PHP process starts in tens of milliseconds: the script runs as a user runs it, a process per case.
  { name: 'PHP (Guzzle)', client: PHP, how: ' (as `php client.php`, a process per case)', ownConnections: true },
]

beforeAll(() => {
  built = {
    // A JDK 17 or later (Debian: default-jdk-headless); .ci/run installs it where missing.
    java: (async () => {
      await step('javac', ['-d', join(java, 'classes'), 'examples/clients/java/Client.java'])
      await step('jar', ['cf', join(java, 'client.jar'), '-C', join(java, 'classes'), '.'])
      await runConformance({
        client: `${JAVA_START} -XX:ArchiveClassesAtExit=${join(java, 'client.jsa')} Client`,
        cases: ['advanced/new-vehicle'],
      })
    })(),
    // Go 1.19 or later (Debian: golang-go), found as the JDK is. The standard library only: nothing is
    // fetched (GOPROXY=off), and the go.mod's version never asks for another toolchain.
    go: step('go', ['build', '-o', GO, '.'], {
      cwd: 'examples/clients/go',
      env: { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
    }),
  }
  // Each is awaited by its client's test; a failure before then is not unhandled.
  for (const build of Object.values(built)) build.catch(() => undefined)
})
afterAll(async () => {
  await Promise.allSettled(Object.values(built))
  await python.close()
  rmSync(java, { recursive: true, force: true })
  rmSync(goBuild, { recursive: true, force: true })
})

describe('the example clients', () => {
  // The conform defaults (the longest cases first, the waits of the fault table), but for 8 cases at once
  // and a 5 s request timeout, twice the default: the five runs' mocks, the TypeScript client's worker
  // threads and the Python clients' forks share this file's process, where a run of its own has its mock to
  // itself. With the fitted concurrency and the default timeout, on a machine loaded ten times over, an
  // answer sent at once was read after the client's timeout. `npm run bench:conform` runs the examples at
  // the defaults.
  for (const example of examples) {
    it.concurrent(
      `the ${example.name} client${example.how ?? ''} passes every case of both flows and every cell of the fault matrix`,
      async () => {
        await example.ready?.()
        const result = await runConformance({ client: example.client, jobs: 8, requestTimeoutMs: 5000 })
        expect(notPassing(result)).toEqual([])
        expect(offOutcome(result)).toEqual([])
        expect(result.cases.map((kase) => kase.id)).toEqual(selectCases().map((kase) => kase.id))
        expect(result.summary).toMatchObject({ failed: 0, notReached: 0, warning: 0, conformant: true })
        // The same results graded as --strict grades them: every case passes.
        expect(
          result.cases.filter((kase) => !casePasses(kase.status, { strict: true })).map((kase) => kase.id),
        ).toEqual([])
        // libcurl's clients: no request, after a reset or any other, comes on a connection used before.
        if (example.ownConnections) expect(sharedConnections(result)).toEqual([])
      },
      300_000,
    )
  }
})

// The examples run above in a worker thread or forked from one interpreter; each once as a user runs it.
describe('the examples as commands', () => {
  for (const [command, user] of [
    [`node ${TYPESCRIPT}`, 'node client.js'],
    [`python3 ${PYTHON}`, 'python3 client.py'],
  ]) {
    it(`passes a case of each flow run as \`${user}\`, as a user runs it`, async () => {
      const result = await runConformance({ client: command, cases: ['advanced/new-vehicle', 'simple/rejected'] })
      expect(notPassing(result)).toEqual([])
      expect(offOutcome(result)).toEqual([])
      expect(result.summary).toMatchObject({ total: 2, passed: 2 })
    })
  }
})

describe('the reference client', () => {
  it('passes every case of both flows in-process and reaches each suite outcome', async () => {
    const result = await runConformance({ client: referenceClient, suites: ['advanced', 'simple'], jobs: 4 })
    expect(notPassing(result)).toEqual([])
    expect(result.cases.map((kase) => [kase.id, kase.report?.outcome])).toEqual(
      flowCases.map((kase) => [kase.id, kase.outcome]),
    )
  })
  it("runs more cases at once than Node warns about listeners for, without the warning (each case in flight listens for the run's stop)", async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', onWarning)
    try {
      // Node warns at the 11th listener on one signal.
      expect(flowCases.length).toBeGreaterThan(10)
      const result = await runConformance({ client: referenceClient, suites: ['advanced', 'simple'], jobs: 16 })
      expect(notPassing(result)).toEqual([])
      // Warnings are emitted a tick after the listener that set them off.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([])
  })
})
