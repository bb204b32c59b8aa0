// The assumption ledger: every choice relay-mock makes where the interface is silent or inconsistent,
// declared once. The README's "What the interface leaves open" table, `relay-mock assumptions`, the
// OpenAPI documents' `x-relay-assumption`, the variants a world can be served under and the `fidelity`
// rules are all read from this table. Ids are stable: tools and other people's code name them.

/** An answer a real service could plausibly give where relay-mock chose another. */
export interface Alternative {
  /** Stable id, unique within its assumption, e.g. '200-no-location'. Used as `<assumption>=<alternative>`. */
  readonly id: string
  /** What a real service would do under this alternative, one sentence. */
  readonly answer: string
  /**
   * Set when relay-mock serves no variant of this alternative, saying why (a client cannot come to depend
   * on relay-mock's choice here, or the alternative only widens what the service accepts).
   */
  readonly notServed?: string
}

/** One question the interface leaves open, and relay-mock's answer to it. */
export interface Assumption {
  /** Stable id, dotted, e.g. 'create.status'. */
  readonly id: string
  /** The question the interface leaves open. */
  readonly question: string
  /** What the interface says, with a citation, e.g. '§4, Not shown: HTTP status codes of responses'. */
  readonly interface: string
  /** relay-mock's choice. */
  readonly choice: string
  /** The alternatives a real service could plausibly make. */
  readonly alternatives: readonly Alternative[]
  /** Ids of the conformance rules whose verdicts depend on it. */
  readonly rules: readonly string[]
}

const WIDER = 'It only accepts more than relay-mock does; a client that sends what the interface shows is unaffected.'
const NOT_MET = "A correct client's flow never meets it: the conformance kit does not vary it."

const TABLE = [
  {
    id: 'create.status',
    question: "What status and headers answer a create (POST /vehicles, /custodians, /payments, and the simple endpoint's success)?",
    interface: '§4, Not shown: HTTP status codes of responses; §4 Advanced integration, endpoints 3–5: the answer is an object `id`, `link`',
    choice: "A created record is answered 201 with a `Location` header naming its link, and the body `{id, link}` (the simple endpoint's success: 201, `Location: /payments/<id>`); every successful GET answers 200.",
    alternatives: [
      { id: '200-no-location', answer: 'A create is answered 200 with the same body and no `Location` header.' },
      { id: '201-no-location', answer: 'A create is answered 201 with the same body and no `Location` header.' },
    ],
    rules: ['advanced.custodian-after-create', 'advanced.payment-body', 'advanced.single-payment', 'client.outcome', 'client.stops-on-failure'],
  },
  {
    id: 'invalid.status',
    question: 'What status answers a request whose fields are invalid (or whose ids name nothing)?',
    interface: '§4, Not shown: HTTP status codes of responses; §7 Errors, rule 3: error codes and status codes not shown',
    choice: 'Invalid fields, and ids that name nothing, are answered 422, with one entry per field in `errors: [{field, problem, expected, received}]`; unknown fields are refused likewise, naming the field and the fields that exist (so a `vehicleID` typo is caught).',
    alternatives: [{ id: '400', answer: 'Invalid fields are answered 400 Bad Request, with the same body.' }],
    rules: ['client.outcome', 'client.stops-on-failure', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'request.refusals',
    question: 'Which 4xx answer a request the service cannot read or route?',
    interface: '§7 Errors, rule 3: error codes, status codes and the error body shape beyond `message`: not shown',
    choice:
      'Malformed JSON or an empty body 400; a missing or wrong `Content-Type` 415; a body over 1 MiB 413; an unknown path 404 (with the nearest path); a wrong method 405 with `Allow` (the path\'s methods, `HEAD` wherever `GET` is, and `OPTIONS`); a method Node cannot parse, and `CONNECT`, the same JSON 405.',
    alternatives: [
      { id: '400-all', answer: 'Every request the service cannot read or route is answered 400.', notServed: NOT_MET },
      { id: 'json-without-content-type', answer: 'A JSON body without `Content-Type: application/json` is read anyway.', notServed: WIDER },
    ],
    rules: ['http.json-body', 'http.known-endpoint'],
  },
  {
    id: 'error.body',
    question: 'What does the body of an error answer look like?',
    interface: '§7 Errors, rule 3: the error body shape beyond `message`: not shown; §7 Errors, rule 1: a failure carries a `message` string',
    choice:
      'RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`, `message`, and for bad input `errors: [{field, problem, expected, received}]`, one per field. The simple endpoint keeps its own shape: `{status: "refused", message}`, no `id`.',
    alternatives: [{ id: 'json-message', answer: 'An error is `application/json` carrying only `{"message": "..."}`.' }],
    rules: ['client.outcome', 'client.stops-on-failure'],
  },
  {
    id: 'auth.refusal',
    question: 'What answers a request with a missing, malformed or unknown token?',
    interface: '§5 Authentication, rule 3: the answer to a missing or invalid token: not shown',
    choice: 'A missing, malformed or unknown token is answered 401 with `WWW-Authenticate: Bearer`; the message says whether the header is missing, malformed, or the token unknown.',
    alternatives: [
      { id: '403', answer: 'A missing or unknown token is answered 403 Forbidden, without a `WWW-Authenticate` challenge.' },
      { id: '401-no-challenge', answer: 'A missing or unknown token is answered 401 without a `WWW-Authenticate` header.' },
    ],
    rules: ['auth.bearer', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'simple.answer',
    question: "What fields does the simple endpoint's success carry?",
    interface: "§4 Simple integration, Not shown: the answer's fields beyond `id` and `message`; §4 Simple integration, rule 3: the answer carries a message and a status",
    choice:
      'Always `{status, message}`, plus `id` on success (`status` is `new` when recorded, `refused` when not), plus `errors` for invalid fields; the success is 201 with a `Location` naming the payment. A client keys on `id`.',
    alternatives: [
      { id: 'id-only', answer: 'A success carries only `id`: no `status`, no `message`.' },
      { id: 'status-accepted', answer: 'A success carries `id`, `message` and a `status` other than `new` (e.g. `accepted`).' },
    ],
    rules: ['client.outcome', 'simple.one-request'],
  },
  {
    id: 'simple.refusal-status',
    question: 'What status does the simple endpoint refuse a payment with?',
    interface: '§4, Not shown: HTTP status codes of responses; §7 Errors, rule 1: the simple endpoint signals failure by an answer without `id` and with a `message`',
    choice: 'A refused simple payment is answered 422 with `{status: "refused", message}` and no `id` (the built-in scenario `simple-failure-ok-status` answers the same body with 200).',
    alternatives: [
      { id: '400', answer: 'A refusal is answered 400 with `message` and no `id`.' },
      { id: '200', answer: 'A refusal is answered 200 with `message` and no `id`.' },
    ],
    rules: ['client.outcome', 'client.completes', 'client.stops-on-failure', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'simple.unknown-owner',
    question: 'What does the simple endpoint do for an owner who is not a registered rental company?',
    interface: '§4 Simple integration, Not shown: behaviour of the simple endpoint when the owner is not a registered rental company',
    choice: 'Refused: 422, a `message` naming the kennitala, no `id`, nothing recorded.',
    alternatives: [
      {
        id: 'accepted',
        answer: 'The payment is recorded anyway (201 with `id`): a correct client reports `paid`.',
      },
    ],
    rules: ['client.outcome'],
  },
  {
    id: 'records.extra-fields',
    question: 'Do records and list items carry fields beyond those the interface lists?',
    interface: '§2, Not shown: fields of the rental company, vehicle, custodian and payment records beyond those listed',
    choice: 'Records, list items and create answers carry exactly the fields the interface lists (`{id, name, kennitala}`, `{id, plate, country}`, `{id, link}`).',
    alternatives: [
      { id: 'extra', answer: 'Records, list items and create answers carry more fields (e.g. `createdAt`, `active`, `updatedAt`).' },
    ],
    rules: ['advanced.first-vehicle', 'advanced.custodian-after-create', 'client.completes'],
  },
  {
    id: 'links.fetchable',
    question: 'Can the `link` paths a create answers be fetched?',
    interface: '§4, Not shown: whether the `link` paths can be fetched with GET',
    choice: '`GET /vehicles/<id>`, `/custodians/<id>`, `/payments/<id>`, `/rental-companies/<id>` answer the record, or 404.',
    alternatives: [{ id: 'not-fetchable', answer: '`GET <link>` answers 404: a link names a record but cannot be fetched.' }],
    rules: ['http.known-endpoint', 'client.completes', 'client.outcome'],
  },
  {
    id: 'slip.path',
    question: 'What answers the misspelled path of the request listing, `/rental-comapnies`?',
    interface: '§4 Advanced integration, path spelling: the request listing spells the path `rental-comapnies`, the client code `/rental-companies`; "The interface text is inconsistent"',
    choice: '`GET /rental-comapnies` answers 404 with a message naming `/rental-companies`.',
    alternatives: [
      {
        id: 'served',
        answer: 'The misspelled path is served too, answering as `/rental-companies` does.',
        notServed: "A client that sends `/rental-companies`, as the interface's client code does, never meets it; one that sends the misspelling is failed by `http.known-endpoint` under every answer.",
      },
    ],
    rules: ['http.known-endpoint', 'advanced.company-lookup-first'],
  },
  {
    id: 'slip.method',
    question: 'What answers `GET /payment`, the method the request listing shows for the simple endpoint?',
    interface: '§4 Simple integration: "The request listing shows the method as GET, while the client code sends POST with a JSON body. The interface text is inconsistent"',
    choice: '`GET /payment` answers 405 with `Allow` and a message explaining that the simple payment is `POST /payment`.',
    alternatives: [
      {
        id: 'get-with-body',
        answer: '`GET /payment` with the JSON body is served as `POST /payment` is.',
        notServed: "A client that sends POST, as the interface's client code does, never meets it; one that sends GET is failed by `http.known-endpoint` under every answer.",
      },
      { id: '404', answer: '`GET /payment` answers 404.', notServed: NOT_MET },
    ],
    rules: ['http.known-endpoint', 'simple.one-request'],
  },
  {
    id: 'http.head',
    question: 'Does a `GET` endpoint answer `HEAD`?',
    interface: '§4 Endpoints: only `GET` and `POST` are listed; other methods: not shown',
    choice:
      'Every `GET` (the admin API\'s too) answers `HEAD` with the same status and headers, `Content-Length` the length of the body `GET` would send, and no body; a refusal likewise (a `HEAD` without a token is the 401, without its body). Journaled as `HEAD /vehicles`, never as the `GET`: no flow rule counts it as a lookup, a fault armed on the `GET` waits for the `GET`, and `http.known-endpoint` fails it (the interface documents `GET` only).',
    alternatives: [{ id: '405', answer: '`HEAD` is answered 405.', notServed: NOT_MET }],
    rules: ['http.known-endpoint'],
  },
  {
    id: 'http.options',
    question: 'What answers `OPTIONS`?',
    interface: '§4 Endpoints: only `GET` and `POST` are listed; other methods: not shown',
    choice:
      "On a known path, 204 with `Allow` and no body, token or not (it describes the path, not a world; `auth.bearer` still expects the token on every request); on an unknown path the 404 every method gets. Journaled with no route.",
    alternatives: [{ id: '405', answer: '`OPTIONS` is answered 405.', notServed: NOT_MET }],
    rules: ['http.known-endpoint', 'auth.bearer'],
  },
  {
    id: 'http.expect-continue',
    question: 'How is `Expect: 100-continue` answered?',
    interface: '§1: "All requests and responses are JSON over HTTP"; HTTP details beyond that: not shown',
    choice:
      "`100 Continue` only once the checks that need no body pass, in the pipeline's order and words: path and method, the token, a declared `Content-Length` over the limit (413), the `Content-Type` and charset (415). A refusal comes at once, without the 100, with `Connection: close`, the body never read, and is journaled like any refused request.",
    alternatives: [
      { id: 'always-continue', answer: '`100 Continue` is sent at once, whatever the request, and any refusal comes after the body.', notServed: NOT_MET },
    ],
    rules: [],
  },
  {
    id: 'request.check-order',
    question: 'In what order are a request\'s faults found, when it has several?',
    interface: '§7 Errors, rule 3: error codes and status codes: not shown',
    choice: 'Path and method, then the token, then the body\'s size, presence, `Content-Type`, nesting and JSON, then fields, and ids that must exist.',
    alternatives: [{ id: 'body-first', answer: 'The body is checked before the token.', notServed: NOT_MET }],
    rules: ['auth.bearer', 'http.json-body'],
  },
  {
    id: 'http.get-body',
    question: 'What happens to a body sent with `GET` (or `HEAD`, `DELETE`, `OPTIONS`)?',
    interface: '§4 Endpoints: "Requests with a body carry Content-Type: application/json"; bodies on lookups: not shown',
    choice:
      "Ignored, whatever it is: RFC 9110 gives it no meaning, and a careful service does not refuse a lookup for it. `http.json-body` judges only the bodies the service reads (those of `POST /vehicles`, `/custodians`, `/payments`, `/payment`, where a missing body is the 400 and a broken rule), so what the mock answers and what the rule says agree. A body sent with `POST`, `PUT` or `PATCH` to a path or method the service lacks is judged too, as the client meant it.",
    alternatives: [{ id: 'refused', answer: 'A lookup with a body is refused 400.' }],
    rules: ['http.json-body', 'fidelity.strict'],
  },
  {
    id: 'time.zone',
    question: 'In what time zone are the timestamps?',
    interface: '§4, Not shown: time zone of timestamps',
    choice:
      "None is sent; read as the location's wall-clock time (Iceland keeps UTC all year). They must be real calendar values, and the end may equal but not precede the start.",
    alternatives: [
      { id: 'utc-suffix', answer: 'Timestamps carry a zone (`2024-05-01T12:00:00Z`).', notServed: 'The interface shows the format `YYYY-MM-DD HH:MM:SS`, which a client sends as shown under either answer.' },
    ],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'custodian.acquired-on',
    question: 'In what format is `acquiredOn` sent?',
    interface: '§2 Custodian: "the advanced example uses `YYYY-MM-DD HH:MM:SS`"; §2 Payment (simple integration request body): `vehicle.acquiredOn` is `YYYY-MM-DD`',
    choice: '`POST /custodians` takes `YYYY-MM-DD HH:MM:SS` (as the interface\'s example sends it) or `YYYY-MM-DD`; the simple endpoint takes `YYYY-MM-DD`.',
    alternatives: [{ id: 'datetime-only', answer: '`POST /custodians` takes only `YYYY-MM-DD HH:MM:SS`: a bare date is refused 422.' }],
    rules: ['advanced.custodian-after-create', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'amount.unit',
    question: 'In what unit is an amount, and how large may it be?',
    interface: '§2 Payment (advanced integration): `amount.amount` is an integer; unit (whole currency or minor unit): not shown',
    choice: 'A positive integer of whole krónur (ISK has no minor unit in use), at most 1,000,000,000, sent as a JSON number.',
    alternatives: [
      { id: 'minor-unit', answer: 'The amount is in aurar (hundredths of a króna).', notServed: 'The client passes on the amount it was given (RELAY_AMOUNT) unchanged under either answer.' },
    ],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'vehicle.country',
    question: 'Which country codes does POST /vehicles take?',
    interface: '§2 Vehicle: the value `is` is used; allowed values other than `is`: not shown',
    choice: 'Any lower-case two-letter code is accepted (`IS` is refused with a message); the service uses `is`, and the conformance kit requires it.',
    alternatives: [
      {
        id: 'is-only',
        answer: 'Only `is` is accepted.',
        notServed: '`advanced.create-vehicle-when-missing` fails a client that sends any country but `is` under relay-mock\'s choice already: no client that passes can tell the two apart.',
      },
    ],
    rules: ['advanced.create-vehicle-when-missing'],
  },
  {
    id: 'kennitala.format',
    question: 'What is a valid kennitala?',
    interface: '§2 Rental company: a 10-digit national identity number; its format beyond that: not shown',
    choice: 'Ten digits, no hyphen, check digit verified; companies are the numbers whose day is 41–71.',
    alternatives: [{ id: 'hyphen', answer: 'A kennitala is also taken as `DDMMYY-NNNN`.', notServed: WIDER }],
    rules: ['advanced.company-lookup-first', 'simple.body'],
  },
  {
    id: 'plate.format',
    question: 'What is a plate, and how are plates matched?',
    interface: '§2 Vehicle: `plate` is the licence plate; its format and matching: not shown',
    choice: '2 to 8 letters (Icelandic ones too), digits, spaces or hyphens; matched without regard to case, spaces or hyphens.',
    alternatives: [{ id: 'exact-match', answer: 'Plates match only as sent, character for character: a lookup of `ab123` does not find `AB123`.' }],
    rules: ['advanced.vehicle-lookup', 'advanced.create-vehicle-when-missing', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'location.id',
    question: 'Which location ids are valid?',
    interface: '§2, Not shown: any resource or endpoint for locations',
    choice: "A world's payments must name its location (`/__relay/world` and the banner show it); locations are not an endpoint.",
    alternatives: [{ id: 'any-uuid', answer: 'Any UUID is taken as a location id.', notServed: WIDER }],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'vehicles.several',
    question: 'Can several active vehicles share a plate, and in what order are they listed?',
    interface: '§1 Advanced flow, rule 5: "its `id` is used (first element of the list)"; the list\'s order: not shown',
    choice: 'Allowed (the interface says "first element of the list"); `GET /vehicles` lists them oldest first.',
    alternatives: [
      { id: 'newest-first', answer: '`GET /vehicles` lists them newest first.', notServed: 'A correct client takes the first element, whatever the order; `advanced.first-vehicle` judges against the list the client was given.' },
    ],
    rules: ['advanced.first-vehicle'],
  },
  {
    id: 'query.extra',
    question: 'What happens to query parameters beyond the documented one?',
    interface: '§4 Advanced integration, endpoints 1–2: query `kennitala=<kennitala>`, `plate=<plate>`; other parameters: not shown',
    choice: 'Extra parameters (a cache-buster such as `_=1795791066550`) are ignored; a repeated one counts once, the last value.',
    alternatives: [{ id: 'refused', answer: 'An unknown or repeated query parameter is refused 400.' }],
    rules: ['fidelity.strict'],
  },
  {
    id: 'query.encoding',
    question: 'How is a query value encoded?',
    interface: '§4 Advanced integration, endpoints 1–2: query `kennitala=<kennitala>`, `plate=<plate>`; their encoding: not shown',
    choice:
      'Percent-encoded UTF-8 (`%C3%9E` for `Þ`), with `+` read as a space, as the WHATWG URL standard reads a query and as URLSearchParams, Java\'s URLEncoder and Python\'s urlencode write one. A value sent unencoded (raw `Þ`, a raw space) is not read: no HTTP client sends it so, and the plate never reaches the service.',
    alternatives: [
      {
        id: 'percent-only',
        answer: '`+` is a literal plus: a space must be sent as `%20`.',
        notServed:
          'A plate holds no `+`, so the only client that could tell is one sending a space as `+`: what every common HTTP library does. A service that read `+` literally would miss every such plate, and relay-mock does not hold clients to that; `%20` is read the same under both.',
      },
    ],
    rules: ['advanced.vehicle-lookup'],
  },
  {
    id: 'auth.scheme',
    question: 'How exactly must the `Authorization` header be written?',
    interface: '§5 Authentication, rule 1: "the header `Authorization` with the value `Bearer <API_TOKEN>`"',
    choice: 'The scheme in any case (`bearer <token>`), with one or more spaces before the token and spaces after it: HTTP makes the scheme case-insensitive (RFC 9110 §11.1).',
    alternatives: [{ id: 'exact', answer: 'Only `Bearer <token>` is read: the scheme as written, one space, nothing after; anything else is refused 401.' }],
    rules: ['auth.bearer', 'fidelity.strict'],
  },
  {
    id: 'request.content-type',
    question: 'Which `Content-Type` values does the service read as JSON?',
    interface: '§4 Endpoints: "Requests with a body carry `Content-Type: application/json`"',
    choice: '`application/json` or any `+json` type (`application/vnd.relay+json`), in any case, with no charset or UTF-8 (`utf-8`, `utf8`, quoted or not).',
    alternatives: [{ id: 'application-json', answer: 'Only `application/json`, with `; charset=utf-8` at most, is read; another JSON type or spelling is refused 415.' }],
    rules: ['http.json-body', 'fidelity.strict'],
  },
  {
    id: 'request.number-form',
    question: 'How may a whole number be written in a JSON body?',
    interface: '§2 Payment (advanced integration): `amount.amount` is an integer amount; §2 Payment (simple integration request body): `payment.amount` is an integer amount; how it is written: not shown',
    choice: 'Any JSON number whose value is whole is read as that integer: `3990.0` and `3.99e3` as 3990, `-0` as 0 (a JSON parser reads them alike).',
    alternatives: [
      {
        id: 'integer-literal',
        answer: "An integer field takes only an integer literal (`3990`): `3990.0` and `3.99e3` are refused, as Go's `encoding/json` and .NET's `System.Text.Json` refuse a fraction or an exponent for an integer, and `-0` is refused as no amount.",
      },
    ],
    rules: ['advanced.payment-body', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'request.duplicate-keys',
    question: 'What is a JSON body that names the same key twice in one object read as?',
    interface: '§4 Endpoints: "Requests with a body carry `Content-Type: application/json`"; a key named twice: not shown (RFC 8259 §4: names SHOULD be unique, and parsers differ where they are not)',
    choice: 'As a JSON parser commonly reads it: the last value of the key counts, and the earlier ones are dropped unseen.',
    alternatives: [
      {
        id: 'refused',
        answer: "A body that names a key twice in one object is refused 400, as a parser that checks names refuses it (Jackson's `STRICT_DUPLICATE_DETECTION`).",
      },
    ],
    rules: ['http.json-body', 'fidelity.strict'],
  },
  {
    id: 'lists.paging',
    question: 'Are list results paged, and are requests rate-limited?',
    interface: '§8 Limits, Not shown: rate limits, size limits and pagination of list results',
    choice: 'None: a list carries every match, and no request is limited (the `rate-limit` fault answers 429 when armed).',
    alternatives: [
      { id: 'paged', answer: 'Lists are paged, with the next page named in a header or field.', notServed: 'A lookup by plate or kennitala matches a few records, one page under any paging.' },
    ],
    rules: ['advanced.first-vehicle', 'resilience.retry-after'],
  },
] as const satisfies readonly Assumption[]

/** Every assumption relay-mock makes, in the order of the README's table. */
export const ASSUMPTIONS: readonly Assumption[] = TABLE

/** The id of an assumption in the ledger. */
export type AssumptionId = (typeof TABLE)[number]['id']

const byId = new Map<string, Assumption>(ASSUMPTIONS.map((entry) => [entry.id, entry]))

/**
 * The assumption with this id, if the ledger has it.
 * @example assumption('create.status')?.alternatives.map((a) => a.id) // ['200-no-location', '201-no-location']
 */
export function assumption(id: string): Assumption | undefined {
  return byId.get(id)
}

/**
 * The interface's clauses an assumption cites, without their quotations: each `§`-part of its `interface`
 * up to its first colon.
 * @example clauses('auth.scheme') // ['§5 Authentication, rule 1']
 */
export function clauses(id: string): string[] {
  const cited = byId.get(id)?.interface ?? ''
  return cited
    .split('; ')
    .filter((part) => part.startsWith('§'))
    .map((part) => part.split(':')[0].trim())
}
