// A client that dies is quoted by the line that names its error, whatever its language: real clients
// that crash, each run as the kit runs one, their output read by the one module that picks the line.
import { describe, expect, it } from 'vitest'
import { errorLine } from '../../src/core/rules/crash.js'
import { ruleById } from '../../src/core/rules/index.js'
import { runConformance } from '../../src/node/runner/runner.js'
import { needs } from '../support/needs.js'
import { runTool } from '../support/tool.js'

// Clients that crash in Python, Java, Go and Ruby.
needs('python3', 'java', 'go', 'ruby', 'php')

const DIR = 'test/conform/clients/crash'

const CRASHES: { language: string; command: string; quote: string | RegExp }[] = [
  {
    language: 'Node',
    command: 'node crash.mjs',
    quote: "TypeError: Cannot read properties of null (reading 'length')",
  },
  {
    language: 'Node, with a cause',
    command: 'node fetch-refused.mjs',
    quote: 'TypeError: fetch failed … [cause]: Error: connect ECONNREFUSED 127.0.0.1:4',
  },
  { language: 'Python', command: 'python3 crash.py', quote: 'RuntimeError: the answer has no id' },
  {
    language: 'Java',
    command: 'java Crash.java',
    quote:
      'Exception in thread "main" java.lang.IllegalStateException: the vehicle lookup failed … Caused by: java.io.IOException: connection reset',
  },
  { language: 'Go', command: 'go run crash.go', quote: 'panic: runtime error: index out of range [0] with length 0' },
  { language: 'a shell', command: 'bash crash.sh', quote: 'crash.sh: line 3: relay_lookup_vehicle: command not found' },
  {
    language: 'PHP',
    command: 'php crash.php',
    quote:
      /^PHP Fatal error: Uncaught TypeError: amount\(\): Argument #1 \(\$amount\) must be of type int, string given, called in .*crash\.php on line 3/,
  },
  { language: 'Ruby', command: 'ruby crash.rb', quote: 'crash.rb:2:in `fetch\': key not found: "id" (KeyError)' },
]

describe("the line that names a dead client's error", () => {
  for (const { language, command, quote } of CRASHES) {
    it.concurrent(
      `${language}: ${command}`,
      async () => {
        const { exitCode: code, stdout, stderr } = await runTool('sh', ['-c', command], { cwd: DIR })
        expect(code).not.toBe(0)
        const said = errorLine(stderr, stdout)
        if (typeof quote === 'string') expect(said).toBe(quote)
        else expect(said).toMatch(quote)
        // Each rule that quotes a crash quotes that line.
        const client = { command, exitCode: code, signal: null, timedOut: false, durationMs: 100, stdout, stderr }
        const completes = ruleById('client.completes')!.check({ flow: 'advanced', requests: [], client })
        expect(completes.message).toContain(`Its error: "${said}"`)
        const variant = ruleById('fidelity.create.status')!.check({
          flow: 'advanced',
          requests: [],
          client,
          variants: { 'create.status': '201-no-location' },
        })
        expect(variant.message).toContain(`("${said}")`)
      },
      60_000,
    )
  }

  it('falls back to the last line that is not a stack frame, from stderr, then stdout', () => {
    expect(errorLine('payment failed: 422\n    at pay (client.js:3:9)\n', '')).toBe('payment failed: 422')
    expect(errorLine('', 'outcome written\nno payment id in the answer\n')).toBe('no payment id in the answer')
    expect(errorLine('', '')).toBeUndefined()
  })
})

describe('a client that dies in a case', () => {
  it('is quoted by its error, and the report keeps its whole output', async () => {
    const result = await runConformance({
      client: 'ruby test/conform/clients/crash/crash-after-lookup.rb',
      cases: ['advanced/existing-vehicle'],
      jobs: 1,
    })
    const [kase] = result.cases
    const completes = kase.checks.find((check) => check.rule === 'client.completes')!
    expect(completes.status).toBe('failed')
    expect(completes.message).toMatch(
      /Its error: ".*crash-after-lookup\.rb:\d+:in `fetch': key not found: "vehicleId" \(KeyError\)"/,
    )
    expect(kase.stderr).toMatch(/\tfrom .*crash-after-lookup\.rb:\d+:in `<main>'/)
  }, 60_000)
})
