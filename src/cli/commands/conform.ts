// `relay-mock conform`: runs a location's client through every case and names each rule it breaks.
// Exit status: 0 every case passed, 1 a rule failed, 2 a usage or set-up error.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { REQUEST_TIMEOUT_MS, RUN_TIMEOUT_MS } from '../../core/defaults.js'
import { fileReports, type ConformArgs } from '../conform-options.js'
import { exitWith } from '../exit.js'

export const conformCommand: CommandModule<object, ConformArgs> = {
  command: 'conform',
  describe: "Run a location's client through every case of the advanced and simple flows",
  builder: (y: Argv) => {
    let built = y
      .option('client', { alias: 'c', type: 'string', describe: 'The client command, run through the shell once per case (see the client contract)' })
      .option('from', { type: 'string', requiresArg: true, conflicts: 'client', describe: 'Check a conversation captured as HAR (a proxy, staging) with the same rules, without running a client' })
      .option('flow', { alias: 'f', type: 'string', choices: ['advanced', 'simple'], describe: 'Run only the cases of this flow' })
      .option('case', { type: 'string', array: true, describe: 'Run only this case (an id, or a prefix such as advanced/* or resilience/payment-create/*); repeatable' })
      .option('cases', {
        type: 'string',
        requiresArg: true,
        conflicts: 'from',
        describe: 'Add the cases of FILE (JSON: your own visits, each with its scenario, flows and expected outcome) to the run',
      })
      .option('suite', { alias: 's', type: 'string', array: true, choices: ['advanced', 'simple', 'resilience'], describe: 'Run only the cases of this suite (resilience: the fault matrix); repeatable' })
      .option('strict', { type: 'boolean', describe: 'Fail the run (exit 1) on a warning too: safe behaviour that is not the best a client can do' })
      .option('request-timeout', {
        type: 'number',
        default: REQUEST_TIMEOUT_MS / 1000,
        describe: "Seconds the client may wait for one answer (RELAY_REQUEST_TIMEOUT_MS): a hung request's cell ends at the client's own timeout",
      })
      .option('jobs', { alias: 'j', type: 'number', describe: 'How many cases run at once (default: the number of cores)' })
      .option('timeout', { alias: 't', type: 'number', default: RUN_TIMEOUT_MS / 1000, describe: 'Seconds before a client is killed with its process tree' })
      .option('seed', { type: 'number', describe: 'Seed of the generated worlds' })
      .option('bail', { type: 'boolean', describe: 'Stop at the first case that fails: the rest are cancelled, the reports hold the cases that finished' })
      .option('repeat', { type: 'number', describe: 'Run each case N times; a case that fails some of them but not all is reported flaky' })
    for (const report of fileReports) built = built.option(report.flag, { type: 'string', requiresArg: true, describe: report.describe })
    return built
      .option('report-dir', {
        type: 'string',
        requiresArg: true,
        describe: `Write every report into DIR (${fileReports.map((r) => r.file).join(', ')}): one folder to keep as the run's evidence`,
      })
      .option('github', {
        type: 'boolean',
        describe: 'Print each failed rule as a GitHub Actions annotation (default: on inside GitHub Actions)',
      })
      .example('$0 conform --client "./client.sh" --report-dir conform-report', 'Write JSON, JUnit XML, HTML and HAR into one folder')
      .example('$0 conform --client "python3 client.py" --junit conform.xml', 'Run every case; write JUnit XML for CI')
      .example('$0 conform --from staging.har --html report.html', 'Check a captured conversation, visit by visit')
      .example('$0 conform --client "./client.sh" --cases my-cases.json --case "mine/*"', 'Run only your own cases (see examples/cases.json)') as unknown as Argv<ConformArgs>
  },
  async handler(args: ArgumentsCamelCase<ConformArgs>) {
    const { conform } = await import('../actions/conform.js')
    await exitWith(() => conform(args))
  },
}
