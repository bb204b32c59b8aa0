// `relay-mock serve`: its options; the work is in ../actions/serve.ts, loaded only when it runs.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { MOCK_DEFAULTS } from '../../core/defaults.js'
import type { ServeOptions } from '../actions/serve.js'
import { exitWith } from '../exit.js'

type ServeArgs = ServeOptions

/**
 * `300` → 300; `100-800` → [100, 800]. Anything else is a usage error that says what to write.
 * @example parseLatency('100-800') // [100, 800]
 */
export function parseLatency(value: string | undefined): number | [number, number] | undefined {
  if (value === undefined) return undefined
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(String(value))
  if (!match || (match[2] !== undefined && Number(match[2]) < Number(match[1]))) {
    throw new Error(`--latency takes milliseconds (300) or a range (100-800), not "${value}".`)
  }
  return match[2] === undefined ? Number(match[1]) : [Number(match[1]), Number(match[2])]
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the mock relay service over HTTP',
  builder: (y: Argv) =>
    y
      .option('port', { alias: 'p', type: 'number', default: 4010, describe: 'Port to listen on (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
      .option('token', { type: 'string', array: true, describe: `Bearer token with its own world; repeat for more (default ${MOCK_DEFAULTS.tokens[0]})` })
      .option('scenario', {
        alias: 's',
        type: 'string',
        default: MOCK_DEFAULTS.scenario,
        describe: 'Scenario of the worlds: a name (see relay-mock scenarios) or a scenario file of your own (.json, .js, .ts)',
      })
      .option('seed', { type: 'number', default: MOCK_DEFAULTS.seed, describe: 'Seed of the generated world' })
      .option('vehicles', { type: 'number', default: MOCK_DEFAULTS.vehicles, describe: 'How many vehicles the world holds (Iceland rents ~30000)' })
      .option('journal-limit', { type: 'number', default: MOCK_DEFAULTS.journalLimit, describe: 'How many requests the journal keeps' })
      .option('journal-bytes', { type: 'number', default: MOCK_DEFAULTS.journalBytes, describe: 'How many bytes the journal may hold (the oldest requests are dropped beyond)' })
      .option('world-records', { type: 'number', default: MOCK_DEFAULTS.worldRecords, describe: 'How many records clients may create in one world (the oldest created go first beyond)' })
      .option('max-worlds', { type: 'number', default: MOCK_DEFAULTS.maxWorlds, describe: 'How many worlds the mock keeps (the longest unused go first beyond; the --token worlds never)' })
      .option('admin-token', { type: 'string', describe: 'A token whose holder sees every world (GET /__relay/worlds, ?world=<id>, ?scope=all)' })
      .option('latency', {
        type: 'string',
        describe: 'Answer late, to see how a client copes with a slow service: milliseconds (300) or a range (100-800)',
        coerce: parseLatency,
      })
      .option('fault', {
        type: 'string',
        array: true,
        describe: 'Break one request of the flows: <route>=<kind>[:once], e.g. "POST /payments=reset:once"; repeat for more (see the README\'s fault table)',
      })
      .example('$0 serve --scenario ./my-world.json', 'Serve a world of your own (see examples/worlds/)') as unknown as Argv<ServeArgs>,
  async handler(args: ArgumentsCamelCase<ServeArgs>) {
    const { serve } = await import('../actions/serve.js')
    await exitWith(() => serve(args))
  },
}
