// `relay-mock demo`: both flows end to end with the reference client against an in-process mock,
// printing each call and each verdict as it goes. Needs nothing but the package.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import type { Flow } from '../../core/rules/types.js'
import { checked, declared, flow } from '../checks.js'
import { exitWith } from '../exit.js'

interface DemoArgs {
  flow?: Flow
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: 'demo',
  describe: 'Run both flows end to end with the reference client against an in-process mock',
  builder: (y: Argv) =>
    declared<DemoArgs>(y.option('flow', checked('flow', flow, { alias: 'f', describe: 'Show only this flow' }))),
  async handler(args: ArgumentsCamelCase<DemoArgs>) {
    const { demo } = await import('../actions/demo.js')
    await exitWith(() => demo(args))
  },
}
