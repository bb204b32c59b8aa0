// Relay location client: Go on net/http, the standard library and nothing else (Go 1.19 or later).
// Build and run: go build -o relay-client . && ./relay-client (or go run .)
//
// Reports one visit's payment to the relay service using the flow named by RELAY_FLOW (advanced |
// simple). Inputs come from the RELAY_* environment variables set by `relay-mock conform`; the
// outcome goes to RELAY_RESULT_FILE. Exit status is 0 whatever the service answers: the customer's
// payment completes even when the owner is unknown or the service refuses. Only a missing or invalid
// configuration (a runner bug) exits 2.
//
// When the service fails (docs/http-libraries.md, "Go"): every request gives up after
// RELAY_REQUEST_TIMEOUT_MS; a 503 or 429 is sent again once its Retry-After has passed (seconds or an
// HTTP-date; longer than 10 s: give up); a lookup (GET) also after no answer, its own timeout or an
// unreadable 2xx (at once) and after a 5xx (0.6 s later); 3 attempts in all. A POST whose answer
// was lost (no answer, a timeout, 500/502/504, a cut-off or non-JSON 2xx) may have been recorded, so
// it is never sent again blind: the vehicle is looked up first, and a payment is reported `unknown`.
//
// net/http's Transport sends a GET again by itself, at once, on a new connection, when a kept-alive
// connection fails before the answer's first byte. That resend reaches the service like any attempt,
// so each connection a request takes counts as one of the 3 (see countConnections).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	maxAttempts   = 3
	backoff       = 600 * time.Millisecond // before a retry after a 5xx that named no Retry-After: at least 500 ms
	maxRetryAfter = 10 * time.Second       // a longer wait keeps the customer standing there
	maxBodyBytes  = 1 << 20                // the service's answers are small: more is not its answer
)

// env reads a variable the runner must set; a missing one is a configuration error (exit 2).
func env(name string) string {
	value := os.Getenv(name)
	if value == "" {
		die(name + " is not set")
	}
	return value
}

func die(message string) {
	fmt.Fprintln(os.Stderr, message)
	os.Exit(2)
}

var (
	baseURL = strings.TrimRight(env("RELAY_BASE_URL"), "/")
	token   = env("RELAY_API_TOKEN")
	timeout = timeoutFromEnv()
	owner   = env("RELAY_OWNER_KENNITALA")
	plate   = env("RELAY_PLATE")

	// One client for the whole visit, its connections kept alive between requests. Every limit is set:
	// the zero values of net/http wait forever.
	client = &http.Client{
		Timeout: timeout, // the whole exchange, the body's last byte included (a hung or cut-off answer)
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   timeout,
			ResponseHeaderTimeout: timeout,
			ExpectContinueTimeout: time.Second,
			MaxIdleConnsPerHost:   2,
			// Shorter than a server's usual keep-alive (60 s and more): a connection the server is about to
			// close is not picked up, so fewer requests meet a closed one and get resent by the Transport.
			IdleConnTimeout: 30 * time.Second,
		},
		// The interface answers no redirect: one is not followed blind (a POST would become a GET).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
)

func timeoutFromEnv() time.Duration {
	value := os.Getenv("RELAY_REQUEST_TIMEOUT_MS")
	if value == "" {
		return 5 * time.Second
	}
	ms, err := strconv.ParseInt(value, 10, 64)
	if err != nil || ms <= 0 {
		die("RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds")
	}
	return time.Duration(ms) * time.Millisecond
}

// answer is what one request came to: a status and a body the client could read, or none (lost, with why).
type answer struct {
	status     int
	body       interface{}
	lost       string
	retryAfter time.Duration // -1 when there was none, or it could not be read
}

func (a answer) ok() bool { return a.lost == "" && a.status >= 200 && a.status < 300 }

// ambiguous: the service may have done the request (no readable answer, or a 500, 502 or 504).
func (a answer) ambiguous() bool {
	return a.lost != "" || a.status == 500 || a.status == 502 || a.status == 504
}

func (a answer) said() string {
	if a.lost != "" {
		return a.lost
	}
	if message := messageOf(a.body); message != "" {
		return fmt.Sprintf("HTTP %d: %s", a.status, message)
	}
	return fmt.Sprintf("HTTP %d", a.status)
}

func lost(why string) answer { return answer{lost: why, retryAfter: -1} }

// countConnections counts, in *n, the connections a request takes: one per attempt that reached the
// service, the Transport's own resend included (it takes a new connection).
func countConnections(ctx context.Context, n *int) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { *n++ }})
}

// attempt sends the request once (as net/http sends it: once more by itself after a kept-alive
// connection failed, which *sent counts). A 2xx whose body is cut off or not JSON tells nothing: lost.
func attempt(method, path string, body []byte, sent *int) answer {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	request, err := http.NewRequestWithContext(countConnections(context.Background(), sent), method, baseURL+path, reader)
	if err != nil {
		die(fmt.Sprintf("RELAY_BASE_URL cannot make a request URL: %v", err))
	}
	request.Header.Set("Authorization", "Bearer "+token)
	request.Header.Set("Accept", "application/json")
	if body != nil {
		request.Header.Set("Content-Type", "application/json")
	}
	response, err := client.Do(request)
	if err != nil {
		var netErr net.Error
		if errors.As(err, &netErr) && netErr.Timeout() {
			return lost(fmt.Sprintf("no answer within %d ms", timeout.Milliseconds()))
		}
		return lost(fmt.Sprintf("the connection failed (%v)", err))
	}
	defer response.Body.Close()
	text, err := io.ReadAll(io.LimitReader(response.Body, maxBodyBytes))
	if err != nil {
		// Its head came, its body did not, whole: as good as no answer (a 2xx may have been done).
		return lost(fmt.Sprintf("HTTP %d, its body cut off (%v)", response.StatusCode, err))
	}
	got := answer{status: response.StatusCode, retryAfter: retryAfter(response.Header.Get("Retry-After"))}
	if len(bytes.TrimSpace(text)) == 0 {
		return got
	}
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber() // ids and amounts as they came
	if err := decoder.Decode(&got.body); err != nil || decoder.More() {
		if got.ok() {
			return lost(fmt.Sprintf("HTTP %d with a body that is not JSON", response.StatusCode))
		}
		got.body = nil // an error page: the status still says what happened
	}
	return got
}

// retryAfter reads Retry-After: seconds, or an HTTP-date from now; -1 when there is none or it is unreadable.
func retryAfter(value string) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return -1
	}
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(seconds) * time.Second
	}
	if date, err := http.ParseTime(value); err == nil {
		if wait := time.Until(date); wait > 0 {
			return wait
		}
		return 0
	}
	return -1
}

// waitBeforeRetry is the wait before the next attempt, or -1 to stop. A POST goes again only where the
// answer says nothing was done (408, 429, 503); a GET also after no answer or a 5xx.
func waitBeforeRetry(method string, a answer) time.Duration {
	if a.lost == "" && (a.status == 429 || a.status == 503) {
		wait := a.retryAfter
		if wait < 0 {
			wait = backoff
		}
		if wait > maxRetryAfter {
			return -1
		}
		return wait + 100*time.Millisecond // a little past it: clocks differ, and an HTTP-date has whole seconds
	}
	if a.lost == "" && a.status == 408 {
		return backoff
	}
	if method != http.MethodGet {
		return -1
	}
	if a.lost != "" {
		return 0
	}
	if a.status >= 500 {
		return backoff
	}
	return -1
}

// call sends one request with its retries: at most maxAttempts reach the service, however many of them
// net/http sent by itself.
func call(method, path string, body interface{}) answer {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			die(fmt.Sprintf("cannot write %s %s as JSON: %v", method, path, err))
		}
	}
	sent := 0
	got := attempt(method, path, payload, &sent)
	for sent < maxAttempts {
		wait := waitBeforeRetry(method, got)
		if wait < 0 {
			break
		}
		fmt.Fprintf(os.Stderr, "  retrying %s %s in %d ms after: %s\n", method, path, wait.Milliseconds(), got.said())
		time.Sleep(wait)
		got = attempt(method, path, payload, &sent)
	}
	outcome := got.lost
	if outcome == "" {
		outcome = strconv.Itoa(got.status)
	}
	fmt.Fprintf(os.Stderr, "%s %s -> %s (%d attempts)\n", method, path, outcome, sent)
	return got
}

// finished ends the flow with an outcome: what RELAY_RESULT_FILE gets.
type finished struct {
	Outcome   string `json:"outcome"`
	PaymentID string `json:"paymentId,omitempty"`
	Message   string `json:"message,omitempty"`
}

func idOf(value interface{}) string {
	record, _ := value.(map[string]interface{})
	switch id := record["id"].(type) {
	case string:
		return id
	case json.Number:
		return id.String()
	}
	return ""
}

func messageOf(value interface{}) string {
	record, _ := value.(map[string]interface{})
	message, _ := record["message"].(string)
	return message
}

func require2xx(what string, a answer) *finished {
	if !a.ok() {
		return &finished{Outcome: "rejected", Message: what + " failed: " + a.said()}
	}
	return nil
}

func requireList(what string, a answer) ([]interface{}, *finished) {
	if done := require2xx(what, a); done != nil {
		return nil, done
	}
	list, isList := a.body.([]interface{})
	if !isList {
		return nil, &finished{Outcome: "rejected", Message: what + ": the answer is not a list"}
	}
	return list, nil
}

func requireID(what string, value interface{}) (string, *finished) {
	if id := idOf(value); id != "" {
		return id, nil
	}
	return "", &finished{Outcome: "rejected", Message: what + ": the answer has no id"}
}

func unknown(a answer) *finished {
	return &finished{Outcome: "unknown", Message: "the payment may or may not be recorded (" + a.said() + "): look it up before charging again"}
}

func amount() int64 {
	value, err := strconv.ParseInt(env("RELAY_AMOUNT"), 10, 64)
	if err != nil {
		die("RELAY_AMOUNT must be an integer")
	}
	return value // sent as a JSON number, never a string
}

type object = map[string]interface{}

func lookUpVehicle() ([]interface{}, *finished) {
	return requireList("vehicle lookup", call(http.MethodGet, "/vehicles?plate="+url.QueryEscape(plate), nil))
}

var day = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func advanced() *finished {
	// Advanced rule 1: first query rental companies by the owner's kennitala.
	companies, done := requireList("rental company lookup", call(http.MethodGet, "/rental-companies?kennitala="+url.QueryEscape(owner), nil))
	if done != nil {
		return done
	}
	// Advanced rule 2: an empty list: the owner is not part of the service; no further call.
	if len(companies) == 0 {
		return &finished{Outcome: "skipped", Message: "owner " + owner + " is not part of the service"}
	}
	companyID, done := requireID("rental company lookup", companies[0])
	if done != nil {
		return done
	}

	// Advanced rule 3: query active vehicles by plate.
	vehicles, done := lookUpVehicle()
	if done != nil {
		return done
	}
	var vehicleID string
	if len(vehicles) == 0 {
		// Advanced rule 4: no vehicle: create it, then a custodian linking it to the company.
		vehicle := object{"plate": plate, "country": "is"}
		created := call(http.MethodPost, "/vehicles", vehicle)
		if created.ambiguous() {
			// The vehicle may exist now: look before creating it again, or it exists twice.
			if vehicles, done = lookUpVehicle(); done != nil {
				return done
			}
			if len(vehicles) == 0 {
				created = call(http.MethodPost, "/vehicles", vehicle)
			}
		}
		if len(vehicles) > 0 {
			vehicleID, done = requireID("vehicle lookup", vehicles[0])
		} else if done = require2xx("vehicle creation", created); done == nil {
			vehicleID, done = requireID("vehicle creation", created.body)
		}
		if done != nil {
			return done
		}
		acquiredOn := env("RELAY_REGISTRATION_DATE")
		if day.MatchString(acquiredOn) {
			acquiredOn += " 00:00:00"
		}
		linked := call(http.MethodPost, "/custodians", object{"vehicleId": vehicleID, "rentalCompanyId": companyID, "acquiredOn": acquiredOn})
		// A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
		if done = require2xx("custodian creation", linked); done != nil {
			return done
		}
	} else {
		// Advanced rule 5: a vehicle is returned: use its id (first element of the list).
		if vehicleID, done = requireID("vehicle lookup", vehicles[0]); done != nil {
			return done
		}
	}

	// Advanced rule 6: create the payment for that vehicle (the last call).
	paid := call(http.MethodPost, "/payments", object{
		"locationId": env("RELAY_LOCATION_ID"),
		"vehicleId":  vehicleID,
		"amount":     object{"amount": amount(), "currency": env("RELAY_CURRENCY")},
		"startedOn":  env("RELAY_VISIT_START"),
		"endedOn":    env("RELAY_VISIT_END"),
		"status":     "new",
	})
	if paid.ambiguous() {
		return unknown(paid)
	}
	if done = require2xx("payment creation", paid); done != nil {
		return done
	}
	paymentID, done := requireID("payment creation", paid.body)
	if done != nil {
		return done
	}
	return &finished{Outcome: "paid", PaymentID: paymentID}
}

func simple() *finished {
	// Simple rule 1: one request carrying all payment and vehicle data.
	paid := call(http.MethodPost, "/payment", object{
		"location": env("RELAY_LOCATION_ID"),
		"vehicle":  object{"owner": owner, "plate": plate, "acquiredOn": env("RELAY_REGISTRATION_DATE")},
		"visit":    object{"startedOn": env("RELAY_VISIT_START"), "endedOn": env("RELAY_VISIT_END")},
		"payment":  object{"amount": amount(), "currency": env("RELAY_CURRENCY")},
	})
	// Simple rules 1-2: accepted iff the answer has an id, whatever the status; else its message says why.
	var body interface{}
	if paid.lost == "" {
		body = paid.body
	}
	if id := idOf(body); id != "" {
		return &finished{Outcome: "paid", PaymentID: id, Message: messageOf(body)}
	}
	if paid.ambiguous() {
		return unknown(paid)
	}
	if message := messageOf(body); message != "" {
		return &finished{Outcome: "rejected", Message: message}
	}
	return &finished{Outcome: "rejected", Message: "the answer has no id and no message (" + paid.said() + ")"}
}

func main() {
	var done *finished
	switch flow := env("RELAY_FLOW"); flow {
	case "advanced":
		done = advanced()
	case "simple":
		done = simple()
	default:
		die("RELAY_FLOW must be 'advanced' or 'simple', got '" + flow + "'")
	}
	result, err := json.Marshal(done)
	if err != nil {
		die(fmt.Sprintf("cannot write the outcome as JSON: %v", err))
	}
	fmt.Fprintf(os.Stderr, "outcome: %s\n", result)
	if file := os.Getenv("RELAY_RESULT_FILE"); file != "" {
		if err := os.WriteFile(file, result, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "cannot write RELAY_RESULT_FILE: %v\n", err)
		}
	}
	// Exit 0 whatever the service said: the customer's payment completes.
}
