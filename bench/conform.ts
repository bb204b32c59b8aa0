// `npm run bench:conform`: how long the default conform run takes a client, beside the same run at the
// settings of before (8 cases at once, in suite order, a 5 s request timeout, slow answers of 2 s,
// Retry-After of 1 s and a date 2 s ahead), in one sitting: for each client, each round runs the default
// run and the run of before back to back. The clients: the Go example, built once (it starts in
// milliseconds), the PHP example (Guzzle 7, a PHP process starts in milliseconds too), the shell example
// (bash, curl, jq: a dozen processes a case) and the Python example (urllib3), each a process per case as a
// user runs it. It prints, for each run, the wall time, the CPU time of the client's processes
// and of relay-mock, the longest case and the share of the cases' time spent on the service's deliberate
// delays; then the targets: a fast-starting client's default run within 1.3 × its longest case + 2 s,
// that case 8 s or less, the Python example's run 20 s or less.
//
// Flags: --clients go,php,shell,python (default all four; one whose tool is missing is left out, and said
// so), --rounds <n> (default 1), --json to print the figures as JSON too.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

type Node = typeof import('../src/node.js')
type RunOptions = import('../src/node.js').RunOptions
type RunTime = import('../src/node.js').RunTime

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The settings before the run was scheduled: fixed jobs, suite order, the waits of before. */
const BEFORE: Partial<RunOptions> = {
  jobs: 8,
  order: 'suite',
  requestTimeoutMs: 5000,
  faultWaits: { slowMs: 2000, retryAfterS: 1, dateAheadS: 2 },
}

const TARGETS = { fastVsLongest: 1.3, fastPlusMs: 2000, longestMs: 8000, pythonMs: 20_000 }

interface Client {
  name: string
  command: string
  /** Starts in milliseconds: the 1.3 × longest case + 2 s target is its. */
  fast: boolean
  /** Python: the 20 s target is its. */
  python?: boolean
}

interface Figures {
  client: string
  settings: 'default' | 'before'
  wallMs: number
  clientCpuMs?: number
  kitCpuMs: number
  longest?: { id: string; durationMs: number }
  delayShare: number
  jobs: RunTime['jobs']
  passed: number
  total: number
}

function has(tool: string, args: string[]): boolean {
  try {
    execFileSync(tool, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The clients asked for whose tools are here; the Go example is built into `dir`. */
function clients(names: string[], dir: string): Client[] {
  const found: Client[] = []
  for (const name of names) {
    if (name === 'go' && has('go', ['version'])) {
      const binary = join(dir, 'relay-client')
      execFileSync('go', ['build', '-o', binary, '.'], {
        cwd: join(root, 'examples/clients/go'),
        env: { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
        stdio: 'inherit',
      })
      found.push({ name: 'Go example (net/http, built)', command: binary, fast: true })
    } else if (name === 'shell' && has('curl', ['--version']) && has('jq', ['--version'])) {
      found.push({
        name: 'shell example (bash, curl, jq)',
        command: 'bash examples/clients/shell/client.sh',
        fast: true,
      })
    } else if (
      name === 'php' &&
      (existsSync(join(root, 'examples/clients/php/vendor/autoload.php')) ||
        has('php', ['-r', 'require "GuzzleHttp/autoload.php";']))
    ) {
      found.push({ name: 'PHP example (Guzzle 7)', command: 'php examples/clients/php/client.php', fast: true })
    } else if (name === 'python' && has('python3', ['-c', 'import urllib3'])) {
      found.push({
        name: 'Python example (urllib3)',
        command: 'python3 examples/clients/python/client.py',
        fast: false,
        python: true,
      })
    } else {
      console.log(`(left out: ${name}, its tools are not installed here)`)
    }
  }
  return found
}

async function runOnce(node: Node, client: Client, settings: Figures['settings']): Promise<Figures> {
  const result = await node.runConformance({
    client: client.command,
    cwd: root,
    ...(settings === 'before' ? BEFORE : {}),
  })
  const { summary } = result
  const time = summary.time!
  return {
    client: client.name,
    settings,
    wallMs: summary.wallMs,
    ...(time.clientCpuMs === undefined ? {} : { clientCpuMs: time.clientCpuMs }),
    kitCpuMs: time.kitCpuMs,
    ...(time.longest ? { longest: time.longest } : {}),
    delayShare: time.delayShare,
    jobs: time.jobs,
    passed: summary.passed,
    total: summary.total,
  }
}

const s = (ms: number | undefined) => (ms === undefined ? '?' : `${(ms / 1000).toFixed(1)} s`)

function row(f: Figures): string {
  const jobs = f.jobs.fixed ? `${f.jobs.most} (--jobs)` : `up to ${f.jobs.most}`
  return `| ${f.client} | ${f.settings} | ${s(f.wallMs)} | ${s(f.clientCpuMs)} | ${s(f.kitCpuMs)} | ${f.longest ? `${f.longest.id} ${s(f.longest.durationMs)}` : ''} | ${Math.round(f.delayShare * 100)}% | ${jobs} | ${f.passed}/${f.total} |`
}

/** Each default run's targets, met or not. */
function verdicts(figures: Figures[], list: Client[]): string[] {
  const lines: string[] = []
  for (const f of figures.filter((f) => f.settings === 'default')) {
    const client = list.find((c) => c.name === f.client)!
    const longest = f.longest?.durationMs ?? 0
    if (client.fast) {
      const bound = TARGETS.fastVsLongest * longest + TARGETS.fastPlusMs
      lines.push(
        `${f.client}: wall ${s(f.wallMs)} ${f.wallMs <= bound ? '≤' : '>'} ${TARGETS.fastVsLongest} × its longest case + ${s(TARGETS.fastPlusMs)} = ${s(bound)}; longest ${s(longest)} ${longest <= TARGETS.longestMs ? '≤' : '>'} ${s(TARGETS.longestMs)}`,
      )
    }
    if (client.python)
      lines.push(`${f.client}: wall ${s(f.wallMs)} ${f.wallMs <= TARGETS.pythonMs ? '≤' : '>'} ${s(TARGETS.pythonMs)}`)
    const before = figures.find((b) => b.settings === 'before' && b.client === f.client)
    if (before) lines.push(`${f.client}: default / before, wall ${(f.wallMs / before.wallMs).toFixed(2)}×`)
  }
  return lines
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined)
  const rounds = Number(value('--rounds') ?? 1)
  const names = (value('--clients') ?? 'go,php,shell,python').split(',')
  const node = (await import(pathToFileURL(join(root, 'dist/src/node.js')).href)) as Node
  const cpus = os.cpus()
  console.log(
    `relay-mock conform, the default run and the run of before, in one sitting: commit ${commit()}, Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} at the start`,
  )
  console.log(`command: npm run bench:conform -- ${args.join(' ')}`.trimEnd())
  console.log(`before: ${JSON.stringify(BEFORE)}\n`)
  const dir = mkdtempSync(join(os.tmpdir(), 'relay-mock-bench-'))
  const figures: Figures[] = []
  try {
    const list = clients(names, dir)
    console.log(
      '| client | settings | wall | client CPU | relay-mock CPU | longest case | waiting on delays | cases at once | passed |',
    )
    console.log('|---|---|---|---|---|---|---|---|---|')
    for (let round = 0; round < rounds; round++) {
      for (const client of list) {
        for (const settings of ['default', 'before'] as const) {
          const f = await runOnce(node, client, settings)
          figures.push(f)
          console.log(row(f))
        }
      }
    }
    console.log(
      `\nload average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')} at the end`,
    )
    for (const line of verdicts(figures, list)) console.log(line)
    if (args.includes('--json'))
      console.log(JSON.stringify({ commit: commit(), node: process.version, cpus: cpus.length, figures }, null, 2))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
