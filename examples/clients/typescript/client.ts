// Relay location client: TypeScript on Node 20, with ky (a small fetch wrapper) for timeouts and retries.
//
// Reports one visit's payment to the relay service using the flow named by
// RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
// variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.
//
// Exit status is 0 whatever the service answers: the customer's payment
// completes even when the owner is unknown or the service refuses. Only a
// missing/invalid configuration (a runner bug) exits non-zero.
//
// When the service fails: every request gives up after RELAY_REQUEST_TIMEOUT_MS; a 503 or 429 is
// sent again after its Retry-After (seconds or an HTTP-date); a lookup also after no answer or a
// 5xx (600 ms later); 3 attempts in all. A POST whose answer was lost (no answer, 500/502/504, a
// cut-off or non-JSON 2xx) may have been recorded, so it is never sent again blind: the vehicle is
// looked up first, and a payment is reported `unknown`. ky does the waiting and counting; the
// options below say which failures it may retry.
//
// Build: tsc (the project's tsconfig) -> node dist/examples/clients/typescript/client.js
import { writeFileSync } from "node:fs";
import ky, { HTTPError, type Options, type RetryOptions } from "ky";

type Outcome = "paid" | "skipped" | "rejected" | "unknown";
type Result = { outcome: Outcome; paymentId?: string; message?: string };
/** What one request came to: an answer the client could read, or none (`lost` says why). */
type Answer = { lost: false; status: number; body: unknown } | { lost: true; why: string };

function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is not set`);
    process.exit(2);
  }
  return value;
}

const baseUrl = env("RELAY_BASE_URL").replace(/\/+$/, "");
const token = env("RELAY_API_TOKEN");
const flow = env("RELAY_FLOW");
const visit = {
  locationId: env("RELAY_LOCATION_ID"),
  plate: env("RELAY_PLATE"),
  owner: env("RELAY_OWNER_KENNITALA"),
  registrationDate: env("RELAY_REGISTRATION_DATE"),
  start: env("RELAY_VISIT_START"),
  end: env("RELAY_VISIT_END"),
  amount: Number(env("RELAY_AMOUNT")), // sent as a JSON number, never a string
  currency: env("RELAY_CURRENCY"),
};
if (!Number.isInteger(visit.amount)) {
  console.error("RELAY_AMOUNT must be an integer");
  process.exit(2);
}
// Each request gives up after RELAY_REQUEST_TIMEOUT_MS (the runner sets it; 5 s otherwise). ky's
// timeout covers each attempt until the answer's head arrives; a body cut off after it fails the read.
const timeoutMs = Number(process.env["RELAY_REQUEST_TIMEOUT_MS"] || 5000);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
  console.error("RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds");
  process.exit(2);
}
const BACKOFF_MS = 600; // before retrying a 5xx that named no Retry-After: at least 500 ms
const MAX_RETRY_AFTER_MS = 10_000; // a longer wait keeps the customer standing there: give up instead

/** Ends the flow with an outcome; thrown so each step can stop the flow. */
class Finished extends Error {
  readonly result: Result;
  constructor(result: Result) {
    super(result.outcome);
    this.result = result;
  }
}
const finish = (outcome: Outcome, extra: { paymentId?: string; message?: string } = {}): never => {
  throw new Finished({ outcome, ...extra });
};

/** A 2xx the client cannot read whole as JSON (cut off, or a proxy's HTML page): no answer at all. */
class UnreadableAnswer extends Error {}

/** Retry-After in ms (seconds, or an HTTP-date from now); undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
const tooLongToWait = (error: Error) =>
  error instanceof HTTPError && (retryAfterMs(error.response.headers.get("retry-after")) ?? 0) > MAX_RETRY_AFTER_MS;

/** 3 attempts in all; ky waits the Retry-After of a 503 or 429, and BACKOFF_MS after other failures. */
const retry: RetryOptions = {
  limit: 2,
  statusCodes: [408, 429, 500, 502, 503, 504], // ky's default but 413: a refusal, not a hiccup
  afterStatusCodes: [429, 503],
  delay: () => BACKOFF_MS,
};
const retryFor = {
  // A lookup is safe to repeat: after a 5xx, no answer, its own timeout, or an unreadable 2xx.
  GET: {
    ...retry,
    methods: ["get"],
    retryOnTimeout: true,
    shouldRetry: ({ error }) => (tooLongToWait(error) ? false : error instanceof UnreadableAnswer ? true : undefined),
  },
  // A POST only where the answer says nothing was done (408, 429, 503). Whatever else went wrong,
  // it may have been recorded: the flow decides what to do, never a blind resend.
  POST: {
    ...retry,
    methods: ["post"],
    shouldRetry: ({ error }) =>
      error instanceof HTTPError && [408, 429, 503].includes(error.response.status) && !tooLongToWait(error) ? undefined : false,
  },
} satisfies Record<string, RetryOptions>;

const api = ky.create({
  headers: { Authorization: `Bearer ${token}` },
  timeout: timeoutMs,
  hooks: {
    afterResponse: [
      async (request, _options, response) => {
        console.error(`${request.method} ${new URL(request.url).pathname} -> ${response.status}`);
        if (!response.ok) return;
        // Read the whole body here, so that a cut-off or non-JSON 2xx counts as a failed attempt.
        const text = await response.text().catch(() => {
          throw new UnreadableAnswer(`the ${response.status} answer was cut off`);
        });
        try {
          if (text) JSON.parse(text);
        } catch {
          throw new UnreadableAnswer(`HTTP ${response.status} with a body that is not JSON`);
        }
      },
    ],
    beforeRetry: [({ error, retryCount }) => console.error(`  retrying (attempt ${retryCount + 1}) after: ${error.message}`)],
  },
});

/** One request, with ky's retries. The body is read on every status (simple rule: key on `id`, not on the status). */
async function call(method: "GET" | "POST", path: string, body?: object): Promise<Answer> {
  const options: Options = { method, retry: retryFor[method], throwHttpErrors: true };
  if (body !== undefined) options.json = body;
  let response: Response;
  try {
    response = await api(baseUrl + path, options);
  } catch (err) {
    if (err instanceof HTTPError) response = err.response;
    else {
      const why = describe(err);
      console.error(`${method} ${path} -> ${why}`);
      return { lost: true, why };
    }
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { lost: true, why: `the ${response.status} answer was cut off` };
  }
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined; // an error page that is not JSON: the status still says what happened
  }
  return { lost: false, status: response.status, body: parsed };
}

/** Why a request got no answer, in a few words. */
function describe(err: unknown): string {
  if (err instanceof UnreadableAnswer) return err.message;
  if (err instanceof Error && err.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  // fetch throws "fetch failed" with the real reason (ECONNRESET, ECONNREFUSED...) in `cause`.
  const cause: unknown = err instanceof Error ? (err as { cause?: unknown }).cause : undefined;
  return `the connection failed (${err instanceof Error ? err.message : String(err)}${cause ? `: ${String(cause)}` : ""})`;
}

/** The service may have done the request: no readable answer, or a 500, 502 or 504. */
const ambiguous = (answer: Answer) => answer.lost || [500, 502, 504].includes(answer.status);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A non-empty `id` (stringified) or undefined. */
function idOf(value: unknown): string | undefined {
  const id = isRecord(value) ? value["id"] : undefined;
  return id === undefined || id === null || id === "" ? undefined : String(id);
}
function messageOf(value: unknown): string | undefined {
  const message = isRecord(value) ? value["message"] : undefined;
  return message === undefined || message === null || message === "" ? undefined : String(message);
}

/** What the service said, in a few words: `HTTP 503: <its message>`, or why there was no answer. */
const said = (answer: Answer) =>
  answer.lost ? answer.why : `HTTP ${answer.status}${messageOf(answer.body) ? `: ${messageOf(answer.body)}` : ""}`;

/** Advanced flow: a failed call (non-2xx or no answer) stops the flow -> "rejected". */
function require2xx(what: string, answer: Answer): asserts answer is Answer & { lost: false } {
  if (!answer.lost && answer.status >= 200 && answer.status < 300) return;
  finish("rejected", { message: `${what} failed: ${said(answer)}` });
}
function requireList(what: string, answer: Answer & { lost: false }): unknown[] {
  return Array.isArray(answer.body) ? answer.body : finish("rejected", { message: `${what}: answer is not a JSON array` });
}
function requireId(what: string, value: unknown): string {
  return idOf(value) ?? finish("rejected", { message: `${what}: answer has no id` });
}
/** The payment's answer was lost: it may be recorded or not. Never resend it; say so. */
const unknown = (answer: Answer): never =>
  finish("unknown", { message: `the payment may or may not be recorded (${said(answer)}): look it up before charging again` });

async function advanced(): Promise<never> {
  // Advanced rule 1: first query rental companies by the owner's kennitala (query values URL-encoded).
  let answer = await call("GET", `/rental-companies?kennitala=${encodeURIComponent(visit.owner)}`);
  require2xx("rental company lookup", answer);
  const companies = requireList("rental company lookup", answer);
  // Advanced rule 2: empty list -> owner not part of the service; no further call.
  if (companies.length === 0) finish("skipped", { message: `owner ${visit.owner} is not part of the service` });
  const companyId = requireId("rental company lookup", companies[0]);

  // Advanced rule 3: query active vehicles by plate.
  const lookUpVehicle = async () => {
    const found = await call("GET", `/vehicles?plate=${encodeURIComponent(visit.plate)}`);
    require2xx("vehicle lookup", found);
    return requireList("vehicle lookup", found);
  };
  let vehicles = await lookUpVehicle();

  let vehicleId: string;
  if (vehicles.length === 0) {
    // Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
    const vehicle = { plate: visit.plate, country: "is" };
    answer = await call("POST", "/vehicles", vehicle);
    if (ambiguous(answer)) {
      // The vehicle may exist now: look before creating it again, or it exists twice.
      vehicles = await lookUpVehicle();
      if (vehicles.length === 0) answer = await call("POST", "/vehicles", vehicle);
    }
    if (vehicles.length > 0) vehicleId = requireId("vehicle lookup", vehicles[0]);
    else {
      require2xx("vehicle creation", answer);
      vehicleId = requireId("vehicle creation", answer.body);
    }
    // acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
    const acquiredOn = /^\d{4}-\d{2}-\d{2}$/.test(visit.registrationDate)
      ? `${visit.registrationDate} 00:00:00`
      : visit.registrationDate;
    answer = await call("POST", "/custodians", { vehicleId, rentalCompanyId: companyId, acquiredOn });
    // A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
    require2xx("custodian creation", answer);
  } else {
    // Advanced rule 5: a vehicle is returned -> use its id (first element of the list).
    vehicleId = requireId("vehicle lookup", vehicles[0]);
  }

  // Advanced rule 6: create the payment for that vehicle (the last call).
  answer = await call("POST", "/payments", {
    locationId: visit.locationId,
    vehicleId,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.start,
    endedOn: visit.end, // as given; may equal startedOn
    status: "new",
  });
  if (ambiguous(answer)) unknown(answer);
  require2xx("payment creation", answer);
  return finish("paid", { paymentId: requireId("payment creation", answer.body) });
}

async function simple(): Promise<never> {
  // Simple rule 1: one request carrying all payment and vehicle data.
  const answer = await call("POST", "/payment", {
    location: visit.locationId,
    vehicle: { owner: visit.owner, plate: visit.plate, acquiredOn: visit.registrationDate },
    visit: { startedOn: visit.start, endedOn: visit.end },
    payment: { amount: visit.amount, currency: visit.currency },
  });
  // Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP status;
  // otherwise the answer's `message` describes the failure.
  const body = answer.lost ? undefined : answer.body;
  const paymentId = idOf(body);
  const message = messageOf(body);
  if (paymentId !== undefined) finish("paid", message === undefined ? { paymentId } : { paymentId, message });
  if (ambiguous(answer)) unknown(answer);
  return finish("rejected", { message: message ?? `answer has no id and no message (${said(answer)})` });
}

async function main(): Promise<void> {
  if (flow !== "advanced" && flow !== "simple") {
    console.error(`RELAY_FLOW must be 'advanced' or 'simple', got '${flow}'`);
    process.exit(2);
  }
  try {
    await (flow === "advanced" ? advanced() : simple());
  } catch (err) {
    if (!(err instanceof Finished)) throw err;
    console.error(`outcome: ${JSON.stringify(err.result)}`);
    const resultFile = process.env["RELAY_RESULT_FILE"];
    if (resultFile) writeFileSync(resultFile, JSON.stringify(err.result));
  }
  // Always exit 0: the customer's payment completes whatever the service said.
}

await main();
