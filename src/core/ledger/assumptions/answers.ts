// The ledger's assumptions about how the service answers: statuses, error bodies, refusals, records,
// links, and HTTP's own methods and headers. In the order of the README's table.
import { WIDER, NOT_MET, type Assumption } from './types.js'

/** What the service answers, where the interface does not say. */
export const ANSWERS = [
  {
    id: 'create.status',
    question:
      "What status and headers answer a create (POST /vehicles, /custodians, /payments, and the simple endpoint's success)?",
    interface:
      '§4, Not shown: HTTP status codes of responses; §4 Advanced integration, endpoints 3–5: the answer is an object `id`, `link`',
    choice:
      "A created record is answered 201 with a `Location` header naming its link, and the body `{id, link}` (the simple endpoint's success: 201, `Location: /payments/<id>`); every successful GET answers 200.",
    alternatives: [
      { id: '200-no-location', answer: 'A create is answered 200 with the same body and no `Location` header.' },
      { id: '201-no-location', answer: 'A create is answered 201 with the same body and no `Location` header.' },
    ],
    rules: [
      'advanced.custodian-after-create',
      'advanced.payment-body',
      'advanced.single-payment',
      'client.outcome',
      'client.stops-on-failure',
    ],
  },
  {
    id: 'invalid.status',
    question: 'What status answers a request whose fields are invalid (or whose ids name nothing)?',
    interface:
      '§4, Not shown: HTTP status codes of responses; §7 Errors, rule 3: error codes and status codes not shown',
    choice:
      'Invalid fields, and ids that name nothing, are answered 422, with one entry per field in `errors: [{field, problem, expected, received}]`; unknown fields are refused likewise, naming the field and the fields that exist (so a `vehicleID` typo is caught).',
    alternatives: [{ id: '400', answer: 'Invalid fields are answered 400 Bad Request, with the same body.' }],
    rules: ['client.outcome', 'client.stops-on-failure', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'request.refusals',
    question: 'Which 4xx answer a request the service cannot read or route?',
    interface: '§7 Errors, rule 3: error codes, status codes and the error body shape beyond `message`: not shown',
    choice:
      "Malformed JSON or an empty body 400; a missing or wrong `Content-Type` 415; a body over 1 MiB 413; an unknown path 404 (with the nearest path); a wrong method 405 with `Allow` (the path's methods, `HEAD` wherever `GET` is, and `OPTIONS`); a method Node cannot parse, and `CONNECT`, the same JSON 405.",
    alternatives: [
      { id: '400-all', answer: 'Every request the service cannot read or route is answered 400.', notServed: NOT_MET },
      {
        id: 'json-without-content-type',
        answer: 'A JSON body without `Content-Type: application/json` is read anyway.',
        notServed: WIDER,
      },
    ],
    rules: ['http.json-body', 'http.known-endpoint'],
  },
  {
    id: 'error.body',
    question: 'What does the body of an error answer look like?',
    interface:
      '§7 Errors, rule 3: the error body shape beyond `message`: not shown; §7 Errors, rule 1: a failure carries a `message` string',
    choice:
      'RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`, `message`, and for bad input `errors: [{field, problem, expected, received}]`, one per field. The simple endpoint keeps its own shape: `{status: "refused", message}`, no `id`.',
    alternatives: [
      { id: 'json-message', answer: 'An error is `application/json` carrying only `{"message": "..."}`.' },
    ],
    rules: ['client.outcome', 'client.stops-on-failure'],
  },
  {
    id: 'auth.refusal',
    question: 'What answers a request with a missing, malformed or unknown token?',
    interface: '§5 Authentication, rule 3: the answer to a missing or invalid token: not shown',
    choice:
      'A missing, malformed or unknown token is answered 401 with `WWW-Authenticate: Bearer`; the message says whether the header is missing, malformed, or the token unknown.',
    alternatives: [
      {
        id: '403',
        answer: 'A missing or unknown token is answered 403 Forbidden, without a `WWW-Authenticate` challenge.',
      },
      {
        id: '401-no-challenge',
        answer: 'A missing or unknown token is answered 401 without a `WWW-Authenticate` header.',
      },
    ],
    rules: ['auth.bearer', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'simple.answer',
    question: "What fields does the simple endpoint's success carry?",
    interface:
      "§4 Simple integration, Not shown: the answer's fields beyond `id` and `message`; §4 Simple integration, rule 3: the answer carries a message and a status",
    choice:
      'Always `{status, message}`, plus `id` on success (`status` is `new` when recorded, `refused` when not), plus `errors` for invalid fields; the success is 201 with a `Location` naming the payment. A client keys on `id`.',
    alternatives: [
      { id: 'id-only', answer: 'A success carries only `id`: no `status`, no `message`.' },
      {
        id: 'status-accepted',
        answer: 'A success carries `id`, `message` and a `status` other than `new` (e.g. `accepted`).',
      },
    ],
    rules: ['client.outcome', 'simple.one-request'],
  },
  {
    id: 'simple.refusal-status',
    question: 'What status does the simple endpoint refuse a payment with?',
    interface:
      '§4, Not shown: HTTP status codes of responses; §7 Errors, rule 1: the simple endpoint signals failure by an answer without `id` and with a `message`',
    choice:
      'A refused simple payment is answered 422 with `{status: "refused", message}` and no `id` (the built-in scenario `simple-failure-ok-status` answers the same body with 200).',
    alternatives: [
      { id: '400', answer: 'A refusal is answered 400 with `message` and no `id`.' },
      { id: '200', answer: 'A refusal is answered 200 with `message` and no `id`.' },
    ],
    rules: ['client.outcome', 'client.completes', 'client.stops-on-failure', 'resilience.no-retry-on-refusal'],
  },
  {
    id: 'simple.unknown-owner',
    question: 'What does the simple endpoint do for an owner who is not a registered rental company?',
    interface:
      '§4 Simple integration, Not shown: behaviour of the simple endpoint when the owner is not a registered rental company',
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
    interface:
      '§2, Not shown: fields of the rental company, vehicle, custodian and payment records beyond those listed',
    choice:
      'Records, list items and create answers carry exactly the fields the interface lists (`{id, name, kennitala}`, `{id, plate, country}`, `{id, link}`).',
    alternatives: [
      {
        id: 'extra',
        answer: 'Records, list items and create answers carry more fields (e.g. `createdAt`, `active`, `updatedAt`).',
      },
    ],
    rules: ['advanced.first-vehicle', 'advanced.custodian-after-create', 'client.completes'],
  },
  {
    id: 'links.fetchable',
    question: 'Can the `link` paths a create answers be fetched?',
    interface: '§4, Not shown: whether the `link` paths can be fetched with GET',
    choice:
      '`GET /vehicles/<id>`, `/custodians/<id>`, `/payments/<id>`, `/rental-companies/<id>` answer the record, or 404.',
    alternatives: [
      { id: 'not-fetchable', answer: '`GET <link>` answers 404: a link names a record but cannot be fetched.' },
    ],
    rules: ['http.known-endpoint', 'client.completes', 'client.outcome'],
  },
  {
    id: 'slip.path',
    question: 'What answers the misspelled path of the request listing, `/rental-comapnies`?',
    interface:
      '§4 Advanced integration, path spelling: the request listing spells the path `rental-comapnies`, the client code `/rental-companies`; "The interface text is inconsistent"',
    choice: '`GET /rental-comapnies` answers 404 with a message naming `/rental-companies`.',
    alternatives: [
      {
        id: 'served',
        answer: 'The misspelled path is served too, answering as `/rental-companies` does.',
        notServed:
          "A client that sends `/rental-companies`, as the interface's client code does, never meets it; one that sends the misspelling is failed by `http.known-endpoint` under every answer.",
      },
    ],
    rules: ['http.known-endpoint', 'advanced.company-lookup-first'],
  },
  {
    id: 'slip.method',
    question: 'What answers `GET /payment`, the method the request listing shows for the simple endpoint?',
    interface:
      '§4 Simple integration: "The request listing shows the method as GET, while the client code sends POST with a JSON body. The interface text is inconsistent"',
    choice:
      '`GET /payment` answers 405 with `Allow` and a message explaining that the simple payment is `POST /payment`.',
    alternatives: [
      {
        id: 'get-with-body',
        answer: '`GET /payment` with the JSON body is served as `POST /payment` is.',
        notServed:
          "A client that sends POST, as the interface's client code does, never meets it; one that sends GET is failed by `http.known-endpoint` under every answer.",
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
      "Every `GET` (the admin API's too) answers `HEAD` with the same status and headers, `Content-Length` the length of the body `GET` would send, and no body; a refusal likewise (a `HEAD` without a token is the 401, without its body). Journaled as `HEAD /vehicles`, never as the `GET`: no flow rule counts it as a lookup, a fault armed on the `GET` waits for the `GET`, and `http.known-endpoint` fails it (the interface documents `GET` only).",
    alternatives: [{ id: '405', answer: '`HEAD` is answered 405.', notServed: NOT_MET }],
    rules: ['http.known-endpoint'],
  },
  {
    id: 'http.options',
    question: 'What answers `OPTIONS`?',
    interface: '§4 Endpoints: only `GET` and `POST` are listed; other methods: not shown',
    choice:
      'On a known path, 204 with `Allow` and no body, token or not (it describes the path, not a world; `auth.bearer` still expects the token on every request); on an unknown path the 404 every method gets. Journaled with no route.',
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
      {
        id: 'always-continue',
        answer: '`100 Continue` is sent at once, whatever the request, and any refusal comes after the body.',
        notServed: NOT_MET,
      },
    ],
    rules: [],
  },
  {
    id: 'request.check-order',
    question: "In what order are a request's faults found, when it has several?",
    interface: '§7 Errors, rule 3: error codes and status codes: not shown',
    choice:
      "Path and method, then the token, then the body's size, presence, `Content-Type`, nesting and JSON, then fields, and ids that must exist.",
    alternatives: [{ id: 'body-first', answer: 'The body is checked before the token.', notServed: NOT_MET }],
    rules: ['auth.bearer', 'http.json-body'],
  },
  {
    id: 'http.get-body',
    question: 'What happens to a body sent with `GET` (or `HEAD`, `DELETE`, `OPTIONS`)?',
    interface:
      '§4 Endpoints: "Requests with a body carry Content-Type: application/json"; bodies on lookups: not shown',
    choice:
      'Ignored, whatever it is: RFC 9110 gives it no meaning, and a careful service does not refuse a lookup for it. `http.json-body` judges only the bodies the service reads (those of `POST /vehicles`, `/custodians`, `/payments`, `/payment`, where a missing body is the 400 and a broken rule), so what the mock answers and what the rule says agree. A body sent with `POST`, `PUT` or `PATCH` to a path or method the service lacks is judged too, as the client meant it.',
    alternatives: [{ id: 'refused', answer: 'A lookup with a body is refused 400.' }],
    rules: ['http.json-body', 'fidelity.strict'],
  },
] as const satisfies readonly Assumption[]
