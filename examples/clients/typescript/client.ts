// Relay location client: TypeScript on Node 20, global fetch, node:* builtins only.
//
// Reports one visit's payment to the relay service using the flow named by
// RELAY_FLOW (advanced | simple). Inputs come from the RELAY_* environment
// variables set by `relay-mock conform`; the outcome goes to RELAY_RESULT_FILE.
//
// Exit status is 0 whatever the service answers: the customer's payment
// completes even when the owner is unknown or the service refuses. Only a
// missing/invalid configuration (a runner bug) exits non-zero.
//
// Build: tsc (the project's tsconfig) -> node dist/examples/clients/typescript/client.js
import { writeFileSync } from "node:fs";

type Outcome = "paid" | "skipped" | "rejected";
type Result = { outcome: Outcome; paymentId?: string; message?: string };
type Answer = { status: number; body: unknown; error?: string }; // status 0 = network error

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

/** One request. The body is read on every status (simple rule: key on `id`, not on the status). */
async function call(method: "GET" | "POST", path: string, body?: object): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  const init: RequestInit = { method, headers, signal: AbortSignal.timeout(30_000) };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(baseUrl + path, init);
  } catch (err) {
    // fetch throws "fetch failed" with the real reason (ECONNREFUSED, timeout...) in `cause`.
    const cause: unknown = err instanceof Error ? (err as { cause?: unknown }).cause : undefined;
    const error = `${err instanceof Error ? err.message : String(err)}${cause ? ` (${String(cause)})` : ""}`;
    console.error(`${method} ${path} -> network error: ${error}`);
    return { status: 0, body: undefined, error };
  }
  console.error(`${method} ${path} -> ${response.status}`);
  const text = await response.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

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

/** Advanced flow: a failed call (non-2xx or network error) stops the flow -> "rejected". */
function require2xx(what: string, answer: Answer): void {
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 0) finish("rejected", { message: `${what} failed: network error: ${answer.error ?? ""}` });
  const detail = messageOf(answer.body);
  finish("rejected", { message: `${what} failed: HTTP ${answer.status}${detail ? `: ${detail}` : ""}` });
}
function requireList(what: string, answer: Answer): unknown[] {
  return Array.isArray(answer.body) ? answer.body : finish("rejected", { message: `${what}: answer is not a JSON array` });
}
function requireId(what: string, value: unknown): string {
  return idOf(value) ?? finish("rejected", { message: `${what}: answer has no id` });
}

async function advanced(): Promise<never> {
  // Advanced rule 1: first query rental companies by the owner's kennitala (query values URL-encoded).
  let answer = await call("GET", `/rental-companies?kennitala=${encodeURIComponent(visit.owner)}`);
  require2xx("rental company lookup", answer);
  const companies = requireList("rental company lookup", answer);
  // Advanced rule 2: empty list -> owner not part of the service; no further call.
  if (companies.length === 0) finish("skipped", { message: `owner ${visit.owner} is not part of the service` });
  const companyId = requireId("rental company lookup", companies[0]);

  // Advanced rule 3: query active vehicles by plate.
  answer = await call("GET", `/vehicles?plate=${encodeURIComponent(visit.plate)}`);
  require2xx("vehicle lookup", answer);
  const vehicles = requireList("vehicle lookup", answer);

  let vehicleId: string;
  if (vehicles.length === 0) {
    // Advanced rule 4: no vehicle -> create it, then a custodian linking it to the company.
    answer = await call("POST", "/vehicles", { plate: visit.plate, country: "is" });
    require2xx("vehicle creation", answer);
    vehicleId = requireId("vehicle creation", answer.body);
    // acquiredOn takes the registration date, in the example's YYYY-MM-DD HH:MM:SS form.
    const acquiredOn = /^\d{4}-\d{2}-\d{2}$/.test(visit.registrationDate)
      ? `${visit.registrationDate} 00:00:00`
      : visit.registrationDate;
    answer = await call("POST", "/custodians", { vehicleId, rentalCompanyId: companyId, acquiredOn });
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
  if (answer.status === 0) finish("rejected", { message: `network error: ${answer.error ?? ""}` });
  // Simple rules 1-2: accepted iff the answer has an `id`, whatever the HTTP status;
  // otherwise the answer's `message` describes the failure.
  const paymentId = idOf(answer.body);
  const message = messageOf(answer.body);
  if (paymentId !== undefined) finish("paid", message === undefined ? { paymentId } : { paymentId, message });
  return finish("rejected", { message: message ?? `answer has no id and no message (HTTP ${answer.status})` });
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
