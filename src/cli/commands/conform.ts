// `relay-mock conform`: runs a location's client through every case and names each rule it breaks.
// Exit status: 0 the run passed, 1 it did not (a rule failed; a case partial without --allow-partial, or
// warned under --strict; a case not reached), 2 a usage or set-up error.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs'
import { REQUEST_TIMEOUT_MS, RUN_TIMEOUT_MS } from '../../core/defaults.js'
import {
  checked,
  declared,
  explore,
  flow,
  jobs,
  readableFile,
  repeat,
  requestTimeout,
  seed,
  shellCommand,
  suite,
  text,
  timeout,
  writableFile,
  writableFolder,
} from '../checks.js'
import { fileReports, type ConformArgs } from '../conform-options.js'
import { exitWith } from '../exit.js'

export const conformCommand: CommandModule<object, ConformArgs> = {
  command: 'conform',
  describe: "Run a location's client through every case of the advanced and simple flows",
  builder: (y: Argv) =>
    declared<ConformArgs>(reportOptions(runOptions(caseOptions(inputOptions(y)))))
      // What needs the suites is checked here, still before any client runs.
      .check(async (args) => {
        const { checkConform } = await import('../actions/conform-checks.js')
        checkConform(args)
        return true
      })
      .example(
        '$0 conform --client "./client.sh" --report-dir conform-report',
        'Write JSON, JUnit XML, HTML and HAR into one folder',
      )
      .example('$0 conform --client "python3 client.py" --junit conform.xml', 'Run every case; write JUnit XML for CI')
      .example('$0 conform --from staging.har --html report.html', 'Check a captured conversation, visit by visit')
      .example(
        '$0 conform --client "./client.sh" --cases my-cases.json --case "mine/*"',
        'Run only your own cases (see examples/cases.json)',
      )
      .example(
        '$0 conform --client "python3 client.py" --explore 200 --seed 7',
        'Run 200 generated visits; print the smallest that breaks the client',
      )
      .example(
        '$0 conform --from staging.har --visits visits.json',
        "Check it with each visit's inputs, so no rule is left unchecked",
      ),
  async handler(args: ArgumentsCamelCase<ConformArgs>) {
    const { conform } = await import('../actions/conform.js')
    await exitWith(() => conform(args))
  },
}

/** What is checked: a client run case by case, or a captured conversation; and what fails the run. */
function inputOptions(y: Argv): Argv {
  return y
    .option(
      'client',
      checked('client', shellCommand, {
        alias: 'c',
        describe: 'The client command, run through the shell once per case (see the client contract)',
      }),
    )
    .option(
      'from',
      checked('from', readableFile, {
        conflicts: 'client',
        describe:
          'Check a conversation captured as HAR (a proxy, staging) with the same rules, without running a client',
      }),
    )
    .option(
      'visits',
      checked('visits', readableFile, {
        implies: 'from',
        describe:
          "With --from: a JSON file of the visits' inputs (visit, token, client), so the rules that need them are checked",
      }),
    )
    .option('allow-partial', {
      type: 'boolean',
      describe: 'A partial case (a rule not checked for a missing input) does not fail the run',
    })
    .option('strict', {
      type: 'boolean',
      describe: 'A warning (safe, but not the best a client can do) fails the run too',
    })
    .option(
      'calibrate',
      checked('calibrate', readableFile, {
        describe:
          'Answer as the real service was seen to: the assumptions.json relay-mock proxy or relay-mock probe wrote; its assumptions are no longer varied (with --from: the recorded visits are judged so)',
      }),
    )
}

/** Which cases run: a flow, suites, cases by id or glob, and cases of your own. */
function caseOptions(y: Argv): Argv {
  return y
    .option('flow', checked('flow', flow, { alias: 'f', describe: 'Run only the cases of this flow' }))
    .option(
      'suite',
      checked('suite', suite, {
        alias: 's',
        repeatable: true,
        describe: 'Run only the cases of this suite (resilience: the fault matrix); repeatable',
      }),
    )
    .option(
      'case',
      checked('case', text, {
        repeatable: true,
        describe:
          "Run only this case (an id, or a glob with * anywhere, '/' included: advanced/*, 'resilience/*/unavailable/*'); repeatable",
      }),
    )
    .option(
      'cases',
      checked('cases', readableFile, {
        conflicts: 'from',
        describe:
          'Add the cases of FILE (JSON: your own visits, each with its scenario, flows and expected outcome) to the run',
      }),
    )
}

/** How the cases run: at once, within what time, seeded, explored, stopped at the first failure, repeated. */
function runOptions(y: Argv): Argv {
  return y
    .option(
      'jobs',
      checked('jobs', jobs, {
        alias: 'j',
        describe:
          'How many cases run at once (default: those waiting on the service do not count, the others fitted to what they cost the cores)',
      }),
    )
    .option(
      'timeout',
      checked('timeout', timeout, {
        alias: 't',
        default: RUN_TIMEOUT_MS / 1000,
        describe: 'Seconds before a client is killed with its process tree',
      }),
    )
    .option(
      'request-timeout',
      checked('request-timeout', requestTimeout, {
        default: REQUEST_TIMEOUT_MS / 1000,
        describe:
          "Seconds the client may wait for one answer (RELAY_REQUEST_TIMEOUT_MS): a hung request's cell ends at the client's own timeout",
      }),
    )
    .option(
      'seed',
      checked('seed', seed, { describe: 'Seed of the generated worlds (and, with --explore, of the visits)' }),
    )
    .option(
      'explore',
      checked('explore', explore, {
        conflicts: ['from', 'case', 'cases', 'suite', 'repeat', 'bail'],
        describe:
          'Run N generated visits over everything the interface allows (seeded: --seed); the smallest that breaks the client is printed as an entry for --cases',
      }),
    )
    .option('bail', {
      type: 'boolean',
      describe: 'Stop at the first case that fails: the rest are cancelled, the reports hold the cases that finished',
    })
    .option(
      'repeat',
      checked('repeat', repeat, {
        describe: 'Run each case N times; a case that fails some of them but not all is reported flaky',
      }),
    )
}

/** The reports: each to a file of its own, all into one folder, and GitHub annotations. */
function reportOptions(y: Argv): Argv {
  let built = y
  for (const report of fileReports)
    built = built.option(report.flag, checked(report.flag, writableFile, { describe: report.describe }))
  return built
    .option(
      'report-dir',
      checked('report-dir', writableFolder, {
        describe: `Write every report into DIR (${fileReports.map((r) => r.file).join(', ')}): one folder to keep as the run's evidence`,
      }),
    )
    .option('github', {
      type: 'boolean',
      describe: 'Print each failed rule as a GitHub Actions annotation (default: on inside GitHub Actions)',
    })
}
