// `relay-mock conform`'s options, shared by the command (which declares them) and its action (which
// reads them): a module of its own, so that neither imports the other.
import type { Flow } from '../core/rules/types.js'
import type { reporters as reporterTable } from '../node/reporters/index.js'

export interface ConformArgs {
  client?: string
  from?: string
  flow?: Flow
  case?: string[]
  cases?: string
  suite?: Array<'advanced' | 'simple' | 'resilience' | 'variants'>
  requestTimeout: number
  jobs?: number
  timeout: number
  seed?: number
  bail?: boolean
  repeat?: number
  explore?: number
  reportDir?: string
  github?: boolean
  visits?: string
  allowPartial?: boolean
  strict?: boolean
  calibrate?: string
  [report: string]: unknown
}

/**
 * The file reports, one flag each: `--json FILE`, `--junit FILE`. A new format is one line here.
 * Reporters are named, not imported: they load when conform runs, so that every other command
 * (serve above all) starts without parsing them (junit-report-builder alone is 156 KB).
 */
export const fileReports: Array<{
  flag: string
  describe: string
  reporter: keyof typeof reporterTable
  file: string
}> = [
  { flag: 'json', describe: 'Also write the results as JSON to FILE', reporter: 'json', file: 'conform.json' },
  {
    flag: 'junit',
    describe: 'Also write the results as JUnit XML to FILE (one testcase per case)',
    reporter: 'junit',
    file: 'conform.xml',
  },
  {
    flag: 'html',
    describe: 'Also write a self-contained HTML report to FILE: each case as a sequence diagram, broken rules marked',
    reporter: 'html',
    file: 'conform.html',
  },
  {
    flag: 'har',
    describe: "Also write every case's requests to FILE as HAR 1.2 (tokens masked)",
    reporter: 'har',
    file: 'conform.har',
  },
]
