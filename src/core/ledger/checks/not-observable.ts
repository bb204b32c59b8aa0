// The assumptions traffic cannot show, each with why not in one sentence: the ledger has no check for them.
import type { NotObservable } from './observed.js'

/** Why each of these assumptions cannot be seen in a real service's answers. */
export const NOT_OBSERVABLE = {
  'http.expect-continue': {
    notObservable:
      'relay-mock proxy answers 100 Continue itself and forwards the whole request, so the upstream never sees Expect.',
  },
  'time.zone': {
    notObservable:
      'Timestamps go from the client to the service; how the service reads their zone does not show in its answers.',
  },
  'amount.unit': { notObservable: "The unit is what an amount means; the service's answers carry no unit." },
  'location.id': {
    notObservable:
      "The proxy does not know the location's id, and a refused payment does not say in a form relay-mock can read that the location was the reason.",
  },
  'query.encoding': {
    notObservable:
      'Seen only where a plate with a space, sent with `+`, names a vehicle the service holds; neither a lookup that finds nothing nor one that finds it tells which reading found it.',
  },
} satisfies Record<string, NotObservable>
