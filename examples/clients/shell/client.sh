#!/usr/bin/env bash
# Relay location client: bash + curl + jq.
# Reports one visit's payment to the relay service using the flow named by
# RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
# variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.
#
# Exit status is 0 whatever the service answers: the customer's payment
# completes even when the owner is unknown or the service refuses. Only a
# missing/invalid configuration (a runner bug) exits non-zero.
#
# When the service fails: every request gives up after RELAY_REQUEST_TIMEOUT_MS; a 503 or 429
# is sent again after its Retry-After (seconds or an HTTP-date); a lookup also after no answer
# (at once) or a 5xx (600 ms later); 3 attempts in all. A POST whose answer was lost (no answer,
# 500/502/504, a cut-off or non-JSON 2xx) may have been recorded, so it is never sent again
# blind: the vehicle is looked up first, and a payment is reported `unknown`.
set -euo pipefail

: "${RELAY_BASE_URL:?}" "${RELAY_API_TOKEN:?}" "${RELAY_LOCATION_ID:?}" "${RELAY_FLOW:?}"
: "${RELAY_PLATE:?}" "${RELAY_OWNER_KENNITALA:?}" "${RELAY_REGISTRATION_DATE:?}"
: "${RELAY_VISIT_START:?}" "${RELAY_VISIT_END:?}" "${RELAY_AMOUNT:?}" "${RELAY_CURRENCY:?}"
[[ $RELAY_AMOUNT =~ ^(-?)0*([0-9]+)$ ]] || { echo "RELAY_AMOUNT must be an integer" >&2; exit 2; }
AMOUNT=${BASH_REMATCH[1]}${BASH_REMATCH[2]} # a JSON number: no leading zeros

BASE=${RELAY_BASE_URL%/}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Each request gives up after RELAY_REQUEST_TIMEOUT_MS (the runner sets it; 5 s otherwise).
TIMEOUT_MS=${RELAY_REQUEST_TIMEOUT_MS:-5000}
[[ $TIMEOUT_MS =~ ^[0-9]+$ ]] && ((TIMEOUT_MS > 0)) || { echo "RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds" >&2; exit 2; }
TIMEOUT_S=$(printf '%d.%03d' $((TIMEOUT_MS / 1000)) $((TIMEOUT_MS % 1000)))
MAX_ATTEMPTS=3       # at one request, the first included
BACKOFF_S=0.6        # before retrying a 5xx that named no Retry-After: at least 500 ms
MAX_RETRY_AFTER_S=10 # a longer wait keeps the customer standing there: give up instead

# send METHOD PATH [JSON] -> one request. Sets STATUS and BODY, or LOST (why there is no answer
# the client can read: no answer at all, a cut-off body, or a 2xx that is not JSON), RETRY_AFTER,
# and what read_answer reads of BODY.
# No `curl -f`: the body is read on every status (simple rule: key on `id`). One curl run per request,
# with one URL, and no --retry: each request has a connection of its own, so libcurl has nothing to send
# again by itself (it resends a request, a POST too, when a kept-alive connection dies before the answer).
send() {
  local method=$1 path=$2 data=${3-} code line
  local args=(-sS --max-time "$TIMEOUT_S" -X "$method" -o "$TMP/body" -D "$TMP/headers" -w '%{http_code}'
              -H "Authorization: Bearer $RELAY_API_TOKEN")
  if [[ -n $data ]]; then args+=(-H 'Content-Type: application/json' --data-binary "$data"); fi
  : >"$TMP/body"; : >"$TMP/headers"
  LOST='' RETRY_AFTER=''
  STATUS=$(curl "${args[@]}" "$BASE$path" 2>"$TMP/err") && code=0 || code=$?
  BODY=$(<"$TMP/body")
  case $code in
    0) ;;
    28) LOST="no answer within $TIMEOUT_S s" ;;
    18) LOST="the answer was cut off" ;;
    *) LOST="the connection failed ($(tr -d '\n' <"$TMP/err"))" ;;
  esac
  read_answer
  if [[ -z $LOST && $STATUS == 2?? && $KIND == none ]]; then
    LOST="HTTP $STATUS with a body that is not JSON"
  fi
  if [[ -n $LOST ]]; then STATUS=000 BODY='' KIND='' LENGTH=-1 ID='' FIRST_ID='' MESSAGE=''; fi
  while IFS= read -r line; do
    if [[ ${line%$'\r'} =~ ^[Rr][Ee][Tt][Rr][Yy]-[Aa][Ff][Tt][Ee][Rr]:[[:space:]]*(.*)$ ]]; then RETRY_AFTER=${BASH_REMATCH[1]}; fi
  done <"$TMP/headers"
  echo "$method $path -> ${LOST:-$STATUS}" >&2
}

# retry_wait METHOD -> prints the seconds to wait before sending the last request again; prints
# nothing when it must not be sent again.
retry_wait() {
  local method=$1 wait
  if [[ $STATUS == 429 || $STATUS == 503 ]]; then
    # Nothing was done: come back when told (1 s when not told), unless that is too long.
    if [[ -z $RETRY_AFTER ]]; then wait=1
    elif [[ $RETRY_AFTER =~ ^[0-9]+$ ]]; then wait=$RETRY_AFTER
    else
      # An HTTP-date names a whole second: come back just after it.
      local date; date=$(date -d "$RETRY_AFTER" +%s 2>/dev/null) || return 0
      wait=$(awk -v d="$date" -v now="$(date +%s.%N)" 'BEGIN { w = d - now + 0.1; printf "%.3f", w < 0 ? 0 : w }')
    fi
    if awk -v w="$wait" -v max="$MAX_RETRY_AFTER_S" 'BEGIN { exit !(w <= max) }'; then echo "$wait"; fi
  elif [[ $STATUS == 408 ]]; then echo "$BACKOFF_S"
  # A POST whose answer was lost may have been recorded: never send it again blind.
  elif [[ $method != GET ]]; then return 0
  elif [[ -n $LOST ]]; then echo 0 # a lookup is safe to repeat at once
  elif [[ $STATUS == 5?? ]]; then echo "$BACKOFF_S"
  fi
}

# call METHOD PATH [JSON] -> send, retrying where that is safe: at most MAX_ATTEMPTS in all.
call() {
  local attempt wait
  for ((attempt = 1; ; attempt++)); do
    send "$@"
    wait=$(retry_wait "$1")
    if [[ -z $wait ]] || ((attempt == MAX_ATTEMPTS)); then return 0; fi
    echo "  retrying in $wait s" >&2
    sleep "$wait"
  done
}

# ambiguous -> true when the service may have done the last request: no readable answer, or a
# 500, 502 or 504.
ambiguous() { [[ -n $LOST || $STATUS == 500 || $STATUS == 502 || $STATUS == 504 ]]; }

# read_answer -> reads BODY once (jq starts in tens of milliseconds: once per answer, not per field).
# Sets KIND (its JSON type, or none when it is not JSON), LENGTH (an array's, else -1), ID (an
# object's id), FIRST_ID (an array's first element's id) and MESSAGE (an object's message).
read_answer() {
  local fields
  fields=$(jq -r 'def text: if . == null then "" else tostring | gsub("[\t\n\r\u001f]+"; " ") | ltrimstr(" ") | rtrimstr(" ") end;
    def field($name): if type == "object" then .[$name] // null else null end | text;
    [type, (if type == "array" then length else -1 end), field("id"),
     (if type == "array" then .[0] else null end | field("id")), field("message")] | map(tostring) | join("\u001f")' <<<"$BODY" 2>/dev/null) || fields=none
  IFS=$'\x1f' read -r KIND LENGTH ID FIRST_ID MESSAGE <<<"$fields" || true
  LENGTH=${LENGTH:--1}
}

# json VALUE -> VALUE as a JSON string: quotes and backslashes escaped, control characters as \u00XX.
# (Bodies are built here rather than by `jq -n`: jq costs tens of milliseconds of CPU at each start.)
json() {
  local LC_ALL=C value=$1 escaped='' char i
  value=${value//\\/\\\\}
  value=${value//\"/\\\"}
  if [[ $value == *[$'\x01'-$'\x1f']* ]]; then
    for ((i = 0; i < ${#value}; i++)); do
      char=${value:i:1}
      if [[ $char == [$'\x01'-$'\x1f'] ]]; then printf -v char '\\u%04x' "'$char"; fi
      escaped+=$char
    done
    value=$escaped
  fi
  printf '"%s"' "$value"
}

# urlencode VALUE -> VALUE with every byte but A-Z a-z 0-9 - . _ ~ percent-encoded (as UTF-8).
urlencode() {
  local LC_ALL=C value=$1 encoded='' char i
  for ((i = 0; i < ${#value}; i++)); do
    char=${value:i:1}
    if [[ $char == [A-Za-z0-9._~-] ]]; then encoded+=$char; else printf -v char '%%%02X' "'$char"; encoded+=$char; fi
  done
  printf '%s' "$encoded"
}

# finish OUTCOME [PAYMENT_ID] [MESSAGE] -> writes the result file and exits 0.
finish() {
  local outcome=$1 id=${2-} msg=${3-}
  echo "outcome: $outcome${id:+ (payment $id)}${msg:+: $msg}" >&2
  if [[ -n ${RELAY_RESULT_FILE-} ]]; then
    printf '{"outcome":%s%s%s}\n' "$(json "$outcome")" "${id:+,\"paymentId\":$(json "$id")}" \
      "${msg:+,\"message\":$(json "$msg")}" >"$RELAY_RESULT_FILE"
  fi
  exit 0
}

# Advanced flow: any failed call (non-2xx or no answer) stops the flow -> "rejected".
require_2xx() {
  [[ $STATUS == 2?? ]] && return 0
  local why
  if [[ -n $LOST ]]; then why=$LOST
  else why="HTTP $STATUS${MESSAGE:+: $MESSAGE}"; fi
  finish rejected "" "$1 failed: $why"
}

# The payment's answer was lost: it may be recorded or not. Never resend it; say so.
finish_unknown() {
  finish unknown "" "the payment may or may not be recorded (${LOST:-HTTP $STATUS}): look it up before charging again"
}

# GET /vehicles?plate= -> BODY holds the list, or the flow stops.
look_up_vehicle() {
  call GET "/vehicles?plate=$(urlencode "$RELAY_PLATE")"
  require_2xx "vehicle lookup"
  ((LENGTH >= 0)) || finish rejected "" "vehicle lookup: answer is not a JSON array"
}

advanced() {
  local n company_id vehicle vehicle_id acquired_on payment_id body

  # Advanced rule 1: first query rental companies by the owner's kennitala.
  call GET "/rental-companies?kennitala=$(urlencode "$RELAY_OWNER_KENNITALA")"
  require_2xx "rental company lookup"
  n=$LENGTH
  ((n >= 0)) || finish rejected "" "rental company lookup: answer is not a JSON array"
  # Advanced rule 2: empty list -> owner not part of the service; no further call.
  ((n > 0)) || finish skipped "" "owner $RELAY_OWNER_KENNITALA is not part of the service"
  company_id=$FIRST_ID
  [[ -n $company_id ]] || finish rejected "" "rental company lookup: first company has no id"

  # Advanced rule 3: query active vehicles by plate.
  look_up_vehicle
  n=$LENGTH

  if ((n == 0)); then
    # Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
    vehicle=$(printf '{"plate":%s,"country":"is"}' "$(json "$RELAY_PLATE")")
    call POST /vehicles "$vehicle"
    if ambiguous; then
      # The vehicle may exist now: look before creating it again, or it exists twice.
      look_up_vehicle
      n=$LENGTH
      if ((n == 0)); then call POST /vehicles "$vehicle"; fi
    fi
    if ((n > 0)); then
      vehicle_id=$FIRST_ID
      [[ -n $vehicle_id ]] || finish rejected "" "vehicle lookup: first vehicle has no id"
    else
      require_2xx "vehicle creation"
      vehicle_id=$ID
      [[ -n $vehicle_id ]] || finish rejected "" "vehicle creation: answer has no id"
    fi

    # acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
    acquired_on=$RELAY_REGISTRATION_DATE
    if [[ $acquired_on =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then acquired_on="$acquired_on 00:00:00"; fi
    call POST /custodians "$(printf '{"vehicleId":%s,"rentalCompanyId":%s,"acquiredOn":%s}' \
      "$(json "$vehicle_id")" "$(json "$company_id")" "$(json "$acquired_on")")"
    # A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
    require_2xx "custodian creation"
  else
    # Advanced rule 5: a vehicle is returned -> use its id (first element of the list).
    vehicle_id=$FIRST_ID
    [[ -n $vehicle_id ]] || finish rejected "" "vehicle lookup: first vehicle has no id"
  fi

  # Advanced rule 6: create the payment (last call). amount.amount is a JSON number.
  body=$(printf '{"locationId":%s,"vehicleId":%s,"amount":{"amount":%s,"currency":%s},"startedOn":%s,"endedOn":%s,"status":"new"}' \
    "$(json "$RELAY_LOCATION_ID")" "$(json "$vehicle_id")" "$AMOUNT" "$(json "$RELAY_CURRENCY")" \
    "$(json "$RELAY_VISIT_START")" "$(json "$RELAY_VISIT_END")")
  call POST /payments "$body"
  if ambiguous; then finish_unknown; fi
  require_2xx "payment creation"
  payment_id=$ID
  [[ -n $payment_id ]] || finish rejected "" "payment creation: answer has no id"
  finish paid "$payment_id"
}

simple() {
  local body id msg
  # Simple rule 1: one request carrying all payment and vehicle data.
  body=$(printf '{"location":%s,"vehicle":{"owner":%s,"plate":%s,"acquiredOn":%s},"visit":{"startedOn":%s,"endedOn":%s},"payment":{"amount":%s,"currency":%s}}' \
    "$(json "$RELAY_LOCATION_ID")" "$(json "$RELAY_OWNER_KENNITALA")" "$(json "$RELAY_PLATE")" \
    "$(json "$RELAY_REGISTRATION_DATE")" "$(json "$RELAY_VISIT_START")" "$(json "$RELAY_VISIT_END")" \
    "$AMOUNT" "$(json "$RELAY_CURRENCY")")
  call POST /payment "$body"

  # Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP status;
  # otherwise the answer's `message` describes the failure.
  id=$ID
  msg=$MESSAGE
  if [[ -n $id ]]; then finish paid "$id" "$msg"; fi
  if ambiguous; then finish_unknown; fi
  finish rejected "" "${msg:-answer has no id and no message (HTTP $STATUS)}"
}

case $RELAY_FLOW in
  advanced) advanced ;;
  simple) simple ;;
  *) echo "RELAY_FLOW must be 'advanced' or 'simple', got '$RELAY_FLOW'" >&2; exit 2 ;;
esac
