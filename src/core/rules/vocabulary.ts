// The words a case's inputs and results share: the flows and the outcomes. The types, the schemas that
// read them back (a HAR page's `_relay`, a `--visits` file, RELAY_RESULT_FILE, a cases file) and the CLI's
// choices are all made from these lists, so a new outcome cannot be written by one and refused by another.

/** The two ways a location reports a visit: the advanced (four calls) and the simple (one call) flow. */
export const FLOWS = ['advanced', 'simple'] as const

export type Flow = (typeof FLOWS)[number]

/**
 * How a visit's payment ended: recorded, not handled (owner not in the service), refused, or
 * unknown (the answer to the payment was lost: the client cannot tell whether it was recorded).
 */
export const OUTCOMES = ['paid', 'skipped', 'rejected', 'unknown'] as const

export type Outcome = (typeof OUTCOMES)[number]
