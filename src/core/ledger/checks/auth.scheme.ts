// The ledger's check of `auth.scheme` (see ../assumptions/), a leniency (see ../../service/leniency.ts):
// a request that used its form and was answered as any other confirms relay-mock's choice.
import { leniency, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `auth.scheme`, or undefined when it says nothing of it. */
export function authScheme(o: Observed): CheckVerdict | undefined {
  return leniency(o, 'auth.scheme', 'the scheme read in any case and spacing')
}
