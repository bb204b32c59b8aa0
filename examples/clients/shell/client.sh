#!/usr/bin/env bash
# Relay location client: bash + curl + jq.
# Reports one visit's payment to the relay service using the flow named by
# RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
# variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.
#
# Exit status is 0 whatever the service answers: the customer's payment
# completes even when the owner is unknown or the service refuses. Only a
# missing/invalid configuration (a runner bug) exits non-zero.
set -euo pipefail

: "${RELAY_BASE_URL:?}" "${RELAY_API_TOKEN:?}" "${RELAY_LOCATION_ID:?}" "${RELAY_FLOW:?}"
: "${RELAY_PLATE:?}" "${RELAY_OWNER_KENNITALA:?}" "${RELAY_REGISTRATION_DATE:?}"
: "${RELAY_VISIT_START:?}" "${RELAY_VISIT_END:?}" "${RELAY_AMOUNT:?}" "${RELAY_CURRENCY:?}"
[[ $RELAY_AMOUNT =~ ^-?[0-9]+$ ]] || { echo "RELAY_AMOUNT must be an integer" >&2; exit 2; }

BASE=${RELAY_BASE_URL%/}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# call METHOD PATH [JSON] -> sets STATUS (000 on network error) and BODY.
# No `curl -f`: the body is read on every status (simple rule: key on `id`).
call() {
  local method=$1 path=$2 data=${3-}
  local args=(-sS --max-time 30 -X "$method" -o "$TMP/body" -w '%{http_code}'
              -H "Authorization: Bearer $RELAY_API_TOKEN")
  if [[ -n $data ]]; then args+=(-H 'Content-Type: application/json' --data-binary "$data"); fi
  : >"$TMP/body"
  STATUS=$(curl "${args[@]}" "$BASE$path" 2>"$TMP/err") || STATUS=000
  BODY=$(cat "$TMP/body")
  if [[ $STATUS == 000 ]]; then
    echo "$method $path -> network error: $(cat "$TMP/err")" >&2
  else
    echo "$method $path -> $STATUS" >&2
  fi
}

# json FILTER -> runs a jq filter on BODY; prints nothing if BODY is not JSON.
json() { jq -r "$1" <<<"$BODY" 2>/dev/null || true; }

# Query values must be URL-encoded.
urlencode() { jq -rn --arg v "$1" '$v | @uri'; }

# finish OUTCOME [PAYMENT_ID] [MESSAGE] -> writes the result file and exits 0.
finish() {
  local outcome=$1 id=${2-} msg=${3-}
  echo "outcome: $outcome${id:+ (payment $id)}${msg:+: $msg}" >&2
  if [[ -n ${RELAY_RESULT_FILE-} ]]; then
    jq -n --arg o "$outcome" --arg id "$id" --arg m "$msg" \
      '{outcome: $o} + (if $id != "" then {paymentId: $id} else {} end)
                     + (if $m != "" then {message: $m} else {} end)' >"$RELAY_RESULT_FILE"
  fi
  exit 0
}

# Advanced flow: any failed call (non-2xx or network) stops the flow -> "rejected".
require_2xx() {
  [[ $STATUS == 2?? ]] && return 0
  local why
  if [[ $STATUS == 000 ]]; then why="network error: $(cat "$TMP/err")"
  else why="HTTP $STATUS$(json '.message // empty | ": " + tostring')"; fi
  finish rejected "" "$1 failed: $why"
}

# Length of BODY as a JSON array, or -1 if it is not one.
array_length() { local n; n=$(json 'if type == "array" then length else -1 end'); echo "${n:--1}"; }

advanced() {
  local n company_id vehicle_id acquired_on payment_id body

  # Advanced rule 1: first query rental companies by the owner's kennitala.
  call GET "/rental-companies?kennitala=$(urlencode "$RELAY_OWNER_KENNITALA")"
  require_2xx "rental company lookup"
  n=$(array_length)
  ((n >= 0)) || finish rejected "" "rental company lookup: answer is not a JSON array"
  # Advanced rule 2: empty list -> owner not part of the service; no further call.
  ((n > 0)) || finish skipped "" "owner $RELAY_OWNER_KENNITALA is not part of the service"
  company_id=$(json '.[0].id // empty')
  [[ -n $company_id ]] || finish rejected "" "rental company lookup: first company has no id"

  # Advanced rule 3: query active vehicles by plate.
  call GET "/vehicles?plate=$(urlencode "$RELAY_PLATE")"
  require_2xx "vehicle lookup"
  n=$(array_length)
  ((n >= 0)) || finish rejected "" "vehicle lookup: answer is not a JSON array"

  if ((n == 0)); then
    # Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
    call POST /vehicles "$(jq -nc --arg p "$RELAY_PLATE" '{plate: $p, country: "is"}')"
    require_2xx "vehicle creation"
    vehicle_id=$(json '.id // empty')
    [[ -n $vehicle_id ]] || finish rejected "" "vehicle creation: answer has no id"

    # acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
    acquired_on=$RELAY_REGISTRATION_DATE
    if [[ $acquired_on =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then acquired_on="$acquired_on 00:00:00"; fi
    call POST /custodians "$(jq -nc --arg v "$vehicle_id" --arg c "$company_id" --arg a "$acquired_on" \
      '{vehicleId: $v, rentalCompanyId: $c, acquiredOn: $a}')"
    require_2xx "custodian creation"
  else
    # Advanced rule 5: a vehicle is returned -> use its id (first element of the list).
    vehicle_id=$(json '.[0].id // empty')
    [[ -n $vehicle_id ]] || finish rejected "" "vehicle lookup: first vehicle has no id"
  fi

  # Advanced rule 6: create the payment (last call). amount.amount is a JSON number.
  body=$(jq -nc --arg loc "$RELAY_LOCATION_ID" --arg veh "$vehicle_id" \
    --arg amt "$RELAY_AMOUNT" --arg cur "$RELAY_CURRENCY" \
    --arg started "$RELAY_VISIT_START" --arg ended "$RELAY_VISIT_END" \
    '{locationId: $loc, vehicleId: $veh, amount: {amount: ($amt | tonumber), currency: $cur},
      startedOn: $started, endedOn: $ended, status: "new"}')
  call POST /payments "$body"
  require_2xx "payment creation"
  payment_id=$(json '.id // empty | tostring')
  [[ -n $payment_id ]] || finish rejected "" "payment creation: answer has no id"
  finish paid "$payment_id"
}

simple() {
  local body id msg
  # Simple rule 1: one request carrying all payment and vehicle data.
  body=$(jq -nc --arg loc "$RELAY_LOCATION_ID" --arg owner "$RELAY_OWNER_KENNITALA" \
    --arg plate "$RELAY_PLATE" --arg acq "$RELAY_REGISTRATION_DATE" \
    --arg started "$RELAY_VISIT_START" --arg ended "$RELAY_VISIT_END" \
    --arg amt "$RELAY_AMOUNT" --arg cur "$RELAY_CURRENCY" \
    '{location: $loc,
      vehicle: {owner: $owner, plate: $plate, acquiredOn: $acq},
      visit: {startedOn: $started, endedOn: $ended},
      payment: {amount: ($amt | tonumber), currency: $cur}}')
  call POST /payment "$body"
  if [[ $STATUS == 000 ]]; then finish rejected "" "network error: $(cat "$TMP/err")"; fi

  # Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP status;
  # otherwise the answer's `message` describes the failure.
  id=$(json '.id // empty | tostring')
  msg=$(json '.message // empty | tostring')
  if [[ -n $id ]]; then finish paid "$id" "$msg"; fi
  finish rejected "" "${msg:-answer has no id and no message (HTTP $STATUS)}"
}

case $RELAY_FLOW in
  advanced) advanced ;;
  simple) simple ;;
  *) echo "RELAY_FLOW must be 'advanced' or 'simple', got '$RELAY_FLOW'" >&2; exit 2 ;;
esac
