// The machinery every command-line check shares: a kind of value (Check), how a check refuses a
// value (refuse) and the one sentence a refusal becomes (refused, a UsageError).

/**
 * A refused command-line value or combination: its message is one sentence, shown as it is after
 * the command's name, with exit status 2.
 * @example throw new UsageError('--client and --from cannot be used together: expected one of them.')
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** What a check throws: why the value is refused ("is not a port"); the option and value are added. */
class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

export function refuse(reason: string): never {
  throw new Refusal(reason)
}

/**
 * One kind of value: how to read it from the command line and what is allowed, said once.
 * @example port.parse('4010') // 4010
 */
export interface Check<T> {
  /** What is allowed, after "expected": `an integer 0-65535`. */
  readonly expected: string
  /** The bounds in a few words for --help (`0-65535`), where the option's description lacks them. */
  readonly help?: string
  /** The value, from the text given; throws a refusal (use {@link apply}, which names the option). */
  parse(text: string): T
}

/**
 * Reads `text` with `check` for `flag`; a refusal becomes a UsageError naming both.
 * @example apply('--port', port, 'abc') // throws: --port "abc" is not a port: expected an integer 0-65535.
 */
export function apply<T>(flag: string, check: Check<T>, text: string): T {
  try {
    return check.parse(text)
  } catch (error) {
    if (error instanceof Refusal) throw refused(flag, text, error.reason, check.expected)
    throw error
  }
}

/**
 * The one shape of a refusal: `--port "abc" is not a port: expected an integer 0-65535.`
 * @example refused('--port', '80', 'is not allowed for this user', 'a port above 1023')
 */
export function refused(flag: string, value: string, reason: string, expected: string): UsageError {
  return new UsageError(`${flag} ${JSON.stringify(value)} ${reason}: expected ${expected}.`)
}
