// relay-mock's API for Node: the HTTP server, the conformance runner, its rules and reporters, and HAR
// in and out. The mock itself comes from 'relay-mock' (src/index.ts). Named exports only; what is not here
// is internal (the CLI imports its modules directly). test/architecture/entries.test.ts pins the names.

// Server
export { createServer, listen, close } from './node/server/server.js'

// Conformance
export { runConformance } from './node/runner/runner.js'
export { runClientProcess } from './node/processes/client-process.js'
export { referenceClient, createReferenceClient } from './node/reference-client/reference-client.js'
export {
  rules,
  ruleById,
  evaluate,
  expectedCalls,
  defineRule,
  defineSuite,
  toClientReport,
  toRuleTable,
} from './core/rules/index.js'
export { toHar, fromHar } from './devtools/har.js'
export { suites, cases } from '../suites/index.js'

// Reporters
export {
  reporters,
  createConsoleReporter,
  createJsonReporter,
  createJunitReporter,
  toJsonReport,
  toJUnitXml,
  createHtmlReporter,
  toHtmlReport,
  createHarReporter,
  toRunHar,
  createGitHubReporter,
  toGitHubAnnotations,
} from './node/reporters/index.js'

// Your own scenario and case files
export { loadScenario, resolveScenario } from './node/files/user-files.js'
export { loadCases } from './node/files/user-cases.js'

export type { ServerOptions } from './node/server/server.js'
export type { UserCases } from './node/files/user-cases.js'
export type { RunOptions } from './node/runner/options.js'
export type { ClientFunction, ClientVisit, RelayEnv } from './node/runner/contract.js'
export type { ClientProcessOptions, ClientProcessResult } from './node/processes/client-process.js'
export type { ReporterFactory, ReporterOptions, ConsoleReporterOptions } from './node/reporters/index.js'
export type {
  CaseContext,
  CaseCounts,
  CaseInput,
  CaseResult,
  CaseStatus,
  CaseStart,
  CaseVisit,
  Check,
  CheckStatus,
  ClientReport,
  ClientRun,
  ConformanceCase,
  ExpectedCall,
  Flow,
  Outcome,
  Reporter,
  Rule,
  RuleOutcome,
  RunResult,
  RunStart,
  RunSummary,
  RunTime,
  Suite,
  VerdictPolicy,
} from './core/rules/index.js'
