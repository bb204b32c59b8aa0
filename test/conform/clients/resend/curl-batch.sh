#!/usr/bin/env bash
# A shell client of the advanced flow that sends the custodian and the payment in one curl command
# (`--next`): the payment goes on the connection the custodian kept alive. libcurl sends a request
# again by itself, on a new connection, when a reused connection dies before any answer, a POST too.
# With CURL_BATCH_CLOSE=1 the custodian asks the service to close its connection (`Connection: close`),
# so the payment takes a new one, which libcurl never resends.
set -euo pipefail
BASE=${RELAY_BASE_URL%/}
AUTH="Authorization: Bearer $RELAY_API_TOKEN"
TIMEOUT_S=$((${RELAY_REQUEST_TIMEOUT_MS:-5000} / 1000))
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
report() { jq -n --arg o "$1" --arg id "${2-}" '{outcome: $o} + (if $id != "" then {paymentId: $id} else {} end)' >"$RELAY_RESULT_FILE"; exit 0; }
get() { curl -sS --max-time "$TIMEOUT_S" -H "$AUTH" "$BASE$1"; }

company=$(get "/rental-companies?kennitala=$RELAY_OWNER_KENNITALA" | jq -r '.[0].id // empty')
[[ -n $company ]] || report skipped
vehicle=$(get "/vehicles?plate=$RELAY_PLATE" | jq -r '.[0].id // empty')
if [[ -z $vehicle ]]; then
  vehicle=$(curl -sS --max-time "$TIMEOUT_S" -H "$AUTH" -H 'Content-Type: application/json' \
    --data-binary "$(jq -nc --arg p "$RELAY_PLATE" '{plate: $p, country: "is"}')" "$BASE/vehicles" | jq -r '.id // empty')
  [[ -n $vehicle ]] || report rejected
fi
custodian=$(jq -nc --arg v "$vehicle" --arg c "$company" --arg a "$RELAY_REGISTRATION_DATE 00:00:00" '{vehicleId: $v, rentalCompanyId: $c, acquiredOn: $a}')
payment=$(jq -nc --arg loc "$RELAY_LOCATION_ID" --arg veh "$vehicle" --arg amt "$RELAY_AMOUNT" --arg cur "$RELAY_CURRENCY" \
  --arg s "$RELAY_VISIT_START" --arg e "$RELAY_VISIT_END" \
  '{locationId: $loc, vehicleId: $veh, amount: {amount: ($amt | tonumber), currency: $cur}, startedOn: $s, endedOn: $e, status: "new"}')
close=()
if [[ ${CURL_BATCH_CLOSE-} == 1 ]]; then close=(-H 'Connection: close'); fi
code=0
curl -sS --max-time "$TIMEOUT_S" -H "$AUTH" -H 'Content-Type: application/json' "${close[@]}" --data-binary "$custodian" -o "$TMP/custodian" "$BASE/custodians" \
  --next -sS --max-time "$TIMEOUT_S" -H "$AUTH" -H 'Content-Type: application/json' --data-binary "$payment" -o "$TMP/payment" -w '%{http_code}' "$BASE/payments" >"$TMP/status" || code=$?
status=$(<"$TMP/status")
if ((code != 0)) || [[ $status != 2?? ]]; then report unknown; fi
report paid "$(jq -r '.id // empty' <"$TMP/payment")"
