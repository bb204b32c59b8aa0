// `relay-mock serve`: the mock over HTTP, with a banner that says what to try.
import pc from 'picocolors'
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { createRelayService, MOCK_DEFAULTS, RelayMockError } from '../../core/mock.js'
import type { World } from '../../core/world.js'
import { close, createServer, listen } from '../../node/server.js'

interface ServeArgs {
  port: number
  host: string
  token?: string[]
  scenario: string
  seed: number
  vehicles: number
  journalLimit: number
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the mock relay service over HTTP',
  builder: (y: Argv) =>
    y
      .option('port', { alias: 'p', type: 'number', default: 4010, describe: 'Port to listen on (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
      .option('token', { type: 'string', array: true, describe: `Bearer token with its own world; repeat for more (default ${MOCK_DEFAULTS.tokens[0]})` })
      .option('scenario', { alias: 's', type: 'string', default: MOCK_DEFAULTS.scenario, describe: 'Scenario of the worlds (see relay-mock scenarios)' })
      .option('seed', { type: 'number', default: MOCK_DEFAULTS.seed, describe: 'Seed of the generated world' })
      .option('vehicles', { type: 'number', default: MOCK_DEFAULTS.vehicles, describe: 'How many vehicles the world holds (Iceland rents ~30000)' })
      .option('journal-limit', { type: 'number', default: MOCK_DEFAULTS.journalLimit, describe: "How many requests the journal keeps" }) as unknown as Argv<ServeArgs>,
  async handler(args: ArgumentsCamelCase<ServeArgs>) {
    try {
      const service = await createRelayService({
        tokens: args.token,
        scenario: args.scenario,
        seed: args.seed,
        vehicles: args.vehicles,
        journalLimit: args.journalLimit,
      })
      const server = createServer(service)
      const baseUrl = await listen(server, { port: args.port, host: args.host })
      console.log(banner(baseUrl, [...service.worlds.values()]))
      const stop = () => {
        console.log(pc.dim('\nStopping relay-mock.'))
        void close(server).then(() => process.exit(0))
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    } catch (error) {
      if (error instanceof RelayMockError) {
        console.error(pc.red(error.message))
        process.exitCode = 2
        return
      }
      throw error
    }
  },
}

function banner(baseUrl: string, worlds: World[]): string {
  const [world] = worlds
  const { store, visit, hints } = world
  const lines = [
    '',
    `${pc.bold('relay-mock')} is serving the relay service at ${pc.cyan(baseUrl)}`,
    '',
    `  token       ${pc.green(world.token)}${worlds.length > 1 ? pc.dim(`  (+${worlds.length - 1} more: ${worlds.slice(1).map((w) => w.token).join(', ')})`) : ''}`,
    `  location    ${world.location.id}  ${pc.dim(world.location.name)}`,
    `  scenario    ${world.scenario.name}  ${pc.dim(world.scenario.description)}`,
    `  live page   ${pc.cyan(`${baseUrl}/__relay/`)}    OpenAPI ${pc.cyan(`${baseUrl}/openapi/advanced.json`)}, ${pc.cyan('/openapi/simple.json')}`,
    '',
    `  ${pc.bold('Rental companies')}                kennitala    plates`,
  ]
  for (const company of store.rentalCompanies.all()) {
    const plates = store.vehicles
      .all()
      .filter((v) => v.active && store.custodians.byVehicle(v.id).some((c) => c.rentalCompanyId === company.id))
      .map((v) => v.plate)
    const shown = plates.slice(0, 4).join(' ') + (plates.length > 4 ? pc.dim(` +${plates.length - 4}`) : '')
    lines.push(`  ${company.name.padEnd(31)} ${company.kennitala}   ${shown}`)
  }
  lines.push(
    `  ${pc.dim('not in the service:')}             ${hints.unknownKennitala}   ${pc.dim('unknown plate:')} ${hints.unknownPlate}`,
    '',
    `  ${pc.bold('Try')} (the scenario's visit: plate ${visit.plate}, owner ${visit.ownerKennitala}):`,
    `  curl -H 'Authorization: Bearer ${world.token}' '${baseUrl}/rental-companies?kennitala=${visit.ownerKennitala}'`,
    '',
    pc.dim('  Ctrl-C stops it.'),
  )
  return lines.join('\n')
}
