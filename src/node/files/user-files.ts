// The user's own worlds, read from files: a scenario as JSON or as a JS/TS module that default-exports
// defineScenario(...). A bad file is one RelayMockError naming each wrong field, what it expected and
// what it found. The user's cases are read in user-cases.ts, so that serve loads nothing of the
// conformance kit.
import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Jiti } from 'jiti'
import { z } from 'zod'
import { scenarios as builtInScenarios } from '../../../scenarios/index.js'
import { describeError, RelayMockError } from '../../core/errors.js'
import { defineScenario, SIMPLE_PAYMENT_BEHAVIOURS, type Scenario } from '../../core/service/scenario.js'
import { describeFieldErrors, parseScenarioFile, toFieldErrors } from '../../core/service/scenario-file.js'
import { importExternal } from '../../core/import-external.js'

const SCENARIO_EXTENSIONS = ['.json', '.js', '.mjs', '.ts', '.mts']
const TS_EXTENSIONS = new Set(['.ts', '.mts'])

/**
 * True when a `--scenario` value (or a case's `scenario`) is a path rather than a scenario's name:
 * it has a slash or a scenario file's extension.
 * @example isScenarioPath('./my-world.json') // true; isScenarioPath('new-vehicle') // false
 */
export function isScenarioPath(value: string): boolean {
  return /[\\/]/.test(value) || SCENARIO_EXTENSIONS.includes(extname(value).toLowerCase())
}

/** One Scenario per file per process: two cases naming one file share its scenario (and its seeded world). */
const loaded = new Map<string, Promise<Scenario>>()

/**
 * Reads a scenario of the user's: JSON (declared companies, vehicles and visit) or a JS/TS module whose
 * default export is `defineScenario({...})`. TypeScript is loaded with jiti (Node 20 cannot import it).
 * @example const scenario = await loadScenario('examples/worlds/glansi.json')
 */
export function loadScenario(file: string): Promise<Scenario> {
  const path = resolve(file)
  let found = loaded.get(path)
  if (!found) {
    found = readScenario(file, path)
    loaded.set(path, found)
    // A file fixed after a failed load is read again.
    found.catch(() => loaded.delete(path))
  }
  return found
}

/**
 * A `--scenario` value as the service takes it: a built-in scenario's name as is, a path loaded.
 * @example await resolveScenario('./my-world.ts') // the Scenario it exports; resolveScenario('default') // 'default'
 */
export async function resolveScenario(value: string, options: { from?: string } = {}): Promise<string | Scenario> {
  if (builtInScenarios.has(value) || !isScenarioPath(value)) return value
  return loadScenario(options.from ? resolve(options.from, value) : value)
}

async function readScenario(file: string, path: string): Promise<Scenario> {
  const fail = (reason: string, todo = 'Please fix the file.') =>
    new RelayMockError('SCENARIO_FILE_INVALID', `Failed to load the scenario ${file}: ${reason} ${todo}`)
  const extension = extname(path).toLowerCase()
  if (!SCENARIO_EXTENSIONS.includes(extension)) {
    throw fail(
      `a scenario file ends in ${SCENARIO_EXTENSIONS.join(', ')}, not "${extension || '(none)'}".`,
      'Please pass a JSON scenario or a module that default-exports defineScenario(...).',
    )
  }
  if (extension === '.json') {
    const parsed = parseScenarioFile(await readJson(file, path, 'scenario'))
    if ('errors' in parsed) throw fail(`${describeFieldErrors(parsed.errors)}.`)
    return parsed.scenario
  }

  await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw unreadable('scenario', file, path, error)
  })
  let module: { default?: unknown }
  try {
    module = TS_EXTENSIONS.has(extension)
      ? await importTypeScript(path)
      : await importExternal<{ default?: unknown }>(pathToFileURL(path).href)
  } catch (error) {
    if (error instanceof RelayMockError) throw error
    // A parse error's message says where on its next line: keep it, on one line.
    const said = describeError(error)
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join(' at ')
      .replace(/\s+/g, ' ')
      .replace(/\.$/, '')
    throw fail(`the module failed to load: ${said.length > 300 ? `${said.slice(0, 297)}...` : said}.`)
  }
  const exported = module.default
  const checked = scenarioModule.safeParse(exported)
  if (exported === undefined)
    throw fail(
      'it has no default export.',
      'Please end it with `export default defineScenario({ name, description, seed })`.',
    )
  if (!checked.success)
    throw fail(
      `its default export is not a scenario: ${describeFieldErrors(toFieldErrors(scenarioModule, checked.error.issues, exported))}.`,
      'Please export defineScenario({ name, description, seed }).',
    )
  try {
    // A plain object gets what defineScenario gives (the default simple-payment behaviour, its checks).
    return defineScenario(exported as Scenario)
  } catch (error) {
    throw fail(firstLine(error))
  }
}

/** What a scenario module's default export must hold: defineScenario's object (or a plain one like it). */
const scenarioModule = z.looseObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]*$/, { error: 'is not a name of letters, digits, ".", "_" and "-"' })
    .meta({ description: 'a name, e.g. glansi-fleet' }),
  description: z.string().meta({ description: 'one line: the state of the world' }),
  simplePayment: z
    .enum(SIMPLE_PAYMENT_BEHAVIOURS)
    .optional()
    .meta({ description: SIMPLE_PAYMENT_BEHAVIOURS.join(', ') }),
  // Each fault is checked by defineScenario (toArmedFault), which says what is allowed.
  faults: z.array(z.unknown()).optional().meta({ description: 'a list of { route, kind, mode? }' }),
  seed: z
    .custom<Scenario['seed']>((value) => typeof value === 'function', { error: 'is not a function' })
    .meta({
      description: 'a function seed(context) that returns the visit',
    }),
})

let jiti: Promise<Jiti> | undefined

/**
 * Imports a TypeScript module; jiti loads only when a .ts file is given, so the rest of the CLI never
 * pays for it. No cache on disk (nothing is written into the user's project), and the module's own
 * exports as they are, so that a missing default export is seen as missing.
 */
async function importTypeScript(path: string): Promise<{ default?: unknown }> {
  jiti ??= importExternal<typeof import('jiti')>('jiti').then(({ createJiti }) =>
    createJiti(import.meta.url, { moduleCache: false, fsCache: false, interopDefault: false }),
  )
  return await (await jiti).import<{ default?: unknown }>(path, {})
}

/** A user's JSON file, or the RelayMockError that says why it cannot be read. */
export async function readJson(file: string, path: string, what: 'scenario' | 'cases'): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw unreadable(what, file, path, error as NodeJS.ErrnoException)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RelayMockError(
      what === 'scenario' ? 'SCENARIO_FILE_INVALID' : 'CASES_FILE_INVALID',
      `Failed to load the ${what} ${file}: it is not JSON (${firstLine(error)}). Please fix the file.`,
    )
  }
}

function unreadable(
  what: 'scenario' | 'cases',
  file: string,
  path: string,
  error: NodeJS.ErrnoException,
): RelayMockError {
  const reason =
    error.code === 'ENOENT'
      ? `there is no such file (looked for ${path})`
      : error.code === 'EISDIR'
        ? 'it is a folder'
        : firstLine(error)
  return new RelayMockError(
    what === 'scenario' ? 'SCENARIO_FILE_NOT_FOUND' : 'CASES_FILE_NOT_FOUND',
    `Failed to load the ${what} ${file}: ${reason}. Please check the path.`,
  )
}

/** An error's first line, without its full stop. */
export function firstLine(error: unknown): string {
  return describeError(error).split('\n')[0].replace(/\.$/, '')
}
