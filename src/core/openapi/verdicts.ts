// What the service's document says of each assumption of the ledger an operation's document can speak to:
// the status of a create (create.status), of a refusal of invalid fields (invalid.status,
// simple.refusal-status) and of a refused token (auth.refusal); the body of an error (error.body); a list
// as an array (lists.paging); the simple answer's fields (simple.answer); no fields beyond the listed ones
// (records.extra-fields); and, on one field, the zone of a time (time.zone) and the country (vehicle.country).
import type { AssumptionId } from '../ledger/assumptions.js'
import { confirms, contradicts, type OperationDifference, type Report, type Verdict } from './differences.js'
import type { ResponseObject, SchemaObject } from './model.js'
import { PROBLEM_JSON } from '../service/protocol.js'
import { bare, headerOf, JSON_MEDIA } from './operations.js'
import { flatten, TIMESTAMP_FORMAT } from './schema-diff.js'

/** One operation's answers, relay-mock's and the service's. */
export interface AnswerPair {
  ours: Record<string, ResponseObject>
  theirs: Record<string, ResponseObject>
  ourStatuses: Set<string>
  theirStatuses: Set<string>
  /** The operation refuses with its own JSON shape rather than problem details (the simple endpoint). */
  simple: boolean
}

/** Query parameters that page a list. */
const PAGING = /^(page|pageSize|page_size|per_page|perPage|limit|offset|cursor|skip|take|size)$/i

/**
 * The verdicts on the statuses and the error body. Returns what they have spoken for: statuses, and
 * `<status> media` for an error's media types, which are then not reported again as plain differences.
 */
export function judgeStatuses(answers: AnswerPair, at: Report): Set<string> {
  const explained = new Set<string>()
  judgeCreateStatus(answers, explained, at)
  judgeRefusalStatus(answers, explained, at)
  judgeAuthRefusal(answers, explained, at)
  if (!answers.simple) judgeErrorBody(answers, explained, at)
  return explained
}

/** create.status: relay-mock answers a create 201 with Location. */
function judgeCreateStatus({ ours, theirs, theirStatuses }: AnswerPair, explained: Set<string>, at: Report): void {
  if (!ours['201']?.headers?.Location) return
  if (theirStatuses.has('201')) {
    at(
      headerOf(theirs['201'], 'Location')
        ? {
            where: 'responses.201',
            kind: 'agreement',
            relayMock: '201 with Location',
            theirs: '201 with Location',
            assumption: confirms('create.status'),
          }
        : // A document that leaves a header out says nothing of whether the service sends it: a finding, not a verdict.
          {
            where: 'responses.201.headers.Location',
            kind: 'answer-header',
            relayMock: '201 with Location',
            theirs: '201, no Location documented',
            finding:
              'The service documents 201 but no Location header: documents often leave headers out, so create.status is neither confirmed nor contradicted here (relay-mock conform --suite variants runs your client without one).',
          },
    )
  } else if (theirStatuses.has('200')) {
    explained.add('201').add('200')
    at({
      where: 'responses.201',
      kind: 'answer-status-missing',
      relayMock: '201 with Location',
      theirs: '200',
      assumption: contradicts('create.status', '200-no-location'),
      finding: 'The service documents 200 for a create, not 201.',
    })
  }
}

/** invalid.status, or simple.refusal-status for the simple endpoint: invalid fields are refused with 422. */
function judgeRefusalStatus(
  { ourStatuses, theirStatuses, simple }: AnswerPair,
  explained: Set<string>,
  at: Report,
): void {
  if (!ourStatuses.has('422')) return
  const id: AssumptionId = simple ? 'simple.refusal-status' : 'invalid.status'
  if (theirStatuses.has('422')) {
    at({ where: 'responses.422', kind: 'agreement', relayMock: '422', theirs: '422', assumption: confirms(id) })
  } else if (theirStatuses.has('400')) {
    explained.add('422')
    at({
      where: 'responses.422',
      kind: 'answer-status-missing',
      relayMock: '422',
      theirs: '400',
      assumption: contradicts(id, '400'),
      finding: 'The service documents 400 for invalid fields, not 422.',
    })
  } else if (simple && ![...theirStatuses].some((s) => /^4/.test(s)) && theirStatuses.has('200')) {
    explained.add('422')
    at({
      where: 'responses.422',
      kind: 'answer-status-missing',
      relayMock: '422',
      theirs: '200',
      assumption: contradicts(id, '200'),
      finding: 'The service documents no 4xx for the simple endpoint: a refusal is a 200 without `id`.',
    })
  }
}

/** auth.refusal: a refused token is answered 401 with WWW-Authenticate. */
function judgeAuthRefusal(
  { theirs, ourStatuses, theirStatuses }: AnswerPair,
  explained: Set<string>,
  at: Report,
): void {
  if (!ourStatuses.has('401')) return
  if (theirStatuses.has('401')) {
    explained.add('401')
    at(
      headerOf(theirs['401'], 'WWW-Authenticate')
        ? {
            where: 'responses.401',
            kind: 'agreement',
            relayMock: '401 with WWW-Authenticate',
            theirs: '401 with WWW-Authenticate',
            assumption: confirms('auth.refusal'),
          }
        : {
            where: 'responses.401.headers.WWW-Authenticate',
            kind: 'answer-header',
            relayMock: '401 with WWW-Authenticate',
            theirs: '401, no WWW-Authenticate documented',
            finding:
              'The service documents 401 but no WWW-Authenticate header: documents often leave headers out, so auth.refusal is neither confirmed nor contradicted here.',
          },
    )
  } else if (theirStatuses.has('403')) {
    explained.add('401').add('403')
    at({
      where: 'responses.401',
      kind: 'answer-status-missing',
      relayMock: '401',
      theirs: '403',
      assumption: contradicts('auth.refusal', '403'),
      finding: 'The service documents 403 for a refused token, not 401.',
    })
  }
}

/** error.body: the service's 4xx answers are problem details, as relay-mock's are. */
function judgeErrorBody({ theirs }: AnswerPair, explained: Set<string>, at: Report): void {
  const errors = Object.entries(theirs).filter(([status, response]) => /^4/.test(status) && response?.content)
  if (errors.length === 0) return
  for (const [status] of errors) explained.add(`${status} media`)
  const contents = errors.map(([, response]) => response.content ?? {})
  const media = contents.flatMap((content) => Object.keys(content).map(bare))
  const json = contents.map((content) => content[Object.keys(content).find((m) => bare(m) === JSON_MEDIA) ?? ''])
  const where = `responses.${errors.map(([status]) => status).join(',')}`
  if (media.includes(PROBLEM_JSON)) {
    at({
      where,
      kind: 'agreement',
      relayMock: PROBLEM_JSON,
      theirs: [...new Set(media)],
      assumption: confirms('error.body'),
    })
    return
  }
  const fields = [...new Set(json.flatMap((m) => Object.keys(flatten(m?.schema).properties ?? {})))]
  const messageOnly = fields.includes('message') && !fields.some((f) => ['type', 'title', 'status'].includes(f))
  at({
    where,
    kind: 'answer-media-type',
    relayMock: `${PROBLEM_JSON} (type, title, status, message)`,
    theirs: `${[...new Set(media)].join(', ')}${fields.length ? ` (${fields.join(', ')})` : ''}`,
    assumption: contradicts('error.body', messageOnly ? 'json-message' : undefined),
    ...(messageOnly
      ? {}
      : {
          finding: fields.includes('message')
            ? 'Its error answers are neither problem details nor `message` alone.'
            : 'Its error answers carry no `message`.',
        }),
  })
}

/**
 * records.extra-fields: each field the service's record answer adds contradicts it. Marks those
 * differences and returns whether there were any.
 */
export function judgeExtraFields(fields: OperationDifference[]): boolean {
  let extra = false
  for (const field of fields) {
    if (field.kind !== 'answer-field-added') continue
    extra = true
    field.assumption = contradicts('records.extra-fields', 'extra')
  }
  return extra
}

/** records.extra-fields confirmed: record answers were compared and none added a field. */
export function confirmNoExtraFields(at: Report): void {
  at({
    where: 'responses',
    kind: 'agreement',
    relayMock: 'the listed fields',
    theirs: 'no more fields',
    assumption: confirms('records.extra-fields'),
  })
}

/** lists.paging (a list answered as an array) and simple.answer (the simple answer's `status`), on one record answer. */
export function judgeRecordAnswer(
  answers: AnswerPair,
  status: string,
  where: string,
  ourSchema: SchemaObject | undefined,
  theirSchema: SchemaObject,
  at: Report,
): void {
  const root = flatten(ourSchema)
  const theirRoot = flatten(theirSchema)
  if (root.type === 'array') {
    at(
      theirRoot.type === 'array'
        ? { where, kind: 'agreement', relayMock: 'array', theirs: 'array', assumption: confirms('lists.paging') }
        : {
            where,
            kind: 'answer-field-type',
            relayMock: 'array',
            theirs: theirRoot.type,
            assumption: contradicts('lists.paging', 'paged'),
            finding: 'The list comes inside an object: it may be paged.',
          },
    )
  }
  /** The success both document: 201 as relay-mock answers, else the other 2xx. */
  const success = ['201', '200'].find((s) => answers.ourStatuses.has(s) && answers.theirStatuses.has(s))
  if (answers.simple && status === success && root.properties?.status) {
    at(
      theirRoot.properties?.status
        ? {
            where: `${where}.status`,
            kind: 'agreement',
            relayMock: 'id, status, message',
            theirs: Object.keys(theirRoot.properties),
            assumption: confirms('simple.answer'),
          }
        : {
            where: `${where}.status`,
            kind: 'answer-field-missing',
            relayMock: 'id, status, message',
            theirs: Object.keys(theirRoot.properties ?? {}),
            assumption: contradicts('simple.answer', 'id-only'),
          },
    )
  }
}

/**
 * A field's difference with the verdict it gives, where it gives one: relay-mock's timestamp documented
 * as date-time (time.zone), a country of `is` only (vehicle.country), a query parameter that pages (lists.paging).
 */
export function withFieldVerdict(difference: OperationDifference): OperationDifference {
  const { kind, where, relayMock, theirs } = difference
  if (kind.endsWith('-field-format') && relayMock === TIMESTAMP_FORMAT && theirs === 'date-time') {
    return judged(
      difference,
      contradicts('time.zone', 'utc-suffix'),
      'date-time is RFC 3339: a `T` and a zone, not `YYYY-MM-DD HH:MM:SS`.',
    )
  }
  if (
    kind === 'request-field-enum' &&
    /\.country$/.test(where) &&
    Array.isArray(theirs) &&
    theirs.length === 1 &&
    theirs[0] === 'is'
  ) {
    return judged(difference, contradicts('vehicle.country', 'is-only'))
  }
  const parameter = /^parameters\.query\.([^.]+)$/.exec(where)?.[1]
  if (kind === 'request-field-added' && parameter !== undefined && PAGING.test(parameter)) {
    return judged(difference, contradicts('lists.paging', 'paged'))
  }
  return difference
}

/** The difference with its verdict, and a finding that says more (the assumption comes before the finding). */
function judged(
  { finding, ...difference }: OperationDifference,
  assumption: Verdict,
  says?: string,
): OperationDifference {
  const text = says ?? finding
  return { ...difference, assumption, ...(text === undefined ? {} : { finding: text }) }
}
