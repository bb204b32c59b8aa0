// `relay-mock case <id>`: one conformance case's world, served for a client run by hand; its verdict
// as conform gives it. Exit status: 0 the case passed, 1 a rule failed, 2 a usage or set-up error.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import type { CaseArgs } from '../actions/case.js'
import { checked, declared, host, port, readableFile, seed, writableFile } from '../checks.js'
import { exitWith } from '../exit.js'
import { warnIfReachable } from '../usage.js'

export const caseCommand: CommandModule<object, CaseArgs> = {
  command: 'case <id>',
  describe: "Serve one case's world, print the environment its client gets, and judge the client you run by hand",
  builder: (y: Argv) =>
    declared<CaseArgs>(
      y
        .positional('id', {
          type: 'string',
          demandOption: true,
          describe: 'The case, e.g. simple/accepted (the ids conform --case takes)',
        })
        .option(
          'port',
          checked('port', port, {
            alias: 'p',
            default: 4010,
            describe: 'Port to serve the case on (0 picks a free one)',
          }),
        )
        .option(
          'host',
          checked('host', host, {
            default: '127.0.0.1',
            describe: 'Address to listen on (any but loopback opens the admin API to the network)',
          }),
        )
        .option(
          'cases',
          checked('cases', readableFile, {
            describe: 'Also look for the case in FILE (your own cases, as for conform --cases)',
          }),
        )
        // Not --env-file: Node 20 takes that flag for itself even after the script's name.
        .option(
          'write-env',
          checked('write-env', writableFile, {
            default: '.env',
            describe: "Write the client's environment to FILE (a file relay-mock did not write is never overwritten)",
          }),
        )
        .option('once', {
          type: 'boolean',
          default: false,
          describe:
            "Judge as soon as the client's visit is complete (it wrote RELAY_RESULT_FILE, or sent no request for 5 s) instead of on Enter (always so when standard input is not a terminal)",
        })
        .option('seed', checked('seed', seed, { describe: 'Seed of the generated world' }))
        .example(
          '$0 case simple/accepted',
          'Serve the case on port 4010; run your client with the printed variables; press Enter for the verdict',
        )
        .example(
          '$0 case advanced/new-vehicle --once --write-env /tmp/relay.env',
          'Give the verdict as soon as the visit is complete',
        ),
    ),
  async handler(args: ArgumentsCamelCase<CaseArgs>) {
    warnIfReachable('case', args.host)
    const { runCaseByHand } = await import('../actions/case.js')
    await exitWith(() => runCaseByHand(args))
  },
}
