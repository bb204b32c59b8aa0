// The ledger's check of `query.extra` (see ../assumptions/), a leniency (see ../../service/leniency.ts):
// a request that used its form and was answered as any other confirms relay-mock's choice.
import { leniency, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `query.extra`, or undefined when it says nothing of it. */
export function queryExtra(o: Observed): CheckVerdict | undefined {
  return leniency(o, 'query.extra', 'extra or repeated parameters ignored')
}
