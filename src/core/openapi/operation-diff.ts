// One operation of the service's document against relay-mock's: its query, its request body, the statuses
// it answers and each answer's media types and fields. The verdicts on the ledger's assumptions come from
// verdicts.ts; what no assumption explains is reported as a plain difference.
import type { Difference, OperationDifference, Report } from './differences.js'
import { FAULT_EXTENSION, type MediaTypeObject, type OperationObject, type ParameterObject } from './model.js'
import { isSuccess } from '../exchange/answer.js'
import { PROBLEM_JSON } from '../service/protocol.js'
import { bare, contentOf, firstLine, JSON_MEDIA } from './operations.js'
import { compareSchemas, describeSchema } from './schema-diff.js'
import {
  confirmNoExtraFields,
  judgeExtraFields,
  judgeRecordAnswer,
  judgeStatuses,
  withFieldVerdict,
  type AnswerPair,
} from './verdicts.js'

/** @example compareOperation('POST /payment', ours.paths['/payment'].post, theirs.paths['/payment'].post, (d) => list.push(d)) */
export function compareOperation(
  name: string,
  our: OperationObject,
  their: OperationObject,
  add: (d: Difference) => void,
): void {
  const at: Report = (d) => add({ operation: name, ...d })
  const judged: Report = (d) => at(withFieldVerdict(d))
  compareParameters(our, their, judged)
  compareRequestBody(our, their, judged)
  const answers = answerPair(our, their)
  const explained = judgeStatuses(answers, at)
  compareStatuses(answers, explained, at)
  compareAnswers(answers, explained, at)
}

function answerPair(our: OperationObject, their: OperationObject): AnswerPair {
  const ours = our.responses ?? {}
  const theirs = their.responses ?? {}
  // The simple endpoint refuses with its own JSON shape rather than problem details.
  const simple = Object.entries(ours).some(
    ([status, response]) => status === '422' && response?.content?.[JSON_MEDIA] && !response.content[PROBLEM_JSON],
  )
  return { ours, theirs, ourStatuses: new Set(Object.keys(ours)), theirStatuses: new Set(Object.keys(theirs)), simple }
}

function compareParameters(our: OperationObject, their: OperationObject, at: Report): void {
  const ours = queryParameters(our)
  const theirs = queryParameters(their)
  for (const [name, parameter] of ours) {
    const other = theirs.get(name)
    const where = `parameters.query.${name}`
    if (!other) {
      at({
        where,
        kind: 'request-field-missing',
        relayMock: describeSchema(parameter.schema),
        finding: `relay-mock reads the query parameter ${name}; the service's document does not list it.`,
      })
      continue
    }
    if (Boolean(parameter.required) !== Boolean(other.required)) {
      at({
        where,
        kind: 'request-field-required',
        relayMock: Boolean(parameter.required),
        theirs: Boolean(other.required),
      })
    }
    compareSchemas(parameter.schema, other.schema, where, 'request', at)
  }
  for (const [name, parameter] of theirs) {
    if (ours.has(name)) continue
    at({
      where: `parameters.query.${name}`,
      kind: 'request-field-added',
      theirs: `${describeSchema(parameter.schema)}${parameter.required ? ', required' : ''}`,
      finding: parameter.required
        ? `The service requires the query parameter ${name}, which relay-mock does not know.`
        : `The service takes the query parameter ${name} too.`,
    })
  }
}

function queryParameters(op: OperationObject): Map<string, ParameterObject> {
  return new Map((op.parameters ?? []).filter((p) => p?.in === 'query').map((p) => [p.name, p]))
}

function compareRequestBody(our: OperationObject, their: OperationObject, at: Report): void {
  const ourContent = our.requestBody?.content
  if (!ourContent) return
  const theirContent = their.requestBody?.content
  const media = Object.keys(ourContent)[0]
  const theirMedia = theirContent ? contentOf(theirContent, media) : undefined
  if (!theirMedia) {
    at({
      where: `requestBody.${media}`,
      kind: 'request-media-type',
      relayMock: media,
      theirs: theirContent ? Object.keys(theirContent) : undefined,
      finding: `The service's document takes no ${media} body here.`,
    })
    return
  }
  compareSchemas(ourContent[media].schema, theirMedia.schema, `requestBody.${media}`, 'request', at)
}

/** The statuses one side documents and the other does not, save those a verdict has spoken for. */
function compareStatuses(
  { ours, theirs, ourStatuses, theirStatuses }: AnswerPair,
  explained: Set<string>,
  at: Report,
): void {
  for (const status of ourStatuses) {
    // An answer only a fault relay-mock injects gives is its test tool, not a claim about the service.
    if (explained.has(status) || theirStatuses.has(status) || ours[status]?.[FAULT_EXTENSION]) continue
    at({
      where: `responses.${status}`,
      kind: 'answer-status-missing',
      relayMock: status,
      finding: `relay-mock documents ${status}: ${firstLine(ours[status]?.description)}`,
    })
  }
  for (const status of theirStatuses) {
    if (explained.has(status) || ourStatuses.has(status)) continue
    const description = theirs[status]?.description
    at({
      where: `responses.${status}`,
      kind: 'answer-status-added',
      theirs: status,
      finding: `The service documents ${status}${description ? `: ${firstLine(description)}` : ''}.`,
    })
  }
}

/** The answers both document: their media types, then their fields, and the verdicts on a record answer. */
function compareAnswers(answers: AnswerPair, explained: Set<string>, at: Report): void {
  let extra = false
  let records = false
  for (const status of answers.ourStatuses) {
    if (!answers.theirStatuses.has(status)) continue
    const ourContent = answers.ours[status]?.content ?? {}
    const theirContent = answers.theirs[status]?.content ?? {}
    if (!explained.has(`${status} media`)) compareMediaTypes(status, ourContent, theirContent, at)
    const media = Object.keys(ourContent)
      .map(bare)
      .find((m) => m === JSON_MEDIA || m === PROBLEM_JSON)
    const theirSchema = media ? contentOf(theirContent, media)?.schema : undefined
    if (!media || !theirSchema) continue
    const ourSchema = contentOf(ourContent, media)?.schema
    const where = `responses.${status}.${media}`
    const fields: OperationDifference[] = []
    compareSchemas(ourSchema, theirSchema, where, 'answer', (d) => fields.push(withFieldVerdict(d)))
    if (isSuccess(status)) extra = judgeExtraFields(fields) || extra
    for (const field of fields) at(field)
    if (!isSuccess(status)) continue
    records = true
    judgeRecordAnswer(answers, status, where, ourSchema, theirSchema, at)
  }
  if (records && !extra) confirmNoExtraFields(at)
}

/** The media types one side answers a status with and the other does not. */
function compareMediaTypes(
  status: string,
  ourContent: Record<string, MediaTypeObject>,
  theirContent: Record<string, MediaTypeObject>,
  at: Report,
): void {
  const ourMedia = Object.keys(ourContent).map(bare)
  const theirMedia = Object.keys(theirContent).map(bare)
  if (theirMedia.length === 0) return
  for (const media of ourMedia.filter((m) => !theirMedia.includes(m) && !ourContent[m]?.[FAULT_EXTENSION])) {
    const description = ourContent[media]?.schema?.description
    at({
      where: `responses.${status}.${media}`,
      kind: 'answer-media-type',
      relayMock: media,
      theirs: theirMedia,
      finding: `relay-mock also answers ${status} as ${media}${description ? ` (${description})` : ''}; the service's document does not.`,
    })
  }
  for (const media of theirMedia.filter((m) => !ourMedia.includes(m))) {
    at({
      where: `responses.${status}.${media}`,
      kind: 'answer-media-type',
      relayMock: ourMedia,
      theirs: media,
      finding: `The service also answers ${status} as ${media}.`,
    })
  }
}
