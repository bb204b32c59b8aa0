<?php
// Relay location client: PHP 8.2 on Guzzle 7 (its retry middleware does the retrying).
// Run: php client.php (Guzzle from Composer's vendor/ beside this file, or Debian's php-guzzlehttp-guzzle)
//
// Reports one visit's payment to the relay service using the flow named by RELAY_FLOW (advanced |
// simple). Inputs come from the RELAY_* environment variables set by `relay-mock conform`; the outcome
// goes to RELAY_RESULT_FILE. Exit status is 0 whatever the service answers: the customer's payment
// completes even when the owner is unknown or the service refuses. Only a missing or invalid
// configuration (a runner bug) exits 2.
//
// When the service fails (docs/http-libraries.md, "PHP"): every request gives up after
// RELAY_REQUEST_TIMEOUT_MS; a 503 or 429 is sent again once its Retry-After has passed (seconds or an
// HTTP-date; longer than 10 s: give up); a lookup (GET) also after no answer, its own timeout or an
// unreadable 2xx (at once) and after a 5xx (0.6 s later); 3 attempts in all. A POST whose answer was
// lost (no answer, a timeout, 500/502/504, a cut-off or non-JSON 2xx) may have been recorded, so it is
// never sent again blind: the vehicle is looked up first, and a payment is reported `unknown`.
//
// libcurl, under Guzzle, sends a request again by itself, a POST too, when a kept-alive connection dies
// before the answer: every request here takes a connection of its own (see CURL_NO_REUSE).
declare(strict_types=1);

// Composer's autoloader where `composer install` ran beside this file; else Debian's php-guzzlehttp-guzzle.
if (is_file(__DIR__ . '/vendor/autoload.php')) {
    require __DIR__ . '/vendor/autoload.php';
} elseif (stream_resolve_include_path('GuzzleHttp/autoload.php')) {
    require 'GuzzleHttp/autoload.php';
} else {
    die_config('Guzzle 7 is not installed: run composer install in ' . __DIR__ . ', or apt-get install php-guzzlehttp-guzzle');
}

use GuzzleHttp\Client;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Exception\TransferException;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\TransferStats;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

const MAX_ATTEMPTS = 3;         // at one request, the first included
const BACKOFF_MS = 600;         // before a retry after a 5xx that named no Retry-After: at least 500 ms
const MAX_RETRY_AFTER_MS = 10_000; // a longer wait keeps the customer standing there: give up instead

// libcurl sends a request again by itself, at once and on a new connection, when a reused connection
// dies before any of the answer came: a POST too, so a payment whose answer was lost is paid twice, and
// the retry middleware never hears of it. A connection per request leaves it nothing to reuse.
const CURL_NO_REUSE = [
    CURLOPT_FRESH_CONNECT => true,  // never take a kept-alive connection
    CURLOPT_FORBID_REUSE => true,   // and keep none
];

/** A configuration error (a runner bug, not a service answer): exit 2. */
function die_config(string $message): never
{
    fwrite(STDERR, $message . "\n");
    exit(2);
}

function env(string $name): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        die_config("$name is not set");
    }
    return $value;
}

function timeout_ms(): int
{
    $value = getenv('RELAY_REQUEST_TIMEOUT_MS');
    if ($value === false || $value === '') {
        return 5000;
    }
    if (!ctype_digit($value) || (int) $value <= 0) {
        die_config('RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds');
    }
    return (int) $value;
}

$BASE_URL = rtrim(env('RELAY_BASE_URL'), '/');
$TIMEOUT_MS = timeout_ms();
$OWNER = env('RELAY_OWNER_KENNITALA');
$PLATE = env('RELAY_PLATE');

/** What one request came to: a status and a body the client could read, or none (lost, with why). */
final class Answer
{
    public function __construct(
        public readonly int $status = 0,
        public readonly mixed $body = null,
        public readonly ?string $lost = null,
    ) {
    }

    public function ok(): bool
    {
        return $this->lost === null && $this->status >= 200 && $this->status < 300;
    }

    /** The service may have done the request: no readable answer, or a 500, 502 or 504. */
    public function ambiguous(): bool
    {
        return $this->lost !== null || in_array($this->status, [500, 502, 504], true);
    }

    public function said(): string
    {
        if ($this->lost !== null) {
            return $this->lost;
        }
        $message = message_of($this->body);
        return "HTTP {$this->status}" . ($message !== '' ? ": $message" : '');
    }
}

/** A JSON text as PHP values (objects as stdClass, so that {} and [] stay apart); UNREADABLE when it is not JSON. */
const UNREADABLE = "\0unreadable";
function json_of(string $text): mixed
{
    if (trim($text) === '') {
        return null;
    }
    try {
        return json_decode($text, false, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
    } catch (JsonException) {
        return UNREADABLE;
    }
}

/** A 2xx whose body is not JSON tells nothing: as good as no answer. */
function unreadable_2xx(ResponseInterface $response): bool
{
    $code = $response->getStatusCode();
    return $code >= 200 && $code < 300 && json_of((string) $response->getBody()) === UNREADABLE;
}

/** Retry-After in ms from now (seconds, or an HTTP-date); null when there is none or it cannot be read. */
function retry_after_ms(ResponseInterface $response): ?int
{
    $value = trim($response->getHeaderLine('Retry-After'));
    if ($value === '') {
        return null;
    }
    if (ctype_digit($value)) {
        return (int) $value * 1000;
    }
    $date = DateTimeImmutable::createFromFormat(DATE_RFC7231, $value, new DateTimeZone('UTC'));
    if ($date === false) {
        return null;
    }
    return max(0, (int) round(((float) $date->format('U.u') - microtime(true)) * 1000));
}

/**
 * Guzzle's retry decider: whether the attempt that just ended is sent again. A POST goes again only where
 * the answer says nothing was done (408, 429, 503); a GET also after no answer or a 5xx.
 */
function should_retry(int $retries, RequestInterface $request, ?ResponseInterface $response, ?Throwable $reason): bool
{
    if ($retries + 1 >= MAX_ATTEMPTS) {
        return false;
    }
    $lookup = $request->getMethod() === 'GET';
    if ($response === null) {
        return $lookup; // no answer, its own timeout, a reset, a cut-off body: a POST may have been recorded
    }
    $status = $response->getStatusCode();
    if ($status === 429 || $status === 503) {
        return (retry_after_ms($response) ?? BACKOFF_MS) <= MAX_RETRY_AFTER_MS;
    }
    return $status === 408 || ($lookup && ($status >= 500 || unreadable_2xx($response)));
}

/**
 * Guzzle's retry delay, in ms. It sees no request, and no response after a network error: the decider
 * has already said which method may go again, so the answer alone says how long to wait.
 */
function retry_delay(int $retries, ?ResponseInterface $response): int
{
    if ($response === null) {
        return 0; // a lookup that got no answer: at once
    }
    $status = $response->getStatusCode();
    if ($status === 429 || $status === 503) {
        // A little past it: clocks differ, and an HTTP-date has whole seconds.
        return (retry_after_ms($response) ?? BACKOFF_MS) + 100;
    }
    return $status === 408 || $status >= 500 ? BACKOFF_MS : 0;
}

$stack = HandlerStack::create();
$stack->push(Middleware::retry('should_retry', 'retry_delay'), 'retry');

// One client for the whole visit. Guzzle's defaults that do not fit a payment are each set.
$HTTP = new Client([
    'handler' => $stack,
    'timeout' => $TIMEOUT_MS / 1000,         // the whole attempt; Guzzle's 0 waits forever
    'connect_timeout' => $TIMEOUT_MS / 1000, // 0 leaves libcurl's own (150 s under Guzzle)
    'http_errors' => false,                  // a 4xx or 5xx is an answer to read, not an exception
    'allow_redirects' => false,              // the interface answers no redirect: a POST is never turned into a GET
    'curl' => CURL_NO_REUSE,
    'headers' => ['Authorization' => 'Bearer ' . env('RELAY_API_TOKEN'), 'Accept' => 'application/json'],
    // One line per attempt, the retries included.
    'on_stats' => function (TransferStats $stats): void {
        $request = $stats->getRequest();
        $what = $stats->hasResponse() ? (string) $stats->getResponse()->getStatusCode() : 'no answer (cURL error ' . $stats->getHandlerErrorData() . ')';
        fwrite(STDERR, sprintf("  %s %s -> %s\n", $request->getMethod(), $request->getUri()->getPath(), $what));
    },
]);

/** Sends one request with its retries (Guzzle's middleware); a body goes as JSON (`json` sets its Content-Type). */
function call(string $method, string $path, ?array $body = null): Answer
{
    global $HTTP, $BASE_URL;
    try {
        $answer = answer_of($HTTP->request($method, $BASE_URL . $path, $body === null ? [] : ['json' => $body]));
    } catch (TransferException $error) {
        $answer = new Answer(lost: why_lost($error));
    }
    fwrite(STDERR, sprintf("%s %s -> %s\n", $method, $path, $answer->lost ?? $answer->status));
    return $answer;
}

/** A 2xx counts only with its whole body, as JSON; an error page's status still says what happened. */
function answer_of(ResponseInterface $response): Answer
{
    $status = $response->getStatusCode();
    $body = json_of((string) $response->getBody());
    if ($body !== UNREADABLE) {
        return new Answer($status, $body);
    }
    return $status >= 200 && $status < 300 ? new Answer(lost: "HTTP $status with a body that is not JSON") : new Answer($status);
}

/**
 * Why there is no answer. A ConnectException does not mean the request never reached the service: a
 * timeout (cURL error 28) and an empty reply (52) are ConnectExceptions too. Whatever it was, it is lost.
 */
function why_lost(TransferException $error): string
{
    global $TIMEOUT_MS;
    $errno = $error instanceof RequestException || $error instanceof ConnectException ? ($error->getHandlerContext()['errno'] ?? 0) : 0;
    return $errno === CURLE_OPERATION_TIMEDOUT ? "no answer within $TIMEOUT_MS ms" : 'the connection failed (' . $error->getMessage() . ')';
}

/** The visit's end: what RELAY_RESULT_FILE gets. */
final class Finished extends Exception
{
    public function __construct(public readonly string $outcome, public readonly ?string $paymentId = null, string $message = '')
    {
        parent::__construct($message);
    }
}

function id_of(mixed $value): string
{
    $id = $value instanceof stdClass ? ($value->id ?? null) : null;
    return is_string($id) || is_int($id) ? (string) $id : '';
}

function message_of(mixed $value): string
{
    $message = $value instanceof stdClass ? ($value->message ?? null) : null;
    return is_string($message) ? $message : '';
}

function require_2xx(string $what, Answer $answer): void
{
    if (!$answer->ok()) {
        throw new Finished('rejected', message: "$what failed: " . $answer->said());
    }
}

function require_list(string $what, Answer $answer): array
{
    require_2xx($what, $answer);
    if (!is_array($answer->body)) {
        throw new Finished('rejected', message: "$what: the answer is not a list");
    }
    return $answer->body;
}

function require_id(string $what, mixed $value): string
{
    return id_of($value) !== '' ? id_of($value) : throw new Finished('rejected', message: "$what: the answer has no id");
}

function unknown(Answer $answer): Finished
{
    return new Finished('unknown', message: 'the payment may or may not be recorded (' . $answer->said() . '): look it up before charging again');
}

function amount(): int
{
    $value = env('RELAY_AMOUNT');
    if (preg_match('/^-?\d+$/', $value) !== 1) {
        die_config('RELAY_AMOUNT must be an integer');
    }
    return (int) $value; // sent as a JSON number, never a string
}

function look_up_vehicle(): array
{
    global $PLATE;
    return require_list('vehicle lookup', call('GET', '/vehicles?plate=' . rawurlencode($PLATE)));
}

function advanced(): Finished
{
    global $OWNER, $PLATE;
    // Advanced rule 1: first query rental companies by the owner's kennitala.
    $companies = require_list('rental company lookup', call('GET', '/rental-companies?kennitala=' . rawurlencode($OWNER)));
    // Advanced rule 2: an empty list: the owner is not part of the service; no further call.
    if ($companies === []) {
        return new Finished('skipped', message: "owner $OWNER is not part of the service");
    }
    $companyId = require_id('rental company lookup', $companies[0]);

    // Advanced rule 3: query active vehicles by plate.
    $vehicles = look_up_vehicle();
    if ($vehicles === []) {
        // Advanced rule 4: no vehicle: create it, then a custodian linking it to the company.
        $vehicle = ['plate' => $PLATE, 'country' => 'is'];
        $created = call('POST', '/vehicles', $vehicle);
        if ($created->ambiguous()) {
            // The vehicle may exist now: look before creating it again, or it exists twice.
            $vehicles = look_up_vehicle();
            if ($vehicles === []) {
                $created = call('POST', '/vehicles', $vehicle);
            }
        }
        if ($vehicles !== []) {
            $vehicleId = require_id('vehicle lookup', $vehicles[0]);
        } else {
            require_2xx('vehicle creation', $created);
            $vehicleId = require_id('vehicle creation', $created->body);
        }
        $acquiredOn = env('RELAY_REGISTRATION_DATE');
        if (preg_match('/^\d{4}-\d{2}-\d{2}$/', $acquiredOn) === 1) {
            $acquiredOn .= ' 00:00:00';
        }
        $linked = call('POST', '/custodians', ['vehicleId' => $vehicleId, 'rentalCompanyId' => $companyId, 'acquiredOn' => $acquiredOn]);
        // A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
        require_2xx('custodian creation', $linked);
    } else {
        // Advanced rule 5: a vehicle is returned: use its id (first element of the list).
        $vehicleId = require_id('vehicle lookup', $vehicles[0]);
    }

    // Advanced rule 6: create the payment for that vehicle (the last call).
    $paid = call('POST', '/payments', [
        'locationId' => env('RELAY_LOCATION_ID'),
        'vehicleId' => $vehicleId,
        'amount' => ['amount' => amount(), 'currency' => env('RELAY_CURRENCY')],
        'startedOn' => env('RELAY_VISIT_START'),
        'endedOn' => env('RELAY_VISIT_END'),
        'status' => 'new',
    ]);
    if ($paid->ambiguous()) {
        return unknown($paid);
    }
    require_2xx('payment creation', $paid);
    return new Finished('paid', require_id('payment creation', $paid->body));
}

function simple(): Finished
{
    global $OWNER, $PLATE;
    // Simple rule 1: one request carrying all payment and vehicle data.
    $paid = call('POST', '/payment', [
        'location' => env('RELAY_LOCATION_ID'),
        'vehicle' => ['owner' => $OWNER, 'plate' => $PLATE, 'acquiredOn' => env('RELAY_REGISTRATION_DATE')],
        'visit' => ['startedOn' => env('RELAY_VISIT_START'), 'endedOn' => env('RELAY_VISIT_END')],
        'payment' => ['amount' => amount(), 'currency' => env('RELAY_CURRENCY')],
    ]);
    // Simple rules 1-2: accepted iff the answer has an id, whatever the status; else its message says why.
    $body = $paid->lost === null ? $paid->body : null;
    if (id_of($body) !== '') {
        return new Finished('paid', id_of($body), message_of($body));
    }
    if ($paid->ambiguous()) {
        return unknown($paid);
    }
    $message = message_of($body);
    return new Finished('rejected', message: $message !== '' ? $message : 'the answer has no id and no message (' . $paid->said() . ')');
}

$flow = env('RELAY_FLOW');
try {
    $done = match ($flow) {
        'advanced' => advanced(),
        'simple' => simple(),
        default => die_config("RELAY_FLOW must be 'advanced' or 'simple', got '$flow'"),
    };
} catch (Finished $finished) {
    $done = $finished;
}
$result = ['outcome' => $done->outcome] + ($done->paymentId !== null ? ['paymentId' => $done->paymentId] : [])
    + ($done->getMessage() !== '' ? ['message' => $done->getMessage()] : []);
$json = json_encode($result, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
fwrite(STDERR, "outcome: $json\n");
$file = getenv('RELAY_RESULT_FILE');
if ($file !== false && $file !== '' && file_put_contents($file, $json) === false) {
    fwrite(STDERR, "cannot write RELAY_RESULT_FILE\n");
}
// Exit 0 whatever the service said: the customer's payment completes.
