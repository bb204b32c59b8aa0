// The names and text: one of a list (a suite, a flow), a bearer token, a scenario, a case id, a
// shell command.
import { isBearerToken } from '../../core/service/token.js'
import { FLOWS, type Flow } from '../../core/rules/vocabulary.js'
import { refuse, type Check } from './check.js'

/**
 * One of a list of names.
 * @example oneOf(['advanced', 'simple'], 'a flow').parse('simple') // 'simple'
 */
export function oneOf<T extends string>(names: readonly T[], noun: string): Check<T> {
  const listed = names.length === 2 ? `${names[0]} or ${names[1]}` : `one of ${names.join(', ')}`
  return {
    expected: listed,
    help: listed,
    parse(text) {
      if (!names.includes(text as T)) refuse(`is not ${noun}`)
      return text as T
    },
  }
}

/** A suite of the conformance kit: the two flows, and the fault matrix. */
export const suite: Check<'advanced' | 'simple' | 'resilience' | 'variants'> = oneOf(
  ['advanced', 'simple', 'resilience', 'variants'],
  'a suite',
)

/** A flow of the relay service. */
export const flow: Check<Flow> = oneOf(FLOWS, 'a flow')

/** A bearer token, as the mock reads one in `Authorization: Bearer <token>` (one definition for both: core/token.ts). */
export const token: Check<string> = {
  expected: 'printable ASCII characters without spaces, such as relay-mock-token',
  parse(text) {
    if (!isBearerToken(text)) refuse(text === '' ? 'is empty' : 'is not a token')
    return text
  },
}

/** Any text but blank, `expected` saying what it stands for; what it names is checked once its list is loaded. */
function notBlank(expected: string): Check<string> {
  return {
    expected,
    parse(text) {
      if (text.trim() === '') refuse('is empty')
      return text
    },
  }
}

/** A scenario's name or file: checked against the scenarios once they are loaded (serve does); anything but blank here. */
export const scenarioName = notBlank('a name (relay-mock scenarios lists them) or a scenario file')

/** Text checked against a list once the list is loaded (a case id): anything but blank here. */
export const text = notBlank('a value that is not blank')

/** A command run through the shell: anything but blank. */
export const shellCommand = notBlank('the command that runs your client, such as "node client.js"')
