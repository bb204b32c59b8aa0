#!/usr/bin/env python3
"""Relay location client: Python 3 standard library only.

Reports one visit's payment to the relay service using the flow named by
RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.

Exit status is 0 whatever the service answers: the customer's payment
completes even when the owner is unknown or the service refuses. Only a
missing/invalid configuration (a runner bug) exits non-zero.

When the service fails: every request gives up after RELAY_REQUEST_TIMEOUT_MS;
a 503 or 429 is sent again after its Retry-After (seconds or an HTTP-date); a
lookup also after no answer (at once) or a 5xx (600 ms later); 3 attempts in
all. A POST whose answer was lost (no answer, 500/502/504, a cut-off or
non-JSON 2xx) may have been recorded, so it is never sent again blind: the
vehicle is looked up first, and a payment is reported `unknown`.
"""
import email.utils
import http.client
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import quote


def die(message):
    """Configuration error (a runner bug, not a service answer): exit 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def env(name):
    value = os.environ.get(name)
    if not value:
        die(f"{name} is not set")
    return value


BASE_URL = env("RELAY_BASE_URL").rstrip("/")
TOKEN = env("RELAY_API_TOKEN")
LOCATION_ID = env("RELAY_LOCATION_ID")
FLOW = env("RELAY_FLOW")
PLATE = env("RELAY_PLATE")
OWNER = env("RELAY_OWNER_KENNITALA")
REGISTRATION_DATE = env("RELAY_REGISTRATION_DATE")
VISIT_START = env("RELAY_VISIT_START")
VISIT_END = env("RELAY_VISIT_END")
CURRENCY = env("RELAY_CURRENCY")
try:
    AMOUNT = int(env("RELAY_AMOUNT"))  # sent as a JSON number, never a string
except ValueError:
    die("RELAY_AMOUNT must be an integer")


# Each request gives up after RELAY_REQUEST_TIMEOUT_MS (the runner sets it; 5 s otherwise).
# urllib applies it to each wait for the connection or for bytes, which ends a request that gets
# no answer; an answer trickling in byte by byte could take longer.
try:
    TIMEOUT_S = int(os.environ.get("RELAY_REQUEST_TIMEOUT_MS") or 5000) / 1000
except ValueError:
    TIMEOUT_S = 0
if TIMEOUT_S <= 0:
    die("RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds")
MAX_ATTEMPTS = 3  # at one request, the first included
BACKOFF_S = 0.6  # before retrying a 5xx that named no Retry-After: at least 500 ms
MAX_RETRY_AFTER_S = 10  # a longer wait keeps the customer standing there: give up instead
DATE_MARGIN_S = 0.1  # an HTTP-date names a whole second: come back just after it


class Finished(Exception):
    """Raised to end the flow with an outcome (paid | skipped | rejected | unknown)."""

    def __init__(self, outcome, payment_id=None, message=None):
        super().__init__(outcome)
        self.outcome, self.payment_id, self.message = outcome, payment_id, message


class Answer:
    """What one request came to: an answer the client could read, or none (`lost` says why)."""

    def __init__(self, status=0, body=None, lost=None, retry_after=None):
        self.status, self.body, self.lost, self.retry_after = status, body, lost, retry_after

    def ok(self):
        return self.lost is None and 200 <= self.status < 300

    def ambiguous(self):
        """The service may have done the request: no readable answer, or a 500, 502 or 504."""
        return self.lost is not None or self.status in (500, 502, 504)

    def __str__(self):
        if self.lost is not None:
            return self.lost
        detail = self.body.get("message") if isinstance(self.body, dict) else None
        return f"HTTP {self.status}" + (f": {detail}" if detail else "")


def retry_after_s(value):
    """Retry-After in seconds (a number of seconds, or an HTTP-date); None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        date = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, date.timestamp() - time.time()) + DATE_MARGIN_S


def send(method, path, body=None):
    """Make one request with the request timeout; print and return its Answer."""
    answer = read_answer(method, path, body)
    print(f"{method} {path} -> {answer.lost or answer.status}", file=sys.stderr)
    return answer


def read_answer(method, path, body):
    """One request. The body is read on every status (simple rule: key on `id`,
    not on the status). A 2xx whose body cannot be read whole as JSON (cut off,
    or a proxy's HTML page) tells the client nothing: it counts as no answer.
    """
    headers = {"Authorization": f"Bearer {TOKEN}"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                status, answer_headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:  # 4xx/5xx: still read the answer
            status, answer_headers = error.code, error.headers
            try:
                raw = error.read()
            except (http.client.HTTPException, OSError):
                raw = b""
    except http.client.IncompleteRead:
        return Answer(lost="the answer was cut off")
    except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
        reason = getattr(error, "reason", error)
        if isinstance(reason, TimeoutError):
            return Answer(lost=f"no answer within {TIMEOUT_S:g} s")
        return Answer(lost=f"the connection failed ({reason})")
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        if 200 <= status < 300:
            return Answer(lost=f"HTTP {status} with a body that is not JSON")
        parsed = None
    return Answer(status, parsed, retry_after=retry_after_s(answer_headers.get("Retry-After")))


def retry_wait(method, answer):
    """Seconds to wait before sending the request again, or None not to send it again."""
    if answer.lost is None and answer.status in (429, 503):
        # Nothing was done: come back when told (1 s when not told), unless that is too long.
        wait = 1.0 if answer.retry_after is None else answer.retry_after
        return wait if wait <= MAX_RETRY_AFTER_S else None
    if answer.lost is None and answer.status == 408:
        return BACKOFF_S
    if method != "GET":
        # A POST whose answer was lost may have been recorded: never send it again blind.
        return None
    if answer.lost is not None:
        return 0.0  # a lookup is safe to repeat at once
    if answer.status >= 500:
        return BACKOFF_S
    return None  # a 2xx, or a 4xx refusal: the same request gets the same answer


def call(method, path, body=None):
    """Send a request, retrying it where that is safe: at most MAX_ATTEMPTS in all."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        answer = send(method, path, body)
        wait = retry_wait(method, answer)
        if wait is None or attempt == MAX_ATTEMPTS:
            return answer
        print(f"  retrying in {wait:.1f} s ({answer})", file=sys.stderr)
        time.sleep(wait)
    return answer


def require_2xx(what, answer):
    """Advanced flow: a failed call (non-2xx or no answer) stops the flow."""
    if not answer.ok():
        raise Finished("rejected", message=f"{what} failed: {answer}")


def require_list(what, answer):
    if not isinstance(answer.body, list):
        raise Finished("rejected", message=f"{what}: answer is not a JSON array")
    return answer.body


def require_id(what, obj):
    if not isinstance(obj, dict) or not obj.get("id"):
        raise Finished("rejected", message=f"{what}: answer has no id")
    return str(obj["id"])


def unknown(answer):
    """The payment's answer was lost: it may be recorded or not. Never resend it; say so."""
    return Finished("unknown", message=f"the payment may or may not be recorded ({answer}): look it up before charging again")


def advanced():
    # Advanced rule 1: first query rental companies by the owner's kennitala.
    # Query values are URL-encoded.
    answer = call("GET", f"/rental-companies?kennitala={quote(OWNER, safe='')}")
    require_2xx("rental company lookup", answer)
    companies = require_list("rental company lookup", answer)
    # Advanced rule 2: empty list -> owner not part of the service; no further call.
    if not companies:
        raise Finished("skipped", message=f"owner {OWNER} is not part of the service")
    company_id = require_id("rental company lookup", companies[0])

    # Advanced rule 3: query active vehicles by plate.
    def look_up_vehicle():
        answer = call("GET", f"/vehicles?plate={quote(PLATE, safe='')}")
        require_2xx("vehicle lookup", answer)
        return require_list("vehicle lookup", answer)

    vehicles = look_up_vehicle()
    if not vehicles:
        # Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
        vehicle = {"plate": PLATE, "country": "is"}
        answer = call("POST", "/vehicles", vehicle)
        if answer.ambiguous():
            # The vehicle may exist now: look before creating it again, or it exists twice.
            vehicles = look_up_vehicle()
            if not vehicles:
                answer = call("POST", "/vehicles", vehicle)
        if vehicles:
            vehicle_id = require_id("vehicle lookup", vehicles[0])
        else:
            require_2xx("vehicle creation", answer)
            vehicle_id = require_id("vehicle creation", answer.body)
        # acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
        acquired_on = REGISTRATION_DATE
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", acquired_on):
            acquired_on += " 00:00:00"
        answer = call("POST", "/custodians", {
            "vehicleId": vehicle_id, "rentalCompanyId": company_id, "acquiredOn": acquired_on,
        })
        # A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
        require_2xx("custodian creation", answer)
    else:
        # Advanced rule 5: a vehicle is returned -> use its id (first element of the list).
        vehicle_id = require_id("vehicle lookup", vehicles[0])

    # Advanced rule 6: create the payment for that vehicle (the last call).
    answer = call("POST", "/payments", {
        "locationId": LOCATION_ID,
        "vehicleId": vehicle_id,
        "amount": {"amount": AMOUNT, "currency": CURRENCY},
        "startedOn": VISIT_START,
        "endedOn": VISIT_END,  # as given; may equal startedOn
        "status": "new",
    })
    if answer.ambiguous():
        raise unknown(answer)
    require_2xx("payment creation", answer)
    raise Finished("paid", payment_id=require_id("payment creation", answer.body))


def simple():
    # Simple rule 1: one request carrying all payment and vehicle data.
    answer = call("POST", "/payment", {
        "location": LOCATION_ID,
        "vehicle": {"owner": OWNER, "plate": PLATE, "acquiredOn": REGISTRATION_DATE},
        "visit": {"startedOn": VISIT_START, "endedOn": VISIT_END},
        "payment": {"amount": AMOUNT, "currency": CURRENCY},
    })
    # Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP
    # status; otherwise the answer's `message` describes the failure.
    body = answer.body if isinstance(answer.body, dict) else {}
    message = body.get("message")
    if body.get("id"):
        raise Finished("paid", payment_id=str(body["id"]), message=message)
    if answer.ambiguous():
        raise unknown(answer)
    raise Finished("rejected", message=str(message) if message else f"answer has no id and no message ({answer})")


def main():
    flows = {"advanced": advanced, "simple": simple}
    if FLOW not in flows:
        die(f"RELAY_FLOW must be 'advanced' or 'simple', got {FLOW!r}")
    try:
        flows[FLOW]()
    except Finished as done:
        result = {"outcome": done.outcome}
        if done.payment_id:
            result["paymentId"] = done.payment_id
        if done.message:
            result["message"] = str(done.message)
        print(f"outcome: {json.dumps(result)}", file=sys.stderr)
        if os.environ.get("RELAY_RESULT_FILE"):
            with open(os.environ["RELAY_RESULT_FILE"], "w", encoding="utf-8") as out:
                json.dump(result, out)
    # Always exit 0: the customer's payment completes whatever the service said.


if __name__ == "__main__":
    main()
