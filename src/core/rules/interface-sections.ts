// The sections of the service's interface, as the rules' and the ledger's citations name them (`§4`,
// `§5 Authentication, rule 1`): what each covers, so that a reader without the interface at hand knows
// what a citation points at. docs/rules.md's section table is generated from it, and a test holds every
// `§` the rules and the ledger cite to a section here.

/** One numbered section of the interface. */
export interface InterfaceSection {
  /** `§4`. */
  readonly section: string
  /** Its heading in the interface, e.g. `Endpoints`. */
  readonly title: string
  /** What it says, in a line: its parts and rules as the citations name them. */
  readonly covers: string
}

export const INTERFACE_SECTIONS: readonly InterfaceSection[] = [
  {
    section: '§1',
    title: 'What the service does',
    covers:
      'The two integrations and their flows: "Advanced flow" rules 1–6 (look up the company by kennitala, stop when it is unknown, look up the vehicle by plate, create the vehicle and its custodian when none is found, use the first vehicle listed, create the payment); "Simple flow" rules 1–3 (one request, the service answers a message and a status, the location then completes the customer\'s payment). With the opening paragraph: all requests and responses are JSON over HTTP.',
  },
  {
    section: '§2',
    title: 'Resources and their fields',
    covers:
      "Identifiers are UUID strings and `link` fields are `/<resource>/<id>`; the fields of a Rental company, a Vehicle (`country`: `is`), a Custodian (`acquiredOn`), a Payment of the advanced integration (`amount.amount` an integer, `ISK`, `YYYY-MM-DD HH:MM:SS` times) and the simple integration's request body. Fields beyond those listed: not shown.",
  },
  {
    section: '§3',
    title: 'States and transitions',
    covers:
      "A payment's `status`: only `new` appears (the advanced example sends it); other states and transitions: not shown.",
  },
  {
    section: '§4',
    title: 'Endpoints',
    covers:
      'Every request carries `Authorization: Bearer <API_TOKEN>`, and a request with a body `Content-Type: application/json`. "Advanced integration": endpoints 1–5 (GET /rental-companies, GET /vehicles, POST /vehicles, /custodians, /payments), the misspelled path, rules 1–3. "Simple integration": POST /payment, the GET in its listing, rules 1–3 (accepted when the answer has `id`; otherwise a `message`). "Not shown": status codes, the simple answer\'s fields beyond `id` and `message`, an unknown owner\'s simple payment, the time zone, whether links can be fetched.',
  },
  {
    section: '§5',
    title: 'Authentication',
    covers:
      'Rule 1: every request carries `Authorization: Bearer <API_TOKEN>`; rule 2: the token is issued to the location; rule 3: how a token is obtained, its lifetime, and the answer to a missing or invalid one: not shown.',
  },
  { section: '§6', title: 'Events', covers: 'Events, webhooks or notifications: not shown.' },
  {
    section: '§7',
    title: 'Errors',
    covers:
      "Rule 1: the simple endpoint signals failure by an answer without `id` and with a `message`; rule 2: an owner not part of the service is no error in the advanced flow (an empty list, the payment skipped); rule 3: error codes, status codes and the error body's shape beyond `message`: not shown.",
  },
  {
    section: '§8',
    title: 'Limits',
    covers:
      'The currency is `ISK` only; a visit may end when it starts. Rate limits, size limits and paging of lists: not shown.',
  },
  {
    section: '§9',
    title: 'Versioning',
    covers: 'Each integration has an OpenAPI 3 description; version identifiers and deprecation: not shown.',
  },
]

/**
 * docs/rules.md's table of the interface's sections.
 * @example console.log(toSectionTable())
 */
export function toSectionTable(): string {
  return [
    '| section | heading | what it covers |',
    '|---|---|---|',
    ...INTERFACE_SECTIONS.map((s) => `| ${s.section} | ${s.title} | ${s.covers.replace(/\|/g, '\\|')} |`),
  ].join('\n')
}

/**
 * The sections a citation names: each `§<n>` in it, but an RFC's (`RFC 9110 §10.2.3`).
 * @example citedSections('§5 Authentication, rule 1; RFC 9110 §11.1') // ['§5']
 */
export function citedSections(cite: string): string[] {
  return [...cite.matchAll(/(RFC \d+ )?§(\d+)(?:\.\d+)*/g)]
    .filter((match) => match[1] === undefined)
    .map((match) => `§${match[2]}`)
}
