// The relay-mock command line: each command is one module; this file only chains them. Every
// option is checked before a command starts; a refusal is one line on stderr and exit status 2.
import yargs, { type Argv } from 'yargs'
import { hideBin } from 'yargs/helpers'
import { RELAY_MOCK_VERSION } from '../core/version.js'
import { assumptionsCommand } from './commands/assumptions.js'
import { caseCommand } from './commands/case.js'
import { compareCommand } from './commands/compare.js'
import { conformCommand } from './commands/conform.js'
import { demoCommand } from './commands/demo.js'
import { probeCommand } from './commands/probe.js'
import { proxyCommand } from './commands/proxy.js'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'
import { checkSwitches, failHandler } from './usage.js'

const args = hideBin(process.argv)
const commands = ['serve', 'proxy', 'probe', 'conform', 'case', 'compare', 'demo', 'scenarios', 'assumptions']

const cli: Argv = yargs(args)
  .scriptName('relay-mock')
  // Messages in English whatever the locale: the one-line refusals read yargs' own.
  .locale('en')
  // Values stay as typed, so that a refusal shows "abc" (not NaN) and each check reads its own numbers.
  .parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false })
  .command(serveCommand)
  .command(proxyCommand)
  .command(probeCommand)
  .command(conformCommand)
  .command(caseCommand)
  .command(compareCommand)
  .command(demoCommand)
  .command(scenariosCommand)
  .command(assumptionsCommand)
  .demandCommand(
    1,
    `Please name a command: ${commands.slice(0, -1).join(', ')} or ${commands.at(-1)} (relay-mock --help describes them).`,
  )
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version(RELAY_MOCK_VERSION)
  .wrap(Math.min(110, process.stdout.columns || 100))
  .check(() => checkSwitches(cli, args))
  .fail(failHandler(() => cli, commands, args))

// yargs renders the whole help text (cliui, string-width) each time a command runs, so that a later
// failure could print it; relay-mock's failures are one line and never print it, and the rendering costs
// a fifth of `serve`'s start-up. `--help` renders it when asked.
// An internal of yargs 17: if a later yargs lacks it, only this saving is lost, never the command line.
const usage = (
  cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }
)
  .getInternalMethods?.()
  .getUsageInstance?.()
if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {}

// A function rather than top-level await: the same file is also bundled as CommonJS (see src/node/caches/code-cache.ts).
async function main(): Promise<void> {
  try {
    await cli.parseAsync()
  } catch (error) {
    // A bug, not a usage error: its stack without the minified line Node would print above it.
    console.error(
      `relay-mock failed unexpectedly; please report this with the command that was run.\n${(error as Error)?.stack ?? String(error)}`,
    )
    process.exitCode = 1
  }
}

void main()
