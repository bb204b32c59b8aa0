// What the tests need beyond Node and npm, in one table: each need, how it is found, the Debian package
// that provides it and what it is for. `npm test` runs this first: it finds each need where it is commonly
// installed and, as root with apt-get (CI, a container), installs what is missing, saying what and why;
// elsewhere (macOS, Windows, no root) it stops with one line per missing need saying what to install.
// Each test file that needs one checks it itself (test/support/needs.ts, by the need's id): it fails, with
// the same line, when the need is missing, and is handed what was found (CHROMIUM_PATH, and PATH with the
// python3, java and go to run). The files that need none (npm run test:fast) start without looking.
// vitest runs this file too (globalSetup), to spare the tests' Node processes a start-up cost of the
// machine's: see CA_CERTS.
import { spawnSync } from 'node:child_process'
import {
  accessSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** The oldest Java the Java example client runs on. */
const JAVA_MIN = 17
/** The oldest Go the Go example client builds with (Debian 12's golang-go). */
const GO_MIN = [1, 19]
/** The oldest PHP the PHP example client runs on (Debian 12's). */
const PHP_MIN = [8, 2]

/**
 * Each need: `id`, by which a test file asks for it (test/support/needs.ts); `name`; `for` (what the tests
 * use it for); `find(ctx)`, which says where it is (`found`, with what the tests must be given to use it:
 * `env`, `pathDirs` put first on PATH) or why not (`missing`); `debian`, the package that provides it;
 * `elsewhere`, what to do without apt-get.
 */
export const NEEDS = [
  {
    id: 'chromium',
    name: 'Chromium',
    for: 'the browser tests (the HTML report and the live page, driven by playwright-core)',
    find: findChromium,
    debian: 'chromium',
    elsewhere: 'install Google Chrome or Chromium, or set CHROMIUM_PATH to a Chrome or Chromium binary',
  },
  {
    id: 'curl',
    name: 'curl',
    for: 'the shell example client',
    find: (ctx) => findCommand(ctx, 'curl'),
    debian: 'curl',
    elsewhere: 'install curl',
  },
  {
    id: 'jq',
    name: 'jq',
    for: 'the shell example client',
    find: (ctx) => findCommand(ctx, 'jq'),
    debian: 'jq',
    elsewhere: 'install jq (https://jqlang.org/download/)',
  },
  {
    id: 'python3',
    name: 'Python 3',
    for: 'the Python clients, and the tests that read a report with its standard library',
    find: findPython,
    debian: 'python3',
    elsewhere: 'install Python 3 (https://www.python.org/downloads/)',
  },
  {
    id: 'urllib3',
    name: "Python's urllib3",
    for: 'the Python example client',
    python: 'urllib3',
    find: (ctx) => findPythonModule(ctx, 'urllib3'),
    debian: 'python3-urllib3',
    elsewhere: 'run python3 -m pip install urllib3',
  },
  {
    id: 'requests',
    name: "Python's requests",
    for: 'the Python example client built on requests',
    python: 'requests',
    find: (ctx) => findPythonModule(ctx, 'requests'),
    debian: 'python3-requests',
    elsewhere: 'run python3 -m pip install requests',
  },
  {
    id: 'java',
    name: `Java ${JAVA_MIN} or later`,
    for: 'the Java example client',
    find: findJava,
    debian: 'default-jdk-headless',
    elsewhere: `install a JDK ${JAVA_MIN} or later (e.g. Eclipse Temurin) and put its bin folder on PATH`,
  },
  {
    id: 'go',
    name: `Go ${GO_MIN.join('.')} or later`,
    for: 'the Go example client (built once with go build)',
    find: findGo,
    debian: 'golang-go',
    elsewhere: `install Go ${GO_MIN.join('.')} or later (https://go.dev/dl/) and put its bin folder on PATH`,
  },
  {
    id: 'php',
    name: `PHP ${PHP_MIN.join('.')} or later`,
    for: 'the PHP example client',
    find: findPhp,
    debian: 'php-cli',
    elsewhere: `install PHP ${PHP_MIN.join('.')} or later (https://www.php.net/downloads) and put php on PATH`,
  },
  {
    id: 'php-curl',
    name: "PHP's curl extension",
    for: 'the PHP example client (Guzzle sends through libcurl)',
    find: (ctx) =>
      phpCheck(ctx, 'extension_loaded("curl")', { has: 'loads curl', lacks: 'cannot load the curl extension' }),
    debian: 'php-curl',
    elsewhere: 'install the curl extension of your PHP (php-curl)',
  },
  {
    id: 'guzzle',
    name: 'Guzzle 7',
    for: 'the PHP example client',
    find: findGuzzle,
    debian: 'php-guzzlehttp-guzzle',
    elsewhere: 'run composer install in examples/clients/php',
  },
  {
    id: 'ruby',
    name: 'Ruby',
    for: "the Ruby clients (Net::HTTP and Faraday at their defaults and set up, Net::HTTP's own resend, a Ruby crash)",
    find: (ctx) => findCommand(ctx, 'ruby'),
    debian: 'ruby',
    elsewhere: 'install Ruby 3.1 or later',
  },
  {
    id: 'faraday',
    name: 'Faraday 1.x',
    for: 'the Ruby clients on Faraday 1.x',
    find: findFaraday,
    debian: 'ruby-faraday',
    elsewhere: "run gem install faraday -v '~> 1.1'",
  },
]

/**
 * Where and how to look: the environment, the platform, the home folder and how to test a file and run a
 * program. The defaults are this machine's; the tests give their own.
 * @example createContext({ env: { PATH: '/nowhere' }, platform: 'darwin' })
 */
export function createContext(overrides = {}) {
  const ctx = {
    env: process.env,
    platform: process.platform,
    home: os.homedir(),
    isExecutable: (file) => {
      try {
        if (!statSync(file).isFile()) return false
        if ((overrides.platform ?? process.platform) !== 'win32') accessSync(file, constants.X_OK)
        return true
      } catch {
        return false
      }
    },
    listDir: (dir) => {
      try {
        return readdirSync(dir)
      } catch {
        return []
      }
    },
    /** Whether `file` is a script (`#!`) rather than a program: a pyenv shim, a launcher. */
    isScript: (file) => {
      try {
        const head = Buffer.alloc(2)
        const fd = openSync(file, 'r')
        try {
          readSync(fd, head, 0, 2, 0)
        } finally {
          closeSync(fd)
        }
        return head.toString('latin1') === '#!'
      } catch {
        return false
      }
    },
    run: (file, args) => {
      const result = spawnSync(file, args, { encoding: 'utf8', timeout: 20_000 })
      return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' }
    },
    /** Interpreters that Debian's python3-* packages install for, tried after the python3 on PATH. */
    systemPython: '/usr/bin/python3',
    /** Where Debian's default-jdk-headless puts java, tried after JAVA_HOME. */
    systemJava: '/usr/lib/jvm/default-java/bin/java',
    /** Where Debian's golang-go and Go's own archive put go, tried after GOROOT. */
    systemGo: ['/usr/lib/go/bin/go', '/usr/local/go/bin/go'],
    ...overrides,
  }
  ctx.pythonModules = overrides.pythonModules ?? NEEDS.filter((need) => need.python).map((need) => need.python)
  return ctx
}

const pathApi = (ctx) => (ctx.platform === 'win32' ? path.win32 : path.posix)

/** Every file named `name` on the context's PATH that can run, in PATH order (with PATHEXT's extensions on Windows). */
export function onPath(ctx, name) {
  const { delimiter, join } = pathApi(ctx)
  const dirs = (ctx.env.PATH ?? ctx.env.Path ?? '').split(delimiter).filter(Boolean)
  const extensions =
    ctx.platform === 'win32'
      ? ['', ...(ctx.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((ext) => ext.toLowerCase())]
      : ['']
  return dirs
    .flatMap((dir) => extensions.map((ext) => join(dir, `${name}${ext}`)))
    .filter((file) => ctx.isExecutable(file))
}

function findCommand(ctx, name) {
  const [file] = onPath(ctx, name)
  return file ? { found: file } : { missing: `no ${name} on PATH` }
}

/** The newest browser in Playwright's cache (`npx playwright install chromium` puts one there), if there is one. */
function playwrightChromium(ctx) {
  const { join } = pathApi(ctx)
  const cache =
    ctx.env.PLAYWRIGHT_BROWSERS_PATH ||
    (ctx.platform === 'win32'
      ? join(ctx.env.LOCALAPPDATA ?? join(ctx.home, 'AppData', 'Local'), 'ms-playwright')
      : ctx.platform === 'darwin'
        ? join(ctx.home, 'Library', 'Caches', 'ms-playwright')
        : join(ctx.home, '.cache', 'ms-playwright'))
  const builds = ctx
    .listDir(cache)
    .map((dir) => /^chromium(_headless_shell)?-(\d+)$/.exec(dir))
    .filter(Boolean)
    // A full Chromium before a headless shell of the same build; newer builds first.
    .sort((a, b) => Number(b[2]) - Number(a[2]) || Number(Boolean(a[1])) - Number(Boolean(b[1])))
  const inside =
    {
      linux: [
        'chrome-linux64/chrome',
        'chrome-linux/chrome',
        'chrome-headless-shell-linux64/chrome-headless-shell',
        'chrome-linux/headless_shell',
      ],
      darwin: [
        'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
        'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
        'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
        'chrome-headless-shell-mac-arm64/chrome-headless-shell',
        'chrome-headless-shell-mac-x64/chrome-headless-shell',
        'chrome-mac/headless_shell',
      ],
      win32: [
        'chrome-win64/chrome.exe',
        'chrome-win/chrome.exe',
        'chrome-headless-shell-win64/chrome-headless-shell.exe',
        'chrome-win/headless_shell.exe',
      ],
    }[ctx.platform] ?? []
  for (const [dir] of builds)
    for (const file of inside)
      if (ctx.isExecutable(join(cache, dir, ...file.split('/')))) return join(cache, dir, ...file.split('/'))
  return undefined
}

/** Chrome or Chromium: CHROMIUM_PATH; else on PATH; else where each system installs it; else Playwright's cache. */
export function findChromium(ctx) {
  const given = ctx.env.CHROMIUM_PATH
  if (given)
    return ctx.isExecutable(given)
      ? { found: given, env: { CHROMIUM_PATH: given } }
      : { missing: `CHROMIUM_PATH is set to ${given}, which is not a program that can run` }
  const { join } = pathApi(ctx)
  const names =
    ctx.platform === 'win32'
      ? ['chrome', 'chromium']
      : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome']
  const installed =
    {
      linux: [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/opt/google/chrome/chrome',
        '/snap/bin/chromium',
      ],
      darwin: ['/Applications', join(ctx.home, 'Applications')].flatMap((apps) => [
        join(apps, 'Google Chrome.app', 'Contents', 'MacOS', 'Google Chrome'),
        join(apps, 'Chromium.app', 'Contents', 'MacOS', 'Chromium'),
      ]),
      win32: [
        ctx.env.PROGRAMFILES ?? 'C:\\Program Files',
        ctx.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)',
        ctx.env.LOCALAPPDATA ?? join(ctx.home, 'AppData', 'Local'),
      ].flatMap((dir) => [
        join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'),
        join(dir, 'Chromium', 'Application', 'chrome.exe'),
      ]),
    }[ctx.platform] ?? []
  const file =
    names.flatMap((name) => onPath(ctx, name))[0] ??
    installed.find((candidate) => ctx.isExecutable(candidate)) ??
    playwrightChromium(ctx)
  if (file) return { found: file, env: { CHROMIUM_PATH: file } }
  return {
    missing: `no Chrome or Chromium on PATH (${names.join(', ')}), in ${installed.length ? `${installed.join(', ')} or ` : ''}Playwright's browser cache, and CHROMIUM_PATH is not set`,
  }
}

/** Prints the interpreter's own file, unless it runs a virtual environment. */
const PRINT_INTERPRETER = 'import sys; print(sys.executable if sys.prefix == sys.base_prefix else "")'

/** Whether `python` imports every module of `modules`. */
const imports = (ctx, python, modules) => ctx.run(python, ['-c', `import ${modules.join(', ')}`]).status === 0

/**
 * The interpreter a launcher script starts (a pyenv shim runs `pyenv exec`, which picks the version anew
 * on every start and costs more than the interpreter's own start): the `sys.executable` it reports; or
 * the file itself when it is a program, when it says nothing, or when it starts a virtual environment's
 * python (a link to that one, in another folder, would no longer find the environment's modules).
 */
function interpreterOf(ctx, python) {
  if (!ctx.isScript(python)) return python
  const run = ctx.run(python, ['-c', PRINT_INTERPRETER])
  const executable = run.status === 0 ? run.stdout.trim() : ''
  return executable && ctx.isExecutable(executable) ? executable : python
}

/**
 * The python3 the tests run: the one on PATH when it imports every module the table needs (the interpreter
 * itself where that python3 is a launcher script, such as a pyenv shim); else the system's (Debian's
 * python3-* packages install for /usr/bin/python3, not for a pyenv or a venv earlier on PATH), put
 * first on PATH for the tests. When neither has them all, the one to install into: the system's where
 * apt-get can install, else the one on PATH.
 */
export function choosePython(ctx) {
  if (ctx.python) return ctx.python
  const first = onPath(ctx, 'python3')[0]
  const system = ctx.platform !== 'win32' && ctx.isExecutable(ctx.systemPython) ? ctx.systemPython : undefined
  let chosen
  if (first && imports(ctx, first, ctx.pythonModules)) {
    const interpreter = interpreterOf(ctx, first)
    chosen = interpreter === first ? { file: first } : { file: interpreter, shim: true }
  } else if (system && system !== first && imports(ctx, system, ctx.pythonModules))
    chosen = { file: system, shim: true }
  else if (system && canInstall(ctx)) chosen = { file: system, shim: system !== first, incomplete: true }
  else chosen = first ? { file: first, incomplete: true } : undefined
  ctx.python = chosen
  return chosen
}

function findPython(ctx) {
  const python = choosePython(ctx)
  if (!python) return { missing: 'no python3 on PATH' }
  return { found: python.file, ...(python.shim ? { python: python.file } : {}) }
}

function findPythonModule(ctx, module) {
  const python = choosePython(ctx)
  if (!python) return { missing: 'no python3 on PATH' }
  if (python.incomplete && !imports(ctx, python.file, [module]))
    return { missing: `${python.file} cannot import ${module}` }
  return { found: `${python.file} imports ${module}`, ...(python.shim ? { python: python.file } : {}) }
}

/** The major version `java -version` reports: `openjdk version "17.0.15"` is 17, `java version "1.8.0_392"` is 8. */
export function javaMajor(versionText) {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionText)
  if (!match) return undefined
  return match[1] === '1' && match[2] ? Number(match[2]) : Number(match[1])
}

/** java JAVA_MIN or later: on PATH; else JAVA_HOME's or Debian's default JDK's, put first on PATH for the tests. */
export function findJava(ctx) {
  const { join, dirname } = pathApi(ctx)
  const first = onPath(ctx, 'java')[0]
  const others = [
    ctx.env.JAVA_HOME ? join(ctx.env.JAVA_HOME, 'bin', ctx.platform === 'win32' ? 'java.exe' : 'java') : undefined,
    ctx.platform === 'linux' ? ctx.systemJava : undefined,
  ]
  const seen = []
  for (const file of [first, ...others]) {
    if (!file || seen.includes(file) || !ctx.isExecutable(file)) continue
    const run = ctx.run(file, ['-version'])
    const major = javaMajor(`${run.stderr}\n${run.stdout}`)
    // The tests compile the Java example once with javac: a JRE alone (java without javac beside it) is not enough.
    const javac = join(dirname(file), ctx.platform === 'win32' ? 'javac.exe' : 'javac')
    const jdk = major !== undefined && major >= JAVA_MIN && ctx.isExecutable(javac)
    seen.push(
      `${file} is ${major === undefined ? 'not a java that says its version' : `Java ${major}`}${major !== undefined && major >= JAVA_MIN && !jdk ? ' without javac beside it (a JRE, not a JDK)' : ''}`,
    )
    if (jdk) return { found: `${file} (Java ${major})`, ...(file === first ? {} : { pathDirs: [dirname(file)] }) }
  }
  return { missing: seen.length ? seen.join('; ') : 'no java on PATH, and JAVA_HOME is not set' }
}

/** The version `go version` reports, as [major, minor]: `go version go1.19.8 linux/amd64` is [1, 19]. */
export function goVersion(versionText) {
  const match = /\bgo(\d+)\.(\d+)/.exec(versionText)
  return match ? [Number(match[1]), Number(match[2])] : undefined
}

/** go GO_MIN or later: on PATH; else GOROOT's, Debian's or Go's own archive's, put first on PATH for the tests. */
export function findGo(ctx) {
  const { join, dirname } = pathApi(ctx)
  const exe = ctx.platform === 'win32' ? 'go.exe' : 'go'
  const first = onPath(ctx, 'go')[0]
  const others = [
    ctx.env.GOROOT ? join(ctx.env.GOROOT, 'bin', exe) : undefined,
    ...(ctx.platform === 'win32' ? [] : ctx.systemGo),
  ]
  const seen = []
  for (const file of [first, ...others]) {
    if (!file || seen.some((line) => line.startsWith(`${file} `)) || !ctx.isExecutable(file)) continue
    const version = goVersion(ctx.run(file, ['version']).stdout)
    const recent =
      version !== undefined && (version[0] > GO_MIN[0] || (version[0] === GO_MIN[0] && version[1] >= GO_MIN[1]))
    seen.push(`${file} is ${version ? `Go ${version.join('.')}` : 'not a go that says its version'}`)
    if (recent)
      return { found: `${file} (Go ${version.join('.')})`, ...(file === first ? {} : { pathDirs: [dirname(file)] }) }
  }
  return { missing: seen.length ? seen.join('; ') : 'no go on PATH, and GOROOT is not set' }
}

/** Whether the php on PATH holds `condition` (PHP code): `{ found: php has }`, else `{ missing: php lacks }`. */
export function phpCheck(ctx, condition, { has, lacks }) {
  const [php] = onPath(ctx, 'php')
  if (!php) return { missing: 'no php on PATH' }
  const run = ctx.run(php, ['-r', `echo (${condition}) ? "ok" : "no";`])
  return run.stdout.trim() === 'ok' ? { found: `${php} ${has}` } : { missing: `${php} ${lacks}` }
}

/** php PHP_MIN or later, on PATH. */
export function findPhp(ctx) {
  const [php] = onPath(ctx, 'php')
  if (!php) return { missing: 'no php on PATH' }
  const version = /^(\d+)\.(\d+)/.exec(ctx.run(php, ['-r', 'echo PHP_VERSION;']).stdout.trim())
  if (!version) return { missing: `${php} is not a php that says its version` }
  const [major, minor] = [Number(version[1]), Number(version[2])]
  const recent = major > PHP_MIN[0] || (major === PHP_MIN[0] && minor >= PHP_MIN[1])
  return recent ? { found: `${php} (PHP ${major}.${minor})` } : { missing: `${php} is PHP ${major}.${minor}` }
}

/** Guzzle 7: from the PHP example's vendor/ (composer install), else on PHP's include_path (Debian's package). */
export function findGuzzle(ctx) {
  const autoload = `is_file("examples/clients/php/vendor/autoload.php") ? "examples/clients/php/vendor/autoload.php" : stream_resolve_include_path("GuzzleHttp/autoload.php")`
  return phpCheck(ctx, `($a = ${autoload}) && (require $a) && GuzzleHttp\\ClientInterface::MAJOR_VERSION === 7`, {
    has: 'loads Guzzle 7',
    lacks: 'finds no Guzzle 7 (in examples/clients/php/vendor/ or on its include_path)',
  })
}

/** Faraday 1.x, as the ruby on PATH requires it. */
export function findFaraday(ctx) {
  const [ruby] = onPath(ctx, 'ruby')
  if (!ruby) return { missing: 'no ruby on PATH' }
  const version = ctx.run(ruby, ['-e', 'require "faraday"; print Faraday::VERSION']).stdout.trim()
  if (/^1\./.test(version)) return { found: `${ruby} requires Faraday ${version}` }
  return { missing: version ? `${ruby} requires Faraday ${version}, not 1.x` : `${ruby} cannot require faraday` }
}

/** True where missing needs can be installed: Linux, as root, with apt-get. */
export function canInstall(ctx) {
  return ctx.platform === 'linux' && ctx.uid === 0 && onPath(ctx, 'apt-get').length > 0
}

/**
 * Every need (or those of `ids`), found or missing.
 * @example findAll(createContext()).filter((result) => result.missing)
 */
export function findAll(ctx, ids) {
  const unknown = (ids ?? []).filter((id) => !NEEDS.some((need) => need.id === id))
  if (unknown.length)
    throw new Error(
      `No need is named ${unknown.join(', ')}. The needs: ${NEEDS.map((need) => need.id).join(', ')} (scripts/test-prerequisites.mjs).`,
    )
  return NEEDS.filter((need) => !ids || ids.includes(need.id)).map((need) => ({ need, ...need.find(ctx) }))
}

/** The line that says what to do about a missing need. */
export function missingLine(ctx, { need, missing }) {
  const apt =
    ctx.platform === 'linux' && onPath(ctx, 'apt-get').length > 0
      ? `run sudo apt-get install -y ${need.debian}, or `
      : ''
  return `Missing ${need.name}, for ${need.for}: ${missing}. Please ${apt}${need.elsewhere}.`
}

/**
 * The variable every Node process reads as it starts, whatever it then does: a bundle of extra certificate
 * authorities (a TLS-inspecting proxy's, a company's), which Node parses before running a line, about 75 ms
 * for a system bundle. The tests' Node processes (the CLI, the clients, tsc) speak to loopback only; the one
 * that may reach the registry, `npm install` in test/package.test.ts, is given it back from KEPT_CA_CERTS.
 */
const CA_CERTS = 'NODE_EXTRA_CA_CERTS'
export const KEPT_CA_CERTS = 'KEPT_NODE_EXTRA_CA_CERTS'

/**
 * What the tests must be given to use what was found: CHROMIUM_PATH, and PATH with a python3 that imports
 * the modules (a folder holding a link to it) and the java and go to run put first; and NODE_EXTRA_CA_CERTS
 * moved aside (`undefined`: unset), to KEPT_CA_CERTS. `cleanup` removes that folder.
 */
export function testEnvironment(ctx, results) {
  const env = {}
  const dirs = []
  let cleanup = () => {}
  if (ctx.env[CA_CERTS]) Object.assign(env, { [CA_CERTS]: undefined, [KEPT_CA_CERTS]: ctx.env[CA_CERTS] })
  for (const result of results) {
    Object.assign(env, result.env)
    dirs.push(...(result.pathDirs ?? []))
  }
  const python = results.find((result) => result.python)?.python
  if (python) {
    const shim = mkdtempSync(path.join(os.tmpdir(), 'relay-mock-python-'))
    symlinkSync(python, path.join(shim, 'python3'))
    dirs.unshift(shim)
    cleanup = () => rmSync(shim, { recursive: true, force: true })
  }
  if (dirs.length) env.PATH = [...new Set(dirs), ctx.env.PATH ?? ''].join(path.delimiter)
  return { env, cleanup }
}

/** Installs the Debian packages of the missing needs, saying what and why; returns false (having said why) when apt-get fails. */
function install(missing) {
  const packages = [...new Set(missing.map(({ need }) => need.debian))]
  for (const { need } of missing)
    console.log(`Installing ${need.name} from Debian for ${need.for}: apt-get install -y ${need.debian}`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const run = spawnSync('apt-get', args, { encoding: 'utf8', env })
    if (run.status !== 0) {
      console.error(
        `apt-get ${args.join(' ')} failed (exit ${run.status ?? run.signal}):\n${`${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n')}`,
      )
      return false
    }
  }
  return true
}

/**
 * `node scripts/test-prerequisites.mjs`: finds every need, installs the missing ones where it can, and exits
 * 1 with one line per need still missing.
 */
function main() {
  const ctx = createContext({ uid: process.getuid?.() })
  let missing = findAll(ctx).filter((result) => result.missing)
  if (missing.length && canInstall(ctx) && install(missing)) {
    const again = createContext({ uid: process.getuid?.() })
    missing = findAll(again).filter((result) => result.missing)
  }
  for (const result of missing) console.error(missingLine(ctx, result))
  if (missing.length)
    console.error(`The tests need ${missing.length === 1 ? 'it' : 'them'}; none is skipped for want of one.`)
  process.exitCode = missing.length ? 1 : 0
}

/**
 * vitest's globalSetup: starts the tests' Node processes without NODE_EXTRA_CA_CERTS (see CA_CERTS). It
 * looks for no need: each test file checks its own (test/support/needs.ts).
 * @example globalSetup: ['scripts/test-prerequisites.mjs']
 */
export default function setup() {
  const { env } = testEnvironment(createContext(), [])
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main()
