// The ledger's assumptions about the forms of values and requests: times, amounts, countries, ids,
// plates, lists, the query, the token's scheme, the body's content type and JSON. In the order of the
// README's table, after answers.ts.
import { WIDER, type Assumption } from './types.js'

/** What values and requests look like, where the interface does not say. */
export const FORMS = [
  {
    id: 'time.zone',
    question: 'In what time zone are the timestamps?',
    interface: '§4, Not shown: time zone of timestamps',
    choice:
      "None is sent; read as the location's wall-clock time (Iceland keeps UTC all year). They must be real calendar values, and the end may equal but not precede the start.",
    alternatives: [
      {
        id: 'utc-suffix',
        answer: 'Timestamps carry a zone (`2024-05-01T12:00:00Z`).',
        notServed:
          'The interface shows the format `YYYY-MM-DD HH:MM:SS`, which a client sends as shown under either answer.',
      },
    ],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'custodian.acquired-on',
    question: 'In what format is `acquiredOn` sent?',
    interface:
      '§2 Custodian: "the advanced example uses `YYYY-MM-DD HH:MM:SS`"; §2 Payment (simple integration request body): `vehicle.acquiredOn` is `YYYY-MM-DD`',
    choice:
      "`POST /custodians` takes `YYYY-MM-DD HH:MM:SS` (as the interface's example sends it) or `YYYY-MM-DD`; the simple endpoint takes `YYYY-MM-DD`.",
    alternatives: [
      {
        id: 'datetime-only',
        answer: '`POST /custodians` takes only `YYYY-MM-DD HH:MM:SS`: a bare date is refused 422.',
      },
    ],
    rules: ['advanced.custodian-after-create', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'amount.unit',
    question: 'In what unit is an amount, and how large may it be?',
    interface:
      '§2 Payment (advanced integration): `amount.amount` is an integer; unit (whole currency or minor unit): not shown',
    choice:
      'A positive integer of whole krónur (ISK has no minor unit in use), at most 1,000,000,000, sent as a JSON number.',
    alternatives: [
      {
        id: 'minor-unit',
        answer: 'The amount is in aurar (hundredths of a króna).',
        notServed: 'The client passes on the amount it was given (RELAY_AMOUNT) unchanged under either answer.',
      },
    ],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'vehicle.country',
    question: 'Which country codes does POST /vehicles take?',
    interface: '§2 Vehicle: the value `is` is used; allowed values other than `is`: not shown',
    choice:
      'Any lower-case two-letter code is accepted (`IS` is refused with a message); the service uses `is`, and the conformance kit requires it.',
    alternatives: [
      {
        id: 'is-only',
        answer: 'Only `is` is accepted.',
        notServed:
          "`advanced.create-vehicle-when-missing` fails a client that sends any country but `is` under relay-mock's choice already: no client that passes can tell the two apart.",
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
    choice:
      '2 to 8 letters (Icelandic ones too), digits, spaces or hyphens; matched without regard to case, spaces or hyphens.',
    alternatives: [
      {
        id: 'exact-match',
        answer: 'Plates match only as sent, character for character: a lookup of `ab123` does not find `AB123`.',
      },
    ],
    rules: ['advanced.vehicle-lookup', 'advanced.create-vehicle-when-missing', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'location.id',
    question: 'Which location ids are valid?',
    interface: '§2, Not shown: any resource or endpoint for locations',
    choice:
      "A world's payments must name its location (`/__relay/world` and the banner show it); locations are not an endpoint.",
    alternatives: [{ id: 'any-uuid', answer: 'Any UUID is taken as a location id.', notServed: WIDER }],
    rules: ['advanced.payment-body', 'simple.body'],
  },
  {
    id: 'vehicles.several',
    question: 'Can several active vehicles share a plate, and in what order are they listed?',
    interface: '§1 Advanced flow, rule 5: "its `id` is used (first element of the list)"; the list\'s order: not shown',
    choice: 'Allowed (the interface says "first element of the list"); `GET /vehicles` lists them oldest first.',
    alternatives: [
      {
        id: 'newest-first',
        answer: '`GET /vehicles` lists them newest first.',
        notServed:
          'A correct client takes the first element, whatever the order; `advanced.first-vehicle` judges against the list the client was given.',
      },
    ],
    rules: ['advanced.first-vehicle'],
  },
  {
    id: 'query.extra',
    question: 'What happens to query parameters beyond the documented one?',
    interface:
      '§4 Advanced integration, endpoints 1–2: query `kennitala=<kennitala>`, `plate=<plate>`; other parameters: not shown',
    choice:
      'Extra parameters (a cache-buster such as `_=1795791066550`) are ignored; a repeated one counts once, the last value.',
    alternatives: [{ id: 'refused', answer: 'An unknown or repeated query parameter is refused 400.' }],
    rules: ['fidelity.strict'],
  },
  {
    id: 'query.encoding',
    question: 'How is a query value encoded?',
    interface:
      '§4 Advanced integration, endpoints 1–2: query `kennitala=<kennitala>`, `plate=<plate>`; their encoding: not shown',
    choice:
      "Percent-encoded UTF-8 (`%C3%9E` for `Þ`), with `+` read as a space, as the WHATWG URL standard reads a query and as URLSearchParams, Java's URLEncoder and Python's urlencode write one. A value sent unencoded (raw `Þ`, a raw space) is not read: no HTTP client sends it so, and the plate never reaches the service.",
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
    choice:
      'The scheme in any case (`bearer <token>`), with one or more spaces before the token and spaces after it: HTTP makes the scheme case-insensitive (RFC 9110 §11.1).',
    alternatives: [
      {
        id: 'exact',
        answer:
          'Only `Bearer <token>` is read: the scheme as written, one space, nothing after; anything else is refused 401.',
      },
    ],
    rules: ['auth.bearer', 'fidelity.strict'],
  },
  {
    id: 'request.content-type',
    question: 'Which `Content-Type` values does the service read as JSON?',
    interface: '§4 Endpoints: "Requests with a body carry `Content-Type: application/json`"',
    choice:
      '`application/json` or any `+json` type (`application/vnd.relay+json`), in any case, with no charset or UTF-8 (`utf-8`, `utf8`, quoted or not).',
    alternatives: [
      {
        id: 'application-json',
        answer:
          'Only `application/json`, with `; charset=utf-8` at most, is read; another JSON type or spelling is refused 415.',
      },
    ],
    rules: ['http.json-body', 'fidelity.strict'],
  },
  {
    id: 'request.number-form',
    question: 'How may a whole number be written in a JSON body?',
    interface:
      '§2 Payment (advanced integration): `amount.amount` is an integer amount; §2 Payment (simple integration request body): `payment.amount` is an integer amount; how it is written: not shown',
    choice:
      'Any JSON number whose value is whole is read as that integer: `3990.0` and `3.99e3` as 3990, `-0` as 0 (a JSON parser reads them alike).',
    alternatives: [
      {
        id: 'integer-literal',
        answer:
          "An integer field takes only an integer literal (`3990`): `3990.0` and `3.99e3` are refused, as Go's `encoding/json` and .NET's `System.Text.Json` refuse a fraction or an exponent for an integer, and `-0` is refused as no amount.",
      },
    ],
    rules: ['advanced.payment-body', 'simple.body', 'fidelity.strict'],
  },
  {
    id: 'request.duplicate-keys',
    question: 'What is a JSON body that names the same key twice in one object read as?',
    interface:
      '§4 Endpoints: "Requests with a body carry `Content-Type: application/json`"; a key named twice: not shown (RFC 8259 §4: names SHOULD be unique, and parsers differ where they are not)',
    choice:
      'As a JSON parser commonly reads it: the last value of the key counts, and the earlier ones are dropped unseen.',
    alternatives: [
      {
        id: 'refused',
        answer:
          "A body that names a key twice in one object is refused 400, as a parser that checks names refuses it (Jackson's `STRICT_DUPLICATE_DETECTION`).",
      },
    ],
    rules: ['http.json-body', 'fidelity.strict'],
  },
  {
    id: 'lists.paging',
    question: 'Are list results paged, and are requests rate-limited?',
    interface: '§8 Limits, Not shown: rate limits, size limits and pagination of list results',
    choice:
      'None: a list carries every match, and no request is limited (the `rate-limit` fault answers 429 when armed).',
    alternatives: [
      {
        id: 'paged',
        answer: 'Lists are paged, with the next page named in a header or field.',
        notServed: 'A lookup by plate or kennitala matches a few records, one page under any paging.',
      },
    ],
    rules: ['advanced.first-vehicle', 'resilience.retry-after'],
  },
] as const satisfies readonly Assumption[]
