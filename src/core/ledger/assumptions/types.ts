// The shape of the ledger's declarations, and the sentences its alternatives share.

/** An answer a real service could plausibly give where relay-mock chose another. */
export interface Alternative {
  /** Stable id, unique within its assumption, e.g. '200-no-location'. Used as `<assumption>=<alternative>`. */
  readonly id: string
  /** What a real service would do under this alternative, one sentence. */
  readonly answer: string
  /**
   * Set when relay-mock serves no variant of this alternative, saying why (a client cannot come to depend
   * on relay-mock's choice here, or the alternative only widens what the service accepts).
   */
  readonly notServed?: string
}

/** One question the interface leaves open, and relay-mock's answer to it. */
export interface Assumption {
  /** Stable id, dotted, e.g. 'create.status'. */
  readonly id: string
  /** The question the interface leaves open. */
  readonly question: string
  /** What the interface says, with a citation, e.g. '§4, Not shown: HTTP status codes of responses'. */
  readonly interface: string
  /** relay-mock's choice. */
  readonly choice: string
  /** The alternatives a real service could plausibly make. */
  readonly alternatives: readonly Alternative[]
  /** Ids of the conformance rules whose verdicts depend on it. */
  readonly rules: readonly string[]
}

/** Why an alternative that only widens what the service accepts is not served. */
export const WIDER =
  'It only accepts more than relay-mock does; a client that sends what the interface shows is unaffected.'
/** Why an alternative a correct client's flow never meets is not served. */
export const NOT_MET = "A correct client's flow never meets it: the conformance kit does not vary it."
