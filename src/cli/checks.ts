// The checks every command-line value goes through, defined once and shared by the commands: each
// turns the text given into the value the command needs, or refuses it with a sentence that names
// the option, the value and what is allowed. They run before a command starts anything.
//
// They live in checks/, by what they are: check.ts the machinery (a kind of value, a refusal and
// its sentence), option.ts a check made a yargs option, numbers.ts the numbers and sizes,
// network.ts the port, address and upstream URL, files.ts the files and folders, text.ts the names,
// tokens, scenarios and text. This module gathers them by name for the commands.
export { apply, refused, UsageError, type Check } from './checks/check.js'
export { checked, declared, expectedOf } from './checks/option.js'
export {
  explore,
  integer,
  jobs,
  journalBytes,
  journalLimit,
  latency,
  LATENCY_MAX_MS,
  maxWorlds,
  repeat,
  requestTimeout,
  seconds,
  seed,
  timeout,
  vehicles,
  worldRecords,
} from './checks/numbers.js'
export { host, isLoopback, port, upstreamUrl } from './checks/network.js'
export { readableFile, writableFile, writableFolder } from './checks/files.js'
export { flow, oneOf, scenarioName, shellCommand, suite, text, token } from './checks/text.js'
