// Calibration: a service that answers as the real one was seen to answer, learned from an assumptions
// report of `relay-mock proxy` or `relay-mock probe` (`serve --calibrate FILE`, `conform --calibrate FILE`,
// `createRelayMock({ calibration })`). Each contradicted assumption the report holds answers for is
// served as observed: the error's shape with the message where the service put it, the statuses, a
// header present or absent, the extra fields with values of the types seen. The pipeline reshapes a
// reply here after the variants (see variants.ts); the one choice a handler makes (an unregistered
// owner's payment recorded) is a variant the calibration turns on.
import { ASSUMPTIONS } from '../ledger/assumptions.js'
import { RelayMockError } from '../errors.js'
import { isRecord } from '../exchange/answer.js'
import { statusText } from '../status.js'
import type { Reply } from './problems.js'
import type { Variants, VariedRequest } from './variants.js'

/** One answer the real service gave, as the report keeps it (see the ledger's ObservedAnswer). */
export interface CalibrationAnswer {
  request: string
  relayMock: string
  status: number
  headers: Readonly<Record<string, string>>
  body?: unknown
  extra?: Readonly<Record<string, unknown>>
}

/** What a service is calibrated by: the real service's address, the report's date, and the answers that contradicted relay-mock. */
export interface Calibration {
  /** The real service the report was made against. */
  upstream: string
  /** When the report was made (ISO 8601), or undefined when it does not say. */
  date: string | undefined
  /** The contradicted assumptions and their observed answers, by assumption id. */
  answers: Readonly<Record<string, ReadonlyArray<CalibrationAnswer>>>
  /** The alternative each contradicted assumption matched, when one did. */
  alternatives: Readonly<Record<string, string | null>>
  /** Each assumption the report settled (confirmed or contradicted), and what the service answered, by id in the ledger's order. */
  settled: Readonly<Record<string, SettledAssumption>>
}

/** An assumption the real service's answers settled, as a calibrated run reports it. */
export interface SettledAssumption {
  status: 'confirmed' | 'contradicted'
  /** What the service answered, in a few words (the report's first evidence), e.g. `201 without Location`. */
  answered: string
  /** The ledger's alternative the service made, when it was contradicted by one. */
  alternative?: string
}

/** The assumptions calibration serves as observed; a contradicted one outside this list keeps relay-mock's choice, and the run says so. */
export const CALIBRATED_ASSUMPTIONS: readonly string[] = [
  'create.status',
  'invalid.status',
  'request.refusals',
  'error.body',
  'auth.refusal',
  'simple.answer',
  'simple.refusal-status',
  'simple.unknown-owner',
  'records.extra-fields',
  'links.fetchable',
]

/**
 * Reads an assumptions report (the JSON `proxy --report-dir` or `probe --report-dir` writes) as a
 * calibration. Throws a RelayMockError (`CALIBRATION_INVALID`) that says what is wrong with it.
 * @example const calibration = readCalibration(JSON.parse(text), 'relay-report/assumptions.json')
 */
export function readCalibration(value: unknown, source: string): Calibration {
  const fail = (why: string) =>
    new RelayMockError(
      'CALIBRATION_INVALID',
      `Failed to read the calibration ${source}: ${why}. Please give the assumptions.json that relay-mock proxy or relay-mock probe writes with --report-dir.`,
    )
  if (!isRecord(value)) throw fail('it is not a JSON object')
  const report = value as { upstream?: unknown; date?: unknown; assumptions?: unknown }
  if (typeof report.upstream !== 'string' || !Array.isArray(report.assumptions))
    throw fail('it is not an assumptions report (no "upstream" and "assumptions")')
  const known = new Set(ASSUMPTIONS.map((entry) => entry.id))
  const answers: Record<string, CalibrationAnswer[]> = {}
  const alternatives: Record<string, string | null> = {}
  const settled: Record<string, SettledAssumption> = {}
  for (const [i, standing] of report.assumptions.entries()) {
    const { id, status, observed, variants, evidence } = (standing ?? {}) as {
      id?: unknown
      status?: unknown
      observed?: unknown
      variants?: unknown
      evidence?: unknown
    }
    if (typeof id !== 'string') throw fail(`assumptions[${i}] has no id`)
    if (!known.has(id))
      throw fail(
        `it names the assumption ${JSON.stringify(id)}, which relay-mock's ledger no longer has (make the report again with this version)`,
      )
    if (status === 'confirmed' || status === 'contradicted') settled[id] = settledOf(status, evidence, observed)
    if (status !== 'contradicted') continue
    if (!Array.isArray(observed) || observed.length === 0)
      throw fail(
        `${id} is contradicted but the report keeps none of the answers that showed it (a report of an older relay-mock: make it again)`,
      )
    answers[id] = observed.map((answer, j) => readAnswer(answer, `${id}.observed[${j}]`, fail))
    const first = Array.isArray(variants) ? (variants[0] as { alternative?: unknown } | undefined) : undefined
    alternatives[id] = typeof first?.alternative === 'string' ? first.alternative : null
  }
  const inLedgerOrder = Object.fromEntries(
    ASSUMPTIONS.filter((entry) => settled[entry.id]).map((entry) => [entry.id, settled[entry.id]]),
  )
  return Object.freeze({
    upstream: report.upstream,
    date: typeof report.date === 'string' ? report.date : undefined,
    answers,
    alternatives,
    settled: inLedgerOrder,
  })
}

/** What a standing says the service answered: its first evidence of its own kind (the report keeps contradicting ones first), or the first observed status. */
function settledOf(status: 'confirmed' | 'contradicted', evidence: unknown, observed: unknown): SettledAssumption {
  const first = (Array.isArray(evidence) ? evidence[0] : undefined) as
    { came?: unknown; alternative?: unknown } | undefined
  const seen = (Array.isArray(observed) ? observed[0] : undefined) as { status?: unknown } | undefined
  const answered =
    typeof first?.came === 'string'
      ? first.came
      : typeof seen?.status === 'number'
        ? String(seen.status)
        : 'no answer kept'
  return {
    status,
    answered,
    ...(status === 'contradicted' && typeof first?.alternative === 'string' ? { alternative: first.alternative } : {}),
  }
}

function readAnswer(value: unknown, where: string, fail: (why: string) => Error): CalibrationAnswer {
  const answer = value as Partial<CalibrationAnswer> | null
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof answer.status !== 'number' ||
    typeof answer.headers !== 'object' ||
    answer.headers === null
  ) {
    throw fail(`${where} is not an observed answer (status, headers)`)
  }
  return {
    request: String(answer.request ?? ''),
    relayMock: String(answer.relayMock ?? ''),
    status: answer.status,
    headers: answer.headers,
    ...(answer.body !== undefined ? { body: answer.body } : {}),
    ...(answer.extra ? { extra: answer.extra } : {}),
  }
}

/** The assumptions a calibration serves as observed (contradicted, and of those calibration learns). */
export function calibratedIds(calibration: Calibration): string[] {
  return Object.keys(calibration.answers).filter((id) => CALIBRATED_ASSUMPTIONS.includes(id))
}

/** The contradicted assumptions a calibration cannot serve as observed: relay-mock keeps its choice there. */
export function uncalibratedIds(calibration: Calibration): string[] {
  return Object.keys(calibration.answers).filter((id) => !CALIBRATED_ASSUMPTIONS.includes(id))
}

/** The variants a calibration turns on: the choices a handler makes, not a reshaping of its reply. */
export function calibrationVariants(calibration: Calibration): Variants {
  return calibration.alternatives['simple.unknown-owner'] === 'accepted' ? { 'simple.unknown-owner': 'accepted' } : {}
}

/** `https://staging.example, seen 2026-11-27`: what a run was calibrated against, in words. */
export function describeCalibration(calibration: Calibration): string {
  return `${calibration.upstream}${calibration.date ? `, as seen on ${calibration.date.slice(0, 10)}` : ''}`
}

const isSimple = (request: VariedRequest) => request.route?.id === 'POST /payment'
const statusOf = (answer: CalibrationAnswer | undefined) => answer?.status

/**
 * The reply as the real service was seen to answer it (the reply itself when the calibration bears on
 * nothing in it): statuses first, then headers, then the error's shape with the reply's own message.
 * @example calibrateReply(calibration, toProblem(404, 'No such path'), { route: undefined, path: '/nope' }).body // { error: { code: 'not_found', message: 'No such path' } }
 */
export function calibrateReply(calibration: Calibration, reply: Reply, request: VariedRequest): Reply {
  const { answers } = calibration
  const out = calibratedRecords(answers, calibratedStatus(answers, reply, request), reply, request)
  return calibratedError(answers, out, reply, request)
}

type Answers = Calibration['answers']

/** The statuses (and the headers that go with them) the real service answered where relay-mock's differ. */
function calibratedStatus(answers: Answers, reply: Reply, request: VariedRequest): Reply {
  let out = reply
  const created = request.route?.method === 'POST' && reply.status === 201
  // A link the real service does not answer.
  if (answers['links.fetchable'] && request.route?.integration === 'links') {
    const seen = answers['links.fetchable'][0]
    if (seen.status >= 400)
      out = {
        status: seen.status,
        body: { message: `The link ${request.path} cannot be fetched: the real service answered ${seen.status}.` },
        headers: {},
      }
  }
  // The statuses.
  if (answers['create.status'] && created) {
    const simple = (a: CalibrationAnswer) => a.request.split('?')[0] === 'POST /payment'
    const seen = answers['create.status'].find((a) => simple(a) === isSimple(request)) ?? answers['create.status'][0]
    out = {
      ...out,
      status: seen.status,
      headers: withHeader(
        out.headers,
        'location',
        seen.headers.location === undefined ? undefined : header(out.headers, 'location'),
      ),
    }
  }
  if (answers['auth.refusal'] && reply.status === 401) {
    const seen = answers['auth.refusal'][0]
    out = {
      ...out,
      status: seen.status,
      headers: withHeader(out.headers, 'www-authenticate', seen.headers['www-authenticate']),
    }
  }
  if (answers['invalid.status'] && reply.status === 422 && !isSimple(request))
    out = { ...out, status: statusOf(answers['invalid.status'][0]) ?? out.status }
  if (answers['simple.refusal-status'] && reply.status === 422 && isSimple(request))
    out = { ...out, status: statusOf(answers['simple.refusal-status'][0]) ?? out.status }
  if (
    answers['request.refusals'] &&
    (request.route === undefined || reply.status === 400 || reply.status === 413 || reply.status === 415)
  ) {
    const seen = answers['request.refusals'].find((a) => a.relayMock === String(reply.status))
    if (seen && reply.status >= 400) out = { ...out, status: seen.status }
  }
  return out
}

/** The records' fields as the real service sends them: the simple endpoint's success, the extra fields. */
function calibratedRecords(answers: Answers, out: Reply, reply: Reply, request: VariedRequest): Reply {
  // The simple endpoint's success: the fields the real service sends, its status word.
  if (
    answers['simple.answer'] &&
    isSimple(request) &&
    reply.status < 300 &&
    isRecord(out.body) &&
    typeof out.body.id === 'string'
  ) {
    const seen = answers['simple.answer'][0].body
    if (isRecord(seen)) {
      const body: Record<string, unknown> = { id: out.body.id }
      for (const key of Object.keys(seen))
        if (key !== 'id') body[key] = key === 'status' ? seen.status : key in out.body ? out.body[key] : seen[key]
      out = { ...out, body }
    }
  }
  // Records with the fields beyond the listed ones the service sends.
  if (answers['records.extra-fields'] && request.route !== undefined && out.status < 300) {
    const extra = Object.assign({}, ...answers['records.extra-fields'].map((a) => a.extra ?? {})) as Record<
      string,
      unknown
    >
    const add = (value: unknown) => (isRecord(value) && typeof value.id === 'string' ? { ...value, ...extra } : value)
    out = { ...out, body: Array.isArray(out.body) ? out.body.map(add) : add(out.body) }
  }
  return out
}

/** The error's shape as the real service sends it; a problem document whose status changed says its new one. */
function calibratedError(answers: Answers, out: Reply, reply: Reply, request: VariedRequest): Reply {
  // The error's shape, with the message where the service put it.
  if (
    answers['error.body'] &&
    out.status >= 400 &&
    !isSimple(request) &&
    isRecord(out.body) &&
    typeof out.body.message === 'string'
  ) {
    // Only a JSON error is learned: a page that is not JSON (a gateway's) is no shape to serve.
    const json = answers['error.body'].filter((a) => a.body !== undefined && messagePath(a.body) !== undefined)
    const seen = json.find((a) => a.status === out.status) ?? json[0]
    if (seen)
      out = {
        ...out,
        body: shaped(seen, out.body.message, out.status),
        headers: { ...out.headers, 'content-type': seen.headers['content-type'] ?? 'application/json' },
      }
  } else if (
    out !== reply &&
    isRecord(out.body) &&
    out.body.type !== undefined &&
    typeof out.body.title === 'string' &&
    out.status !== reply.status
  ) {
    // A problem document whose status changed says its new status.
    out = { ...out, body: { ...out.body, status: out.status, title: statusText(out.status) || 'Error' } }
  }
  return out
}

/** The observed error body with the reply's message where the service put its own, and the status in place of the observed one. */
function shaped(seen: CalibrationAnswer, message: string, status: number): unknown {
  const path = messagePath(seen.body)
  if (path === undefined) return { message }
  const copy = structuredClone(seen.body) as Record<string, unknown>
  const walk = (value: unknown): unknown => {
    if (typeof value === 'number' && value === seen.status) return status
    if (Array.isArray(value)) return value.map(walk)
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]))
    return value
  }
  const body = walk(copy) as Record<string, unknown>
  let at: Record<string, unknown> = body
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>
  at[path[path.length - 1]] = message
  return body
}

/** Where an error body holds its message: a string under one of the usual names (`message`, `detail`, ...), else its longest string, at most three levels down. */
export function messagePath(body: unknown): string[] | undefined {
  const names = ['message', 'detail', 'error_description', 'description', 'msg', 'title', 'error']
  let best: { path: string[]; rank: number; length: number } | undefined
  const visit = (value: unknown, path: string[]) => {
    if (path.length > 3) return
    if (typeof value === 'string' && path.length > 0) {
      const rank = names.indexOf(path[path.length - 1])
      const score = { path, rank: rank === -1 ? names.length : rank, length: value.length }
      if (
        !best ||
        score.rank < best.rank ||
        (score.rank === best.rank && (score.path.length < best.path.length || score.length > best.length))
      )
        best = score
      return
    }
    if (isRecord(value)) for (const [key, item] of Object.entries(value)) visit(item, [...path, key])
  }
  visit(body, [])
  return best?.path
}

function header(headers: Reply['headers'], name: string): string | undefined {
  const value = headers?.[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function withHeader(headers: Reply['headers'], name: string, value: string | undefined): Reply['headers'] {
  const { [name]: _, ...rest } = headers ?? {}
  return value === undefined ? rest : { ...rest, [name]: value }
}
