// `relay-mock serve`: its options; the work is in ../actions/serve.ts, loaded only when it runs.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { MOCK_DEFAULTS } from '../../core/defaults.js'
import type { ServeOptions } from '../actions/serve.js'
import {
  checked,
  declared,
  latency,
  maxWorlds,
  readableFile,
  scenarioName,
  seed,
  text,
  token,
  vehicles,
  worldRecords,
} from '../checks.js'
import { exitWith } from '../exit.js'
import { journalBytesOption, journalLimitOption, listenOptions } from './shared-options.js'

type ServeArgs = ServeOptions

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the mock relay service over HTTP',
  builder: (y: Argv) =>
    declared<ServeArgs>(answerOptions(worldOptions(listenOptions(y))))
      .example(
        '$0 serve --variant create.status=200-no-location',
        'Answer creates 200 without Location, as a real service might',
      )
      .example('$0 serve --scenario ./my-world.json', 'Serve a world of your own (see examples/worlds/)')
      // What needs the scenarios or the network is checked here, still before anything starts.
      .check(async (args) => {
        const { checkServe } = await import('../actions/serve-checks.js')
        checkServe(args)
        return true
      }),
  async handler(args: ArgumentsCamelCase<ServeArgs>) {
    const { serve } = await import('../actions/serve.js')
    await exitWith(() => serve(args))
  },
}

/** The worlds: their tokens, scenario and seed, and the bounds of their records and journals. */
function worldOptions(y: Argv): Argv {
  return y
    .option(
      'token',
      checked('token', token, {
        repeatable: true,
        unique: true,
        describe: `Bearer token with its own world; repeat for more (default ${MOCK_DEFAULTS.tokens[0]})`,
      }),
    )
    .option(
      'scenario',
      checked('scenario', scenarioName, {
        alias: 's',
        default: MOCK_DEFAULTS.scenario,
        describe:
          'Scenario of the worlds: a name (see relay-mock scenarios) or a scenario file of your own (.json, .js, .ts)',
      }),
    )
    .option('seed', checked('seed', seed, { default: MOCK_DEFAULTS.seed, describe: 'Seed of the generated world' }))
    .option(
      'vehicles',
      checked('vehicles', vehicles, {
        default: MOCK_DEFAULTS.vehicles,
        describe: 'How many vehicles the world holds (Iceland rents ~30000)',
      }),
    )
    .option('journal-limit', journalLimitOption())
    .option('journal-bytes', journalBytesOption())
    .option(
      'world-records',
      checked('world-records', worldRecords, {
        default: MOCK_DEFAULTS.worldRecords,
        describe: 'How many records clients may create in one world (the oldest created go first beyond)',
      }),
    )
    .option(
      'max-worlds',
      checked('max-worlds', maxWorlds, {
        default: MOCK_DEFAULTS.maxWorlds,
        describe: 'How many worlds the mock keeps (the longest unused go first beyond; the --token worlds never)',
      }),
    )
    .option(
      'admin-token',
      checked('admin-token', token, {
        describe: 'A token whose holder sees every world (GET /__relay/worlds, ?world=<id>, ?scope=all)',
      }),
    )
}

/** How the service answers: late, with faults, under the interface's alternatives, or as the real service was seen to. */
function answerOptions(y: Argv): Argv {
  return y
    .option(
      'latency',
      checked('latency', latency, { describe: 'Answer late, to see how a client copes with a slow service' }),
    )
    .option(
      'fault',
      checked('fault', text, {
        repeatable: true,
        describe:
          'Break one request of the flows: <route>=<kind>[:once], e.g. "POST /payments=reset:once"; repeat for more (see docs/faults.md)',
      }),
    )
    .option(
      'variant',
      checked('variant', text, {
        repeatable: true,
        describe:
          'Answer as a real service might where the interface is silent: <assumption>=<alternative>, e.g. "create.status=200-no-location"; repeat for more (see relay-mock assumptions)',
      }),
    )
    .option(
      'calibrate',
      checked('calibrate', readableFile, {
        describe:
          'Answer as the real service was seen to: the assumptions.json relay-mock proxy or relay-mock probe wrote (see docs/real-service.md)',
      }),
    )
}
