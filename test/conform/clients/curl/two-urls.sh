#!/usr/bin/env bash
# The simple flow's payment, after a company lookup, with one curl given both URLs: curl keeps the
# connection alive between them, so the payment goes on the lookup's connection. Nothing else: no retry of
# its own, no result file. The test reads the requests the service received.
body=$(jq -nc 'env as $e | {location: $e.RELAY_LOCATION_ID,
  vehicle: {owner: $e.RELAY_OWNER_KENNITALA, plate: $e.RELAY_PLATE, acquiredOn: $e.RELAY_REGISTRATION_DATE},
  visit: {startedOn: $e.RELAY_VISIT_START, endedOn: $e.RELAY_VISIT_END},
  payment: {amount: ($e.RELAY_AMOUNT | tonumber), currency: $e.RELAY_CURRENCY}}')
curl -sS -o /dev/null -H "Authorization: Bearer $RELAY_API_TOKEN" "$RELAY_BASE_URL/rental-companies?kennitala=$RELAY_OWNER_KENNITALA" \
  --next -sS -o /dev/null -H "Authorization: Bearer $RELAY_API_TOKEN" -H 'Content-Type: application/json' --data-binary "$body" "$RELAY_BASE_URL/payment"
exit 0
