// scripts/test-prerequisites.mjs: what the tests need beyond npm is found where it is commonly installed,
// and where it is not and cannot be installed, the run stops with one line per need saying what to install.
// Each test file checks its own needs (test/support/needs.ts): a file that needs none runs without them.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module without types (npm test runs it before anything is built)
import * as prerequisites from '../scripts/test-prerequisites.mjs'

const {
  canInstall,
  choosePython,
  createContext,
  findAll,
  findChromium,
  findFaraday,
  findGo,
  findGuzzle,
  findJava,
  findPhp,
  goVersion,
  javaMajor,
  missingLine,
  NEEDS,
  phpCheck,
  testEnvironment,
} = prerequisites

/** A machine made of the files given: only they exist and can run; `run` answers as told. */
function machine({
  files = [],
  scripts = [],
  platform = 'linux',
  env = {},
  home = '/home/dev',
  dirs = {},
  run = () => ({ status: 1, stdout: '', stderr: '' }),
  uid = 1000,
}: {
  files?: string[]
  /** Of `files`, those that are scripts (`#!`). */
  scripts?: string[]
  platform?: string
  env?: Record<string, string>
  home?: string
  dirs?: Record<string, string[]>
  run?: (file: string, args: string[]) => { status: number; stdout: string; stderr: string }
  uid?: number
}) {
  return createContext({
    env,
    platform,
    home,
    uid,
    isExecutable: (file: string) => files.includes(file),
    isScript: (file: string) => scripts.includes(file),
    listDir: (dir: string) => dirs[dir] ?? [],
    run,
  })
}

const empty = mkdtempSync(path.join(os.tmpdir(), 'relay-mock-nothing-'))
afterAll(() => rmSync(empty, { recursive: true, force: true }))

describe('finding Chrome or Chromium', () => {
  it('takes CHROMIUM_PATH first, and refuses one that names nothing that runs, saying so', () => {
    expect(
      findChromium(
        machine({
          files: ['/opt/chrome/chrome', '/usr/bin/chromium'],
          env: { CHROMIUM_PATH: '/opt/chrome/chrome', PATH: '/usr/bin' },
        }),
      ),
    ).toEqual({ found: '/opt/chrome/chrome', env: { CHROMIUM_PATH: '/opt/chrome/chrome' } })
    expect(
      findChromium(
        machine({ files: ['/usr/bin/chromium'], env: { CHROMIUM_PATH: '/opt/none/chrome', PATH: '/usr/bin' } }),
      ),
    ).toEqual({ missing: 'CHROMIUM_PATH is set to /opt/none/chrome, which is not a program that can run' })
  })

  it('finds chromium, chromium-browser or google-chrome on PATH, in that order', () => {
    const ctx = machine({
      files: ['/usr/local/bin/google-chrome', '/usr/bin/chromium-browser'],
      env: { PATH: '/usr/local/bin:/usr/bin' },
    })
    expect(findChromium(ctx).found).toBe('/usr/bin/chromium-browser')
    expect(
      findChromium(machine({ files: ['/usr/local/bin/google-chrome'], env: { PATH: '/usr/local/bin:/usr/bin' } }))
        .found,
    ).toBe('/usr/local/bin/google-chrome')
  })

  it('finds Chrome in /Applications on macOS and in Program Files on Windows', () => {
    const mac = machine({
      platform: 'darwin',
      files: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
      env: { PATH: '/usr/bin' },
    })
    expect(findChromium(mac).found).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    const windows = machine({
      platform: 'win32',
      home: 'C:\\Users\\dev',
      files: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
      env: { PATH: 'C:\\Windows', PROGRAMFILES: 'C:\\Program Files' },
    })
    expect(findChromium(windows).found).toBe('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')
  })

  it("finds the newest Chromium of Playwright's browser cache", () => {
    const cache = '/home/dev/.cache/ms-playwright'
    const ctx = machine({
      dirs: { [cache]: ['chromium-1140', 'chromium-1200', 'chromium_headless_shell-1200', 'ffmpeg-1010'] },
      files: [`${cache}/chromium-1140/chrome-linux/chrome`, `${cache}/chromium-1200/chrome-linux64/chrome`],
      env: { PATH: '/usr/bin' },
    })
    expect(findChromium(ctx).found).toBe(`${cache}/chromium-1200/chrome-linux64/chrome`)
  })

  it('says where it looked when there is none, and what to install: apt-get where there is one, else Chrome or CHROMIUM_PATH', () => {
    const need = NEEDS.find((n: { name: string }) => n.name === 'Chromium')
    const mac = machine({ platform: 'darwin', env: { PATH: '/usr/bin' } })
    const { missing } = findChromium(mac)
    expect(missing).toMatch(
      /^no Chrome or Chromium on PATH \(chromium, chromium-browser, google-chrome, google-chrome-stable, chrome\), in \/Applications\/Google Chrome\.app\/.*Playwright's browser cache, and CHROMIUM_PATH is not set$/,
    )
    expect(missingLine(mac, { need, missing })).toBe(
      `Missing Chromium, for the browser tests (the HTML report and the live page, driven by playwright-core): ${missing}. Please install Google Chrome or Chromium, or set CHROMIUM_PATH to a Chrome or Chromium binary.`,
    )
    const debian = machine({ files: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' } })
    expect(missingLine(debian, { need, missing: 'none' })).toContain(
      'Please run sudo apt-get install -y chromium, or install Google Chrome or Chromium',
    )
    expect(canInstall(debian)).toBe(false)
    expect(canInstall(machine({ files: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' }, uid: 0 }))).toBe(true)
    expect(
      canInstall(machine({ platform: 'darwin', files: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' }, uid: 0 })),
    ).toBe(false)
  })
})

describe('finding python3 and java', () => {
  const importsAll = (pythons: string[]) => (file: string, args: string[]) => ({
    status: pythons.includes(file) && args[0] === '-c' ? 0 : 1,
    stdout: '',
    stderr: '',
  })

  it("runs the system's python3 when the one first on PATH (a pyenv's, a venv's) lacks the modules, through a link first on PATH", () => {
    const ctx = machine({
      files: ['/home/dev/.pyenv/shims/python3', '/usr/bin/python3'],
      env: { PATH: '/home/dev/.pyenv/shims:/usr/bin' },
      run: importsAll(['/usr/bin/python3']),
    })
    expect(choosePython(ctx)).toEqual({ file: '/usr/bin/python3', shim: true })
    const results = NEEDS.filter((n: { python?: string }) => n.python).map((need: any) => ({ need, ...need.find(ctx) }))
    expect(results.every((r: { found?: string }) => r.found)).toBe(true)
    const { env, cleanup } = testEnvironment(ctx, results)
    try {
      const [shim] = env.PATH.split(path.delimiter)
      expect(readlinkSync(path.join(shim, 'python3'))).toBe('/usr/bin/python3')
      expect(env.PATH.endsWith('/home/dev/.pyenv/shims:/usr/bin')).toBe(true)
    } finally {
      cleanup()
    }
  })

  it('runs the interpreter a launcher script on PATH starts (a pyenv shim picks it anew on every start), through a link first on PATH', () => {
    const shim = '/home/dev/.pyenv/shims/python3'
    const interpreter = '/home/dev/.pyenv/versions/3.11.7/bin/python3'
    const asked: string[][] = []
    const run = (file: string, args: string[]) => {
      asked.push([file, ...args])
      if (file !== shim) return { status: 1, stdout: '', stderr: '' }
      return { status: 0, stdout: args[1].includes('sys.executable') ? `${interpreter}\n` : '', stderr: '' }
    }
    expect(
      choosePython(
        machine({
          files: [shim, interpreter, '/usr/bin/python3'],
          scripts: [shim],
          env: { PATH: '/home/dev/.pyenv/shims:/usr/bin' },
          run,
        }),
      ),
    ).toEqual({ file: interpreter, shim: true })
    expect(asked).toEqual([
      [shim, '-c', 'import urllib3, requests'],
      [shim, '-c', 'import sys; print(sys.executable if sys.prefix == sys.base_prefix else "")'],
    ])
    // A launcher that names no interpreter (it starts a virtual environment's) or none that runs is run
    // itself; a program is never asked.
    const silent = () => ({ status: 0, stdout: '', stderr: '' })
    expect(
      choosePython(machine({ files: [shim], scripts: [shim], env: { PATH: '/home/dev/.pyenv/shims' }, run: silent })),
    ).toEqual({ file: shim })
    expect(
      choosePython(
        machine({ files: [interpreter], env: { PATH: '/home/dev/.pyenv/versions/3.11.7/bin' }, run: silent }),
      ),
    ).toEqual({ file: interpreter })
  })

  it("starts the tests' Node processes without NODE_EXTRA_CA_CERTS, keeping it aside for npm", () => {
    const ctx = machine({ env: { PATH: '/usr/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' } })
    expect(testEnvironment(ctx, []).env).toEqual({
      NODE_EXTRA_CA_CERTS: undefined,
      KEPT_NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
    })
    expect(testEnvironment(machine({ env: { PATH: '/usr/bin' } }), []).env).toEqual({})
  })

  it('keeps the python3 on PATH when it has them, and names the module it lacks when none has', () => {
    expect(
      choosePython(
        machine({
          files: ['/usr/local/bin/python3'],
          env: { PATH: '/usr/local/bin' },
          run: importsAll(['/usr/local/bin/python3']),
        }),
      ),
    ).toEqual({ file: '/usr/local/bin/python3' })
    const mac = machine({ platform: 'darwin', files: ['/usr/local/bin/python3'], env: { PATH: '/usr/local/bin' } })
    const urllib3 = NEEDS.find((n: { python?: string }) => n.python === 'urllib3')
    expect(urllib3.find(mac)).toEqual({ missing: '/usr/local/bin/python3 cannot import urllib3' })
    expect(missingLine(mac, { need: urllib3, missing: '/usr/local/bin/python3 cannot import urllib3' })).toBe(
      "Missing Python's urllib3, for the Python example client: /usr/local/bin/python3 cannot import urllib3. Please run python3 -m pip install urllib3.",
    )
  })

  it('takes java 17 or later with javac beside it: from PATH, else from JAVA_HOME put first on PATH; an older one or a JRE is named', () => {
    expect(javaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17)
    expect(javaMajor('java version "1.8.0_392"')).toBe(8)
    expect(javaMajor('openjdk version "21" 2023-09-19')).toBe(21)
    const versions: Record<string, string> = {
      '/usr/bin/java': 'openjdk version "11.0.2"',
      '/opt/jdk-21/bin/java': 'openjdk version "21.0.1"',
    }
    const run = (file: string) => ({ status: 0, stdout: '', stderr: versions[file] })
    expect(
      findJava(
        machine({
          files: [...Object.keys(versions), '/opt/jdk-21/bin/javac'],
          env: { PATH: '/usr/bin', JAVA_HOME: '/opt/jdk-21' },
          run,
        }),
      ),
    ).toEqual({ found: '/opt/jdk-21/bin/java (Java 21)', pathDirs: ['/opt/jdk-21/bin'] })
    expect(
      findJava(machine({ files: Object.keys(versions), env: { PATH: '/usr/bin', JAVA_HOME: '/opt/jdk-21' }, run })),
    ).toEqual({
      missing: '/usr/bin/java is Java 11; /opt/jdk-21/bin/java is Java 21 without javac beside it (a JRE, not a JDK)',
    })
    expect(findJava(machine({ files: ['/usr/bin/java'], env: { PATH: '/usr/bin' }, run }))).toEqual({
      missing: '/usr/bin/java is Java 11',
    })
  })
})

describe('finding go', () => {
  const versions: Record<string, string> = {
    '/usr/bin/go': 'go version go1.15.15 linux/amd64',
    '/usr/lib/go/bin/go': 'go version go1.19.8 linux/amd64',
    '/opt/go/bin/go': 'go version go1.22.2 linux/arm64',
  }
  const run = (file: string) => ({ status: 0, stdout: versions[file] ?? '', stderr: '' })

  it('reads the version go reports', () => {
    expect(goVersion('go version go1.19.8 linux/amd64')).toEqual([1, 19])
    expect(goVersion('go version go1.22rc1 darwin/arm64')).toEqual([1, 22])
    expect(goVersion('not go')).toBeUndefined()
  })

  it("takes go 1.19 or later: from PATH, else GOROOT's, else Debian's put first on PATH; an older one is named", () => {
    expect(findGo(machine({ files: ['/opt/go/bin/go'], env: { PATH: '/opt/go/bin' }, run }))).toEqual({
      found: '/opt/go/bin/go (Go 1.22)',
    })
    expect(
      findGo(machine({ files: ['/usr/bin/go', '/opt/go/bin/go'], env: { PATH: '/usr/bin', GOROOT: '/opt/go' }, run })),
    ).toEqual({ found: '/opt/go/bin/go (Go 1.22)', pathDirs: ['/opt/go/bin'] })
    expect(findGo(machine({ files: ['/usr/bin/go', '/usr/lib/go/bin/go'], env: { PATH: '/usr/bin' }, run }))).toEqual({
      found: '/usr/lib/go/bin/go (Go 1.19)',
      pathDirs: ['/usr/lib/go/bin'],
    })
    expect(findGo(machine({ files: ['/usr/bin/go'], env: { PATH: '/usr/bin' }, run }))).toEqual({
      missing: '/usr/bin/go is Go 1.15',
    })
    expect(findGo(machine({ env: { PATH: '/usr/bin' }, run }))).toEqual({
      missing: 'no go on PATH, and GOROOT is not set',
    })
  })

  it('says to install golang-go where apt-get is, else Go from go.dev', () => {
    const need = NEEDS.find((n: { name: string }) => n.name === 'Go 1.19 or later')
    expect(
      missingLine(machine({ files: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' } }), {
        need,
        missing: 'no go on PATH, and GOROOT is not set',
      }),
    ).toBe(
      'Missing Go 1.19 or later, for the Go example client (built once with go build): no go on PATH, and GOROOT is not set. Please run sudo apt-get install -y golang-go, or install Go 1.19 or later (https://go.dev/dl/) and put its bin folder on PATH.',
    )
  })
})

describe('finding PHP, Guzzle, Ruby and Faraday', () => {
  const answers = (table: Record<string, string>) => (file: string, args: string[]) => {
    const key = Object.keys(table).find((start) => `${file} ${args.join(' ')}`.startsWith(start))
    return { status: key ? 0 : 1, stdout: key ? table[key] : '', stderr: '' }
  }

  it('takes php 8.2 or later from PATH, and names an older one', () => {
    expect(
      findPhp(
        machine({ files: ['/usr/bin/php'], env: { PATH: '/usr/bin' }, run: answers({ '/usr/bin/php -r': '8.2.32' }) }),
      ),
    ).toEqual({ found: '/usr/bin/php (PHP 8.2)' })
    expect(
      findPhp(
        machine({ files: ['/usr/bin/php'], env: { PATH: '/usr/bin' }, run: answers({ '/usr/bin/php -r': '7.4.33' }) }),
      ),
    ).toEqual({ missing: '/usr/bin/php is PHP 7.4' })
    expect(findPhp(machine({ env: { PATH: '/usr/bin' } }))).toEqual({ missing: 'no php on PATH' })
  })

  it("asks php for its curl extension and for Guzzle 7 (the example's vendor/ first, else the include_path), and says what it lacks", () => {
    const asked: string[] = []
    const run = (_file: string, args: string[]) => {
      asked.push(args[1])
      return { status: 0, stdout: args[1].includes('curl') ? 'ok' : 'no', stderr: '' }
    }
    const ctx = machine({ files: ['/usr/bin/php'], env: { PATH: '/usr/bin' }, run })
    const curl = NEEDS.find((n: { name: string }) => n.name === "PHP's curl extension")
    expect(curl.find(ctx)).toEqual({ found: '/usr/bin/php loads curl' })
    expect(findGuzzle(ctx)).toEqual({
      missing: '/usr/bin/php finds no Guzzle 7 (in examples/clients/php/vendor/ or on its include_path)',
    })
    expect(asked[1]).toMatch(
      /examples\/clients\/php\/vendor\/autoload\.php.*GuzzleHttp\/autoload\.php.*MAJOR_VERSION === 7/,
    )
    expect(phpCheck(machine({ env: { PATH: '/usr/bin' } }), 'true', { has: '', lacks: '' })).toEqual({
      missing: 'no php on PATH',
    })
    const guzzle = NEEDS.find((n: { name: string }) => n.name === 'Guzzle 7')
    expect(
      missingLine(machine({ files: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' } }), {
        need: guzzle,
        missing: 'no php on PATH',
      }),
    ).toBe(
      'Missing Guzzle 7, for the PHP example client: no php on PATH. Please run sudo apt-get install -y php-guzzlehttp-guzzle, or run composer install in examples/clients/php.',
    )
  })

  it('takes Faraday 1.x as ruby requires it, and names another version', () => {
    const ruby = (version: string) =>
      machine({
        files: ['/usr/bin/ruby'],
        env: { PATH: '/usr/bin' },
        run: answers(version ? { '/usr/bin/ruby -e': version } : {}),
      })
    expect(findFaraday(ruby('1.1.0'))).toEqual({ found: '/usr/bin/ruby requires Faraday 1.1.0' })
    expect(findFaraday(ruby('2.9.0'))).toEqual({ missing: '/usr/bin/ruby requires Faraday 2.9.0, not 1.x' })
    expect(findFaraday(ruby(''))).toEqual({ missing: '/usr/bin/ruby cannot require faraday' })
  })
})

describe('node scripts/test-prerequisites.mjs', () => {
  it('exits 1 with one line per missing need when nothing is found and nothing can be installed (no apt-get on PATH)', () => {
    const run = spawnSync(process.execPath, ['scripts/test-prerequisites.mjs'], {
      encoding: 'utf8',
      env: { PATH: empty, HOME: empty, CHROMIUM_PATH: path.join(empty, 'chrome') },
      timeout: 60_000,
    })
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    const lines = run.stderr.trim().split('\n')
    expect(lines).toContain(
      `Missing Chromium, for the browser tests (the HTML report and the live page, driven by playwright-core): CHROMIUM_PATH is set to ${path.join(empty, 'chrome')}, which is not a program that can run. Please install Google Chrome or Chromium, or set CHROMIUM_PATH to a Chrome or Chromium binary.`,
    )
    expect(lines).toContain('Missing curl, for the shell example client: no curl on PATH. Please install curl.')
    expect(lines).toContain(
      'Missing jq, for the shell example client: no jq on PATH. Please install jq (https://jqlang.org/download/).',
    )
    expect(lines).toContain(
      'Missing PHP 8.2 or later, for the PHP example client: no php on PATH. Please install PHP 8.2 or later (https://www.php.net/downloads) and put php on PATH.',
    )
    expect(lines).toContain(
      "Missing Faraday 1.x, for the Ruby clients on Faraday 1.x: no ruby on PATH. Please run gem install faraday -v '~> 1.1'.",
    )
    expect(lines.at(-1)).toMatch(/^The tests need them; none is skipped for want of one\.$/)
    expect(lines.slice(0, -1).every((line) => line.startsWith('Missing '))).toBe(true)
  })
})

describe('the needs of each test file', () => {
  it('are checked by the file: one that needs none runs on a machine with nothing, one that needs a browser fails saying what to install', () => {
    // Only node on PATH, no browser: a store test passes, and the browser tests fail (never skip).
    const vitest = path.join('node_modules', 'vitest', 'vitest.mjs')
    const bin = mkdtempSync(path.join(os.tmpdir(), 'relay-mock-node-only-'))
    symlinkSync(process.execPath, path.join(bin, 'node'))
    const env = { PATH: bin, HOME: empty, CHROMIUM_PATH: path.join(empty, 'chrome'), NO_COLOR: '1' }
    const run = spawnSync(
      process.execPath,
      [vitest, 'run', '--reporter=json', 'test/service/store.test.ts', 'test/report/browser.test.ts'],
      { encoding: 'utf8', env, timeout: 120_000 },
    )
    rmSync(bin, { recursive: true, force: true })
    const report = JSON.parse(run.stdout) as {
      testResults: { name: string; status: string; message: string; assertionResults: { status: string }[] }[]
    }
    const file = (name: string) => report.testResults.find((result) => result.name.endsWith(name))!
    expect(run.status).toBe(1)
    expect(file('store.test.ts').status).toBe('passed')
    expect(file('store.test.ts').assertionResults.length).toBeGreaterThan(0)
    expect(file('browser.test.ts').status).toBe('failed')
    expect(file('browser.test.ts').message).toContain(
      `Missing Chromium, for the browser tests (the HTML report and the live page, driven by playwright-core): CHROMIUM_PATH is set to ${path.join(empty, 'chrome')}, which is not a program that can run. Please install Google Chrome or Chromium`,
    )
  }, 120_000)

  it('are asked for by id, and an id no need has is refused, naming the ids', () => {
    expect(NEEDS.map((need: { id: string }) => need.id)).toEqual([
      'chromium',
      'curl',
      'jq',
      'python3',
      'urllib3',
      'requests',
      'java',
      'go',
      'php',
      'php-curl',
      'guzzle',
      'ruby',
      'faraday',
    ])
    expect(() => findAll(createContext(), ['pyhton3'])).toThrow(
      'No need is named pyhton3. The needs: chromium, curl, jq, python3, urllib3, requests, java, go, php, php-curl, guzzle, ruby, faraday (scripts/test-prerequisites.mjs).',
    )
  })
})
