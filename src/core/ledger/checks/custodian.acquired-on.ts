// The ledger's check of `custodian.acquired-on` (see ../assumptions/), a leniency (see ../../service/leniency.ts):
// a request that used its form and was answered as any other confirms relay-mock's choice.
import { leniency, type CheckVerdict, type Observed } from './observed.js'

/** The verdict an answer gives `custodian.acquired-on`, or undefined when it says nothing of it. */
export function custodianAcquiredOn(o: Observed): CheckVerdict | undefined {
  // A refusal says whether acquiredOn was the reason only where its words name the field.
  if (o.status >= 400 && o.status < 500 && !o.text.includes('acquiredOn')) return undefined
  return leniency(o, 'custodian.acquired-on', 'a bare date taken')
}
