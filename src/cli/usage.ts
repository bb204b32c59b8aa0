// How a usage error reads: one line on stderr that names what was wrong and what is allowed, then
// exit status 2. yargs' own messages (unknown option, missing value, conflicting options) are put
// into that one line here; the checks' refusals (./checks.ts) already are.
import type { Argv } from 'yargs'
import { RelayMockError } from '../core/errors.js'
import { editDistance } from '../core/text.js'
import { expectedOf, isLoopback, refused, UsageError } from './checks.js'

/**
 * Warns on stderr when a server is to listen where the network reaches it: the admin API and the
 * live page have no authentication.
 * @example warnIfReachable('serve', '0.0.0.0')
 */
export function warnIfReachable(command: string, host: string): void {
  if (isLoopback(host)) return
  console.error(
    `relay-mock ${command}: warning: --host ${host} is not a loopback address, so the admin API (/__relay/) and the live page are reachable from the network: anyone who reaches them can read the worlds and their journals, issue tokens and reset them.`,
  )
}

/**
 * The yargs `.fail()` handler of the command line.
 * @example yargs(args).fail(failHandler(() => cli, ['serve', 'conform'], args))
 */
export function failHandler(cli: () => Argv, commands: readonly string[], args: readonly string[]) {
  return (message: string | null | undefined, error: Error | undefined): void => {
    // An error that is neither a refusal, a tool error nor yargs' own is a bug: thrown, not dressed as usage.
    if (error && error.name !== 'YError' && !(error instanceof UsageError) && !(error instanceof RelayMockError))
      throw error
    const command = args.find((arg) => commands.includes(arg))
    const said = error?.message ?? message ?? 'Failed to read the command line.'
    console.error(
      `relay-mock${command ? ` ${command}` : ''}: ${explain(said, { command, commands, args, options: optionsOf(cli()) })}`,
    )
    process.exit(2)
  }
}

interface Context {
  command: string | undefined
  commands: readonly string[]
  args: readonly string[]
  options: string[]
}

/** At most this many options are listed in the line that refuses an unknown one (past it, --help lists them). */
const LISTED_OPTIONS = 8

/** yargs' message, in one line that says what is allowed. */
export function explain(message: string, { command, commands, args, options }: Context): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message)
  if (unknown) {
    const [name] = unknown[1].split(', ')
    const written = args.find(
      (arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}` || arg.startsWith(`-${name}=`),
    )
    const grouped = name.length === 1 && args.some((arg) => /^-[^-]/.test(arg) && arg.includes(name))
    const flag = written?.split('=')[0] ?? `-${name}`
    const given = written !== undefined || grouped
    if (!given) {
      if (!command) return unknownCommand(name, commands)
      return `Unexpected argument ${JSON.stringify(name)}: expected options only (relay-mock ${command} --help lists them).`
    }
    const nearest = closest(name, options)
    if (nearest) return `Unknown option ${flag}. Did you mean --${nearest}?`
    const own = options.filter((o) => o !== 'help' && o !== 'version')
    const program = `relay-mock${command ? ` ${command}` : ''}`
    if (own.length === 0) return `Unknown option ${flag}: ${program} takes no options.`
    // A long list would wrap over several lines: --help lists them with what each does.
    if (own.length > LISTED_OPTIONS)
      return `Unknown option ${flag}: expected one of the ${own.length} options of ${program} (${program} --help lists them).`
    return `Unknown option ${flag}: expected one of ${own.map((o) => `--${o}`).join(', ')}.`
  }
  const recommended = /^Did you mean (.+)\?$/.exec(message)
  if (recommended) {
    const word = args.find((arg) => !arg.startsWith('-')) ?? ''
    return `Unknown command ${JSON.stringify(word)}. Did you mean ${recommended[1]}?`
  }
  const needs = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(message)
  if (needs) {
    // An unknown option took the argument after it as its value (`compare --bogus doc.json`): it is the mistake to name.
    const stray = args.find((arg) => /^--?[^-]/.test(arg) && !options.includes(arg.replace(/^--?/, '').split('=')[0]))
    if (stray)
      return explain(`Unknown argument: ${stray.replace(/^--?/, '').split('=')[0]}`, {
        command,
        commands,
        args,
        options,
      })
    return `Expected at least ${needs[2]} argument${needs[2] === '1' ? '' : 's'} after the options, got ${needs[1]} (relay-mock${command ? ` ${command}` : ''} --help says which).`
  }
  const missing = /^Not enough arguments following: (.+)$/.exec(message)
  if (missing) {
    const allowed = expectedOf(missing[1])
    return `${missing[1].length === 1 ? '-' : '--'}${missing[1]} needs a value${allowed ? `: expected ${allowed}` : ''}.`
  }
  const required = /^Missing required arguments?: (.+)$/.exec(message)
  if (required) {
    const [name] = required[1].split(', ')
    const allowed = expectedOf(name)
    return `--${name} is missing: expected ${allowed ?? 'a value'} (relay-mock${command ? ` ${command}` : ''} --help says what it is).`
  }
  const conflict = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message)
  if (conflict) return `--${conflict[1]} and --${conflict[2]} cannot be used together: expected one of them.`
  return message.replace(/\s*\n\s*/g, ' ')
}

function unknownCommand(word: string, commands: readonly string[]): string {
  const nearest = closest(word, [...commands])
  if (nearest) return `Unknown command ${JSON.stringify(word)}. Did you mean ${nearest}?`
  return `Unknown command ${JSON.stringify(word)}: expected ${commands.slice(0, -1).join(', ')} or ${commands.at(-1)}.`
}

/**
 * Refuses a switch given a value other than true or false (`--github=maybe`), which yargs would
 * quietly read as false. Run as a check, once the command's options are known.
 * @example yargs(args).check(() => checkSwitches(cli, args))
 */
export function checkSwitches(cli: Argv, args: readonly string[]): true {
  for (const name of declared(cli).boolean.filter((name) => name !== 'help' && name !== 'version')) {
    const given = args.find((arg) => arg.startsWith(`--${name}=`) || arg.startsWith(`--no-${name}=`))
    const value = given?.slice(given.indexOf('=') + 1)
    if (given && value !== 'true' && value !== 'false')
      throw refused(
        given.split('=')[0],
        value!,
        'is not a switch value',
        `true or false, or --${name} or --no-${name} alone`,
      )
  }
  return true
}

/** The long option names of the command that runs (yargs holds them once its builder ran). */
function optionsOf(cli: Argv): string[] {
  return Object.keys(declared(cli).key).filter((name) => name.length > 1)
}

function declared(cli: Argv) {
  // getOptions() is public in yargs but missing from its published types.
  return (cli as unknown as { getOptions(): { key: Record<string, boolean>; boolean: string[] } }).getOptions()
}

/**
 * The candidate nearest to `word`: one it starts, or one a few edits away (a third of its length,
 * at least one; a swap of two neighbours is one edit). Undefined if none is near.
 * @example closest('prot', ['port', 'host']) // 'port'
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3))
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d =
      word.length >= 2 && candidate.startsWith(word)
        ? 0.5
        : editDistance(word.toLowerCase(), candidate.toLowerCase(), { swaps: true })
    if (d <= limit && d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best
}
