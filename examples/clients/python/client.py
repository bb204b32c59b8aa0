#!/usr/bin/env python3
"""Relay location client: Python 3 standard library only.

Reports one visit's payment to the relay service using the flow named by
RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.

Exit status is 0 whatever the service answers: the customer's payment
completes even when the owner is unknown or the service refuses. Only a
missing/invalid configuration (a runner bug) exits non-zero.
"""
import json
import os
import re
import sys
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


class Finished(Exception):
    """Raised to end the flow with an outcome (paid | skipped | rejected)."""

    def __init__(self, outcome, payment_id=None, message=None):
        super().__init__(outcome)
        self.outcome, self.payment_id, self.message = outcome, payment_id, message


def call(method, path, body=None):
    """Make one request; return (status, parsed JSON or None).

    The body is read on every status (simple rule: key on `id`, not on the
    status). A network error is reported as status 0 with the error text.
    """
    headers = {"Authorization": f"Bearer {TOKEN}"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:  # 4xx/5xx: still read the answer
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError) as error:
        print(f"{method} {path} -> network error: {error}", file=sys.stderr)
        return 0, str(error)
    print(f"{method} {path} -> {status}", file=sys.stderr)
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, None


def require_2xx(what, status, answer):
    """Advanced flow: a failed call (non-2xx or network) stops the flow."""
    if 200 <= status < 300:
        return
    if status == 0:
        raise Finished("rejected", message=f"{what} failed: network error: {answer}")
    detail = answer.get("message") if isinstance(answer, dict) else None
    raise Finished("rejected", message=f"{what} failed: HTTP {status}" + (f": {detail}" if detail else ""))


def require_list(what, answer):
    if not isinstance(answer, list):
        raise Finished("rejected", message=f"{what}: answer is not a JSON array")
    return answer


def require_id(what, obj):
    if not isinstance(obj, dict) or not obj.get("id"):
        raise Finished("rejected", message=f"{what}: answer has no id")
    return str(obj["id"])


def advanced():
    # Advanced rule 1: first query rental companies by the owner's kennitala.
    # Query values are URL-encoded.
    status, answer = call("GET", f"/rental-companies?kennitala={quote(OWNER, safe='')}")
    require_2xx("rental company lookup", status, answer)
    companies = require_list("rental company lookup", answer)
    # Advanced rule 2: empty list -> owner not part of the service; no further call.
    if not companies:
        raise Finished("skipped", message=f"owner {OWNER} is not part of the service")
    company_id = require_id("rental company lookup", companies[0])

    # Advanced rule 3: query active vehicles by plate.
    status, answer = call("GET", f"/vehicles?plate={quote(PLATE, safe='')}")
    require_2xx("vehicle lookup", status, answer)
    vehicles = require_list("vehicle lookup", answer)

    if not vehicles:
        # Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
        status, answer = call("POST", "/vehicles", {"plate": PLATE, "country": "is"})
        require_2xx("vehicle creation", status, answer)
        vehicle_id = require_id("vehicle creation", answer)
        # acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
        acquired_on = REGISTRATION_DATE
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", acquired_on):
            acquired_on += " 00:00:00"
        status, answer = call("POST", "/custodians", {
            "vehicleId": vehicle_id, "rentalCompanyId": company_id, "acquiredOn": acquired_on,
        })
        require_2xx("custodian creation", status, answer)
    else:
        # Advanced rule 5: a vehicle is returned -> use its id (first element of the list).
        vehicle_id = require_id("vehicle lookup", vehicles[0])

    # Advanced rule 6: create the payment for that vehicle (the last call).
    status, answer = call("POST", "/payments", {
        "locationId": LOCATION_ID,
        "vehicleId": vehicle_id,
        "amount": {"amount": AMOUNT, "currency": CURRENCY},
        "startedOn": VISIT_START,
        "endedOn": VISIT_END,  # as given; may equal startedOn
        "status": "new",
    })
    require_2xx("payment creation", status, answer)
    raise Finished("paid", payment_id=require_id("payment creation", answer))


def simple():
    # Simple rule 1: one request carrying all payment and vehicle data.
    status, answer = call("POST", "/payment", {
        "location": LOCATION_ID,
        "vehicle": {"owner": OWNER, "plate": PLATE, "acquiredOn": REGISTRATION_DATE},
        "visit": {"startedOn": VISIT_START, "endedOn": VISIT_END},
        "payment": {"amount": AMOUNT, "currency": CURRENCY},
    })
    if status == 0:
        raise Finished("rejected", message=f"network error: {answer}")
    # Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP
    # status; otherwise the answer's `message` describes the failure.
    answer = answer if isinstance(answer, dict) else {}
    message = answer.get("message")
    if answer.get("id"):
        raise Finished("paid", payment_id=str(answer["id"]), message=message)
    raise Finished("rejected", message=str(message) if message else f"answer has no id and no message (HTTP {status})")


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
