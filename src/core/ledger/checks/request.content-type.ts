// The ledger's check of `request.content-type` (see ../assumptions/), a leniency (see ../../service/leniency.ts):
// a request that used its form and was answered as any other confirms relay-mock's choice.
import { leniency, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `request.content-type`, or undefined when it says nothing of it. */
export function requestContentType(o: Observed): CheckVerdict | undefined {
  return leniency(o, 'request.content-type', 'any JSON media type read')
}
