#!/usr/bin/env python3
"""A location client on requests with urllib3's Retry, as a developer writes it.

`python3 requests_client.py defaults` is the Retry most tutorials mount on a Session
(total=3, a backoff_factor, a status_forcelist of 429 and the 5xx), otherwise at urllib3's
defaults, with only a timeout set; `python3 requests_client.py recipe` is set up as
docs/http-libraries.md says. The flow is the one of flow.mjs (the Node library clients),
written again in Python; only the HTTP layer differs between the two modes.

urllib3's Retry at those settings: 3 retries (4 attempts) of GET, PUT, HEAD, DELETE, OPTIONS
and TRACE after a lost connection, a read timeout or a status of the forcelist, never of POST
(allowed_methods); the first retry at once, then backoff_factor * 2^(n-1) s; the Retry-After of a
413, 429 or 503 is waited out (respect_retry_after_header). requests reads the body after Retry is
done with the request: a body cut off halfway is an error that Retry never sees.
"""
import json
import os
import sys
from urllib.parse import quote

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, ResponseError
from urllib3.util.retry import Retry


def die(message):
    print(message, file=sys.stderr)
    sys.exit(2)


MODE = sys.argv[1] if len(sys.argv) > 1 else "defaults"
if MODE not in ("defaults", "recipe"):
    die(f'Expected the mode "defaults" or "recipe" as the first argument, got "{MODE}"')
BASE_URL = os.environ["RELAY_BASE_URL"].rstrip("/")
TOKEN = os.environ["RELAY_API_TOKEN"]
VISIT = json.loads(os.environ["RELAY_VISIT"])
try:
    TIMEOUT_S = int(os.environ.get("RELAY_REQUEST_TIMEOUT_MS") or 5000) / 1000
except ValueError:
    TIMEOUT_S = 0
if TIMEOUT_S <= 0:
    die("RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds")


def session_with(retry):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {TOKEN}"
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


MAX_RETRY_AFTER_S = 10  # a longer wait keeps the customer standing there: give up instead


class RecipeRetry(Retry):
    """urllib3's Retry with two of its choices changed for a visit that has a customer waiting."""

    def get_backoff_time(self):
        # urllib3 sends the first retry at once whatever backoff_factor says: after a 5xx, wait too.
        return max(0.6, super().get_backoff_time())

    def increment(self, method=None, url=None, response=None, *args, **kwargs):
        # A Retry-After too long to wait gives up (urllib3 then hands this answer back, raise_on_status=False).
        # Not retry_after_max: that shortens the wait and retries before the time the service asked for.
        wait = self.get_retry_after(response) if response is not None else None
        if wait is not None and wait > MAX_RETRY_AFTER_S:
            raise MaxRetryError(None, url, ResponseError(f"Retry-After {wait:.0f} s is too long to wait"))
        return super().increment(method, url, response, *args, **kwargs)


if MODE == "defaults":
    SESSION = session_with(Retry(total=3, backoff_factor=0.5, status_forcelist=[429, 500, 502, 503, 504]))
    SESSIONS = {"GET": SESSION, "POST": SESSION}
else:
    SESSIONS = {
        # A lookup after a lost connection, a timeout or a 5xx (0.6 s, then 1.2 s), or a 429 or 503 once
        # its Retry-After has passed; 3 attempts in all.
        "GET": session_with(RecipeRetry(total=2, backoff_factor=0.6, status_forcelist=[429, 500, 502, 503, 504], raise_on_status=False)),
        # A POST only where the answer says nothing was done (429, 503). After a lost answer (read=False)
        # it may have been recorded: urllib3 hands the error back at once.
        "POST": session_with(RecipeRetry(total=2, read=False, allowed_methods={"POST"}, status_forcelist=[429, 503], raise_on_status=False)),
    }
UNREADABLE_RETRIES = 2 if MODE == "recipe" else 0


def to_answer(status, text):
    """(status, body) or None for a 2xx that is not JSON (a proxy's page): as good as no answer."""
    try:
        return {"status": status, "body": json.loads(text) if text else None}
    except ValueError:
        return None if 200 <= status < 300 else {"status": status, "body": None}


def send(method, path, body=None):
    """One request, with the session's retries; {"lost": why} when no answer came that can be read."""
    for attempt in range(1 + (UNREADABLE_RETRIES if method == "GET" else 0)):
        try:
            response = SESSIONS[method].request(method, BASE_URL + path, json=body, timeout=TIMEOUT_S)
        except requests.exceptions.Timeout:
            answer = {"lost": f"no answer within {TIMEOUT_S:g} s"}
            break
        except requests.exceptions.ChunkedEncodingError as error:
            # The body was cut off: Retry was done with the request before requests read it.
            answer = {"lost": f"the answer was cut off ({error})"}
            continue
        except requests.exceptions.RequestException as error:
            answer = {"lost": f"the connection failed ({error})"}
            break
        read = to_answer(response.status_code, response.text)
        if read is None:
            answer = {"lost": f"HTTP {response.status_code} with a body that is not JSON"}
            continue
        answer = read
        break
    print(f"{method} {path} -> {answer.get('lost') or answer['status']}", file=sys.stderr)
    return answer


class Finished(Exception):
    def __init__(self, outcome, payment_id=None, message=None):
        super().__init__(outcome)
        self.result = {"outcome": outcome}
        if payment_id:
            self.result["paymentId"] = payment_id
        if message:
            self.result["message"] = message


def id_of(value):
    return str(value["id"]) if isinstance(value, dict) and value.get("id") not in (None, "") else None


def message_of(value):
    return value["message"] if isinstance(value, dict) and isinstance(value.get("message"), str) and value["message"] else None


def ok(answer):
    return "lost" not in answer and 200 <= answer["status"] < 300


def ambiguous(answer):
    """The service may have done the request: no readable answer, or a 500, 502 or 504."""
    return "lost" in answer or answer["status"] in (500, 502, 504)


def said(answer):
    if "lost" in answer:
        return answer["lost"]
    message = message_of(answer["body"])
    return f"HTTP {answer['status']}" + (f": {message}" if message else "")


def require_2xx(what, answer):
    if not ok(answer):
        raise Finished("rejected", message=f"{what} failed: {said(answer)}")


def require_list(what, answer):
    if not isinstance(answer["body"], list):
        raise Finished("rejected", message=f"{what}: the answer is not a list")
    return answer["body"]


def require_id(what, value):
    found = id_of(value)
    if not found:
        raise Finished("rejected", message=f"{what}: the answer has no id")
    return found


def unknown(answer):
    return Finished("unknown", message=f"the payment may or may not be recorded ({said(answer)}): look it up before charging again")


def advanced():
    answer = send("GET", f"/rental-companies?kennitala={quote(VISIT['ownerKennitala'], safe='')}")
    require_2xx("rental company lookup", answer)
    companies = require_list("rental company lookup", answer)
    if not companies:
        raise Finished("skipped", message=f"owner {VISIT['ownerKennitala']} is not part of the service")
    company_id = require_id("rental company lookup", companies[0])

    def look_up_vehicle():
        found = send("GET", f"/vehicles?plate={quote(VISIT['plate'], safe='')}")
        require_2xx("vehicle lookup", found)
        return require_list("vehicle lookup", found)

    vehicles = look_up_vehicle()
    if not vehicles:
        vehicle = {"plate": VISIT["plate"], "country": "is"}
        answer = send("POST", "/vehicles", vehicle)
        if ambiguous(answer):
            # The vehicle may exist now: look before creating it again.
            vehicles = look_up_vehicle()
            if not vehicles:
                answer = send("POST", "/vehicles", vehicle)
        if vehicles:
            vehicle_id = require_id("vehicle lookup", vehicles[0])
        else:
            require_2xx("vehicle creation", answer)
            vehicle_id = require_id("vehicle creation", answer["body"])
        answer = send("POST", "/custodians", {
            "vehicleId": vehicle_id, "rentalCompanyId": company_id, "acquiredOn": f"{VISIT['registrationDate']} 00:00:00",
        })
        require_2xx("custodian creation", answer)
    else:
        vehicle_id = require_id("vehicle lookup", vehicles[0])

    answer = send("POST", "/payments", {
        "locationId": VISIT["locationId"],
        "vehicleId": vehicle_id,
        "amount": {"amount": VISIT["amount"], "currency": VISIT["currency"]},
        "startedOn": VISIT["visitStart"],
        "endedOn": VISIT["visitEnd"],
        "status": "new",
    })
    if ambiguous(answer):
        raise unknown(answer)
    require_2xx("payment creation", answer)
    raise Finished("paid", payment_id=require_id("payment creation", answer["body"]))


def simple():
    answer = send("POST", "/payment", {
        "location": VISIT["locationId"],
        "vehicle": {"owner": VISIT["ownerKennitala"], "plate": VISIT["plate"], "acquiredOn": VISIT["registrationDate"]},
        "visit": {"startedOn": VISIT["visitStart"], "endedOn": VISIT["visitEnd"]},
        "payment": {"amount": VISIT["amount"], "currency": VISIT["currency"]},
    })
    # Accepted iff the answer carries an id, whatever the status; otherwise its message says why.
    body = None if "lost" in answer else answer["body"]
    if id_of(body):
        raise Finished("paid", payment_id=id_of(body))
    if ambiguous(answer):
        raise unknown(answer)
    raise Finished("rejected", message=message_of(body) or f"the answer has no id and no message ({said(answer)})")


def main():
    try:
        simple() if VISIT["flow"] == "simple" else advanced()
    except Finished as done:
        print(f"outcome: {json.dumps(done.result)}", file=sys.stderr)
        if os.environ.get("RELAY_RESULT_FILE"):
            with open(os.environ["RELAY_RESULT_FILE"], "w", encoding="utf-8") as out:
                json.dump(done.result, out)
    # Exit 0 whatever the service said: the customer's payment completes.


if __name__ == "__main__":
    main()
