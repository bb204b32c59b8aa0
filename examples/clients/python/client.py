#!/usr/bin/env python3
"""Relay location client: Python 3 with urllib3 (its Retry does the retrying).

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

urllib3 (1.26 or 2.x; Debian: python3-urllib3) counts the attempts and waits
the Retry-After; the two Retry policies below say which failures it may retry.
"""
import http.client
import json
import logging
import os
import re
import sys
from urllib.parse import quote

import urllib3
from urllib3.exceptions import HTTPError, InvalidHeader, MaxRetryError, ResponseError
from urllib3.util.retry import Retry


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

# urllib3 logs each attempt ("GET /vehicles?plate=AB123 HTTP/1.1" 200 57) and each retry.
logging.basicConfig(stream=sys.stderr, format="  %(message)s")
logging.getLogger("urllib3").setLevel(logging.DEBUG)


# Each request gives up after RELAY_REQUEST_TIMEOUT_MS (the runner sets it; 5 s otherwise).
# urllib3 applies it to the connection and to each wait for bytes, which ends a request that gets
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


class RelayRetry(Retry):
    """urllib3's Retry, with three of its choices made for this service."""

    # A 413 is a refusal, whatever it says about waiting: only a 429 or 503 asks to come back.
    RETRY_AFTER_STATUS_CODES = frozenset({429, 503})

    def get_backoff_time(self):
        # urllib3 sends the first retry at once; after a 5xx (or 408) wait BACKOFF_S every time.
        # After no answer at all (no status), a lookup may go again at once.
        return 0 if self.history[-1].status is None else BACKOFF_S

    def get_retry_after(self, response):
        try:
            return super().get_retry_after(response)
        except InvalidHeader:
            return None  # unreadable: wait as after any other 5xx

    def increment(self, method=None, url=None, response=None, *args, **kwargs):
        wait = self.get_retry_after(response) if response is not None else None
        if wait is not None and wait > MAX_RETRY_AFTER_S:
            # urllib3 then hands back this answer (raise_on_status=False) instead of waiting.
            raise MaxRetryError(None, url, ResponseError(f"Retry-After {wait:.0f} s is too long to wait"))
        return super().increment(method, url, response, *args, **kwargs)


# A lookup is safe to repeat: after no answer, its own timeout, a cut-off answer, a 5xx or a 408,
# and after a 429 or 503 once its Retry-After has passed.
LOOKUP_RETRY = RelayRetry(
    total=MAX_ATTEMPTS - 1, allowed_methods={"GET"}, raise_on_status=False,
    status_forcelist={408, 429, 500, 502, 503, 504},
)
# A POST only where the answer says nothing was done (408, 429, 503). After no answer or a
# cut-off one (read=False) it may have been recorded: urllib3 hands the error back at once.
CREATE_RETRY = RelayRetry(
    total=MAX_ATTEMPTS - 1, read=False, allowed_methods={"POST"}, raise_on_status=False,
    status_forcelist={408, 429, 503},
)
HTTP = urllib3.PoolManager(timeout=urllib3.Timeout(connect=TIMEOUT_S, read=TIMEOUT_S))


class Finished(Exception):
    """Raised to end the flow with an outcome (paid | skipped | rejected | unknown)."""

    def __init__(self, outcome, payment_id=None, message=None):
        super().__init__(outcome)
        self.outcome, self.payment_id, self.message = outcome, payment_id, message


class Answer:
    """What one request came to: an answer the client could read, or none (`lost` says why)."""

    def __init__(self, status=0, body=None, lost=None):
        self.status, self.body, self.lost = status, body, lost

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


class UnreadableAnswer(HTTPError):
    """A 2xx whose body is not JSON (a proxy's page): it tells the client nothing, like no answer."""


def why_lost(error):
    """Why a request got no answer, in a few words."""
    if isinstance(error, MaxRetryError):
        error = error.reason
    if isinstance(error, urllib3.exceptions.TimeoutError):
        return f"no answer within {TIMEOUT_S:g} s"
    if isinstance(error, UnreadableAnswer):
        return str(error)
    if any(isinstance(arg, http.client.IncompleteRead) for arg in getattr(error, "args", ())):
        return "the answer was cut off"
    return f"the connection failed ({error})"


def call(method, path, body=None):
    """One request, with urllib3's retries (3 attempts at most). The body is read on every status
    (simple rule: key on `id`, not on the status).
    """
    retries = LOOKUP_RETRY if method == "GET" else CREATE_RETRY
    headers = {"Authorization": f"Bearer {TOKEN}"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    while True:
        try:
            response = HTTP.request(method, BASE_URL + path, body=data, headers=headers, retries=retries)
            try:
                parsed = json.loads(response.data) if response.data else None
            except ValueError:
                if not 200 <= response.status < 300:
                    parsed = None  # an error page that is not JSON: the status still says what happened
                else:
                    error = UnreadableAnswer(f"HTTP {response.status} with a body that is not JSON")
                    if method != "GET":
                        raise error
                    # One more failed attempt of the same budget: urllib3 cannot see it by the status.
                    retries = response.retries.increment(method, path, error=error)
                    continue
        except HTTPError as error:  # MaxRetryError, or a POST's lost answer handed back at once
            answer = Answer(lost=why_lost(error))
        else:
            answer = Answer(response.status, parsed)
        print(f"{method} {path} -> {answer.lost or answer.status}", file=sys.stderr)
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
