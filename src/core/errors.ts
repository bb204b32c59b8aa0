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
