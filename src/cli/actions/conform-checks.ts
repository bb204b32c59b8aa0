// What `relay-mock conform` checks of its options beyond their form, before any client runs: there
// is something to check (a client or a capture), and each --case names cases of the suites. Loaded
// only when conform runs, as the suites are.
import { RelayMockError } from '../../core/errors.js'
import { caseHint, selectCases } from '../../node/runner/select.js'
import { refused, UsageError } from '../checks.js'
import type { ConformArgs } from '../conform-options.js'

/**
 * Throws a UsageError naming the option if conform could not run with `args`.
 * @example checkConform({ client: 'true', case: ['simple/nope'], timeout: 30 }) // throws: --case "simple/nope" matches no case: the nearest ...
 */
export function checkConform(args: ConformArgs): void {
  if (!args.client && !args.from) {
    throw new UsageError(
      '--client is missing: expected the command that runs your client (--client "node client.js"), or --from FILE.har to check a captured conversation.',
    )
  }
  // The suites say which cases there are and how a prefix selects them: ask them, one pattern at a time.
  const ids = selectCases().map((kase) => kase.id)
  // Cases of the user's own are known once their file is loaded, when conform runs (and checks them).
  if (args.cases) return
  for (const pattern of args.case ?? []) {
    if (!selects({ cases: [pattern] })) throw refused('--case', pattern, 'matches no case', caseHint(pattern, ids))
  }
  if (args.flow && args.case && !selects({ flows: [args.flow], cases: args.case })) {
    throw refused(
      '--case',
      args.case.join(' '),
      `has no case of the ${args.flow} flow`,
      `a case of the ${args.flow} flow (${args.flow}/*), or no --flow`,
    )
  }
}

function selects(options: Parameters<typeof selectCases>[0]): boolean {
  try {
    return selectCases(options).length > 0
  } catch (error) {
    if (error instanceof RelayMockError && (error.code === 'CASE_NOT_FOUND' || error.code === 'NO_CASES')) return false
    throw error
  }
}
