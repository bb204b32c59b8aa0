// Tool errors (as opposed to wire errors, which are data): a code and a sentence that ends with
// what to do. Free of imports, so the command line can recognise them without loading the mock.

/** A tool error: it carries a code and a sentence that ends with what to do. */
export class RelayMockError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'RelayMockError'
  }
}

/**
 * What was thrown, in words, whatever it was (an Error, a string, undefined, an object that cannot be printed).
 * @example describeError(new Error('no such file')) // 'no such file'
 */
export function describeError(error: unknown): string {
  try {
    return String((error as Error | undefined)?.message ?? error)
  } catch {
    return 'an unprintable error'
  }
}
