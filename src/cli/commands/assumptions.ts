// `relay-mock assumptions`: what the interface leaves open and what relay-mock does, from the ledger.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'

interface AssumptionsArgs {
  json?: boolean
}

export const assumptionsCommand: CommandModule<object, AssumptionsArgs> = {
  command: 'assumptions',
  describe: 'List what the interface leaves open, what relay-mock does, and what a real service might do instead',
  builder: (y: Argv) =>
    y
      .option('json', { type: 'boolean', describe: 'Print the ledger as JSON, for tools' })
      .example('$0 assumptions --json', 'Every assumption with its citation, choice, alternatives and rules'),
  async handler(args: ArgumentsCamelCase<AssumptionsArgs>) {
    const { ASSUMPTIONS } = await import('../../core/ledger/assumptions.js')
    if (args.json) {
      const { fidelityRuleId } = await import('../../core/ledger/docs.js')
      // Each entry as declared, with the variants it can be served under and the rule that judges a client under them.
      const entries = ASSUMPTIONS.map((entry) => {
        const variants = entry.alternatives
          .filter((alternative) => alternative.notServed === undefined)
          .map((alternative) => `${entry.id}=${alternative.id}`)
        const fidelityRule = fidelityRuleId(entry.id)
        return { ...entry, variants, ...(fidelityRule ? { fidelityRule } : {}) }
      })
      console.log(JSON.stringify(entries, null, 2))
      return
    }
    const { toAssumptionsText } = await import('../../core/ledger/docs.js')
    console.log(toAssumptionsText())
  },
}
