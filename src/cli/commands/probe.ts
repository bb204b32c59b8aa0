// `relay-mock probe`: its options; the work is in ../actions/probe.ts, loaded only when it runs.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import type { ProbeArgs } from '../actions/probe.js'
import { checked, declared, integer, seconds, text, token, writableFolder } from '../checks.js'
import { exitWith } from '../exit.js'
import { upstreamCaOption, upstreamOption } from './shared-options.js'

export const probeCommand: CommandModule<object, ProbeArgs> = {
  command: 'probe',
  describe:
    "Ask the real service the requests that settle relay-mock's assumptions, leaving no record there (--allow-writes adds a few creates, for staging)",
  builder: (y: Argv) =>
    declared<ProbeArgs>(
      askOptions(upstreamOptions(y)).example(
        '$0 probe --upstream https://staging.example.com --token "$RELAY_TOKEN" --report-dir relay-report',
        'Settle what lookups and refusals show, writing nothing',
      ),
    ),
  async handler(args: ArgumentsCamelCase<ProbeArgs>) {
    const { runProbe } = await import('../actions/probe.js')
    await exitWith(() => runProbe(args))
  },
}

/** The real service: where it is, the token, its CA, how long it may take and how fast to ask it. */
function upstreamOptions(y: Argv): Argv {
  return y
    .option('upstream', upstreamOption())
    .option(
      'token',
      checked('token', token, {
        demandOption: true,
        describe: 'The token the service issued to your location (masked in everything relay-mock shows)',
      }),
    )
    .option('upstream-ca', upstreamCaOption())
    .option(
      'upstream-timeout',
      checked('upstream-timeout', seconds({ max: 600 }), {
        default: 30,
        describe: 'Seconds the upstream may take to answer one request',
      }),
    )
    .option(
      'pace',
      checked('pace', integer({ min: 0, max: 60_000, noun: 'a number of milliseconds' }), {
        default: 100,
        describe: 'Milliseconds from one request to the next',
      }),
    )
}

/** What to ask it about, whether to write, and where the report goes. */
function askOptions(y: Argv): Argv {
  return y
    .option(
      'kennitala',
      checked('kennitala', text, {
        describe:
          "A rental company's kennitala the service knows (its record's link is fetched; the custodian names it)",
      }),
    )
    .option(
      'plate',
      checked('plate', text, { describe: "A plate the service knows (its vehicles' links are fetched)" }),
    )
    .option(
      'location',
      checked('location', text, {
        describe: 'Your location id on the service, for the payments --allow-writes sends',
      }),
    )
    .option('allow-writes', {
      type: 'boolean',
      default: false,
      describe:
        'Staging only: also create one vehicle, one custodian, one payment and one simple payment on a test plate, and list them',
    })
    .option(
      'test-plate',
      checked('test-plate', text, {
        describe: 'The plate of the test vehicle --allow-writes creates (default ZZ9T99)',
      }),
    )
    .option(
      'report-dir',
      checked('report-dir', writableFolder, {
        describe: 'Write the assumption report there, as assumptions.json and assumptions.html',
      }),
    )
    .option('check', {
      type: 'boolean',
      default: false,
      describe: 'Exit with status 1 when the real service contradicted an assumption',
    })
}
