// `relay-mock compare <file or URL>...`: the service's published OpenAPI documents against relay-mock's,
// each difference tied to the assumption it confirms or contradicts. Exit status: 0 nothing contradicts
// an assumption, 1 something does, 2 a document cannot be read (or a usage error).
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import type { CompareArgs } from '../actions/compare.js'
import { checked, declared, requestTimeout } from '../checks.js'
import { exitWith } from '../exit.js'

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare <documents..>',
  describe: "Compare the service's published OpenAPI 3 documents with relay-mock's, assumption by assumption",
  builder: (y: Argv) =>
    declared<CompareArgs>(
      y
        .positional('documents', {
          type: 'string',
          array: true,
          demandOption: true,
          describe:
            'The OpenAPI 3 documents of the service (JSON or YAML), as files or http(s) URLs, with the files their $refs name: one or both integrations',
        })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'Print the comparison as JSON (for tools) instead of the report',
        })
        .option(
          'timeout',
          checked('timeout', requestTimeout, {
            default: 10,
            describe: 'Seconds each URL may take to answer (a document, or a file its $refs name)',
          }),
        )
        .example(
          '$0 compare https://relay.example/openapi/advanced.json https://relay.example/openapi/simple.json',
          "Compare the service's two documents",
        )
        .example('$0 compare service-openapi.yaml --json', 'The differences as JSON'),
    ),
  async handler(args: ArgumentsCamelCase<CompareArgs>) {
    const { compare } = await import('../actions/compare.js')
    await exitWith(() => compare(args))
  },
}
