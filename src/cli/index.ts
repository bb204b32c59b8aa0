// The relay-mock command line: each command is one module; this file only chains them.
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { caseCommand } from './commands/case.js'
import { conformCommand } from './commands/conform.js'
import { demoCommand } from './commands/demo.js'
import { scenariosCommand } from './commands/scenarios.js'
import { serveCommand } from './commands/serve.js'

await yargs(hideBin(process.argv))
  .scriptName('relay-mock')
  .command(serveCommand)
  .command(conformCommand)
  .command(caseCommand)
  .command(demoCommand)
  .command(scenariosCommand)
  .demandCommand(1, 'Please name a command: serve, conform, case, demo or scenarios.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(110, process.stdout.columns || 100))
  .fail((message, error, y) => {
    // A usage error (yargs' own, or an option's coerce refusing a value) is exit 2 with what to fix;
    // anything else is a bug and is thrown.
    if (error && error.name !== 'YError') throw error
    if (error) console.error(`${error.message}\nSee relay-mock --help, or relay-mock <command> --help, for the options.`)
    else console.error(`${y.help()}\n\n${message}`)
    process.exit(2)
  })
  .parseAsync()
