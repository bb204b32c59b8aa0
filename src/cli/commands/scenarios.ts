// `relay-mock scenarios`: the named worlds, one line each.
import type { CommandModule } from 'yargs'

export const scenariosCommand: CommandModule = {
  command: 'scenarios',
  describe: 'List the scenarios (named states of the world)',
  async handler() {
    const { scenarios } = await import('../../../scenarios/index.js')
    const width = Math.max(...[...scenarios.keys()].map((n) => n.length))
    for (const scenario of scenarios.values()) console.log(`${scenario.name.padEnd(width)}  ${scenario.description}`)
  },
}
