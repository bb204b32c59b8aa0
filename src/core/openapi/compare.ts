// The service's published OpenAPI documents against relay-mock's own, operation by operation: each
// difference, and each agreement, tied to the assumption of the ledger it confirms or contradicts, or
// reported as a finding. Plain documents in (their $refs already resolved), differences out: reading,
// fetching and validating the documents is the edge's work (src/node/openapi-source.ts).
import { z } from 'zod'
import type { AssumptionId } from '../ledger/assumptions.js'
import { FAULT_EXTENSION, toOpenApi } from './documents.js'
import { KNOWN_SLIPS } from '../service/protocol.js'
import { isSuccess } from '../exchange/answer.js'
import { date, timestamp, uuid } from '../service/schemas.js'

/** What a difference is about. `agreement`: the service's document agrees with the assumption named. */
export type DifferenceKind =
  | 'agreement'
  | 'missing-operation'
  | 'added-operation'
  | 'request-media-type'
  | 'request-field-missing'
  | 'request-field-added'
  | 'request-field-required'
  | 'request-field-type'
  | 'request-field-format'
  | 'request-field-enum'
  | 'answer-status-missing'
  | 'answer-status-added'
  | 'answer-media-type'
  | 'answer-header'
  | 'answer-field-missing'
  | 'answer-field-added'
  | 'answer-field-required'
  | 'answer-field-type'
  | 'answer-field-format'
  | 'answer-field-enum'

/** An assumption of the ledger (src/core/ledger/assumptions.ts) and what the service's document says of it. */
export interface Verdict {
  id: AssumptionId
  verdict: 'confirmed' | 'contradicted'
  /** The ledger's alternative the document matches, when one does. */
  alternative?: string
}

/** One place where the service's document and relay-mock's differ, or agree on an assumption. */
export interface Difference {
  /** `METHOD /path`, as relay-mock names the operation (the service's path when relay-mock has none). */
  operation: string
  /** Where in the operation, e.g. `responses.201` or `requestBody.application/json.vehicle.plate`. */
  where: string
  kind: DifferenceKind
  /** What relay-mock's document says there (absent: nothing). */
  relayMock?: unknown
  /** What the service's document says there (absent: nothing). */
  theirs?: unknown
  /** The assumption this confirms or contradicts. */
  assumption?: Verdict
  /** What the difference means, when it ties to no assumption (or says more than the verdict). */
  finding?: string
}

/** One document of the service, its $refs resolved. */
export interface ServiceDocument {
  /** The file or URL it came from, for the report. */
  source: string
  document: unknown
}

export interface Comparison {
  /** What the comparison did with the documents: a base path stripped, an integration no document covers. */
  notes: string[]
  differences: Difference[]
  /** How many differences contradict an assumption: any makes `relay-mock compare` exit 1. */
  contradicted: number
  confirmed: number
  findings: number
}

type Integration = 'advanced' | 'simple'
type Json = Record<string, any>

interface Operation {
  method: string
  path: string
  /** METHOD and path with its parameters unnamed, to match `/vehicles/{id}` with `/vehicles/{vehicleId}`. */
  key: string
  op: Json
  integration?: Integration
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const PROBLEM_JSON = 'application/problem+json'
const JSON_MEDIA = 'application/json'
/** Query parameters that page a list. */
const PAGING = /^(page|pageSize|page_size|per_page|perPage|limit|offset|cursor|skip|take|size)$/i

/**
 * Compares the service's documents with relay-mock's (by default the two it publishes, built in-process).
 * @example compareOpenApi([{ source: 'advanced.json', document }]).contradicted // 0 when nothing contradicts
 */
export function compareOpenApi(
  theirs: ReadonlyArray<ServiceDocument>,
  ours: Record<Integration, unknown> = { advanced: toOpenApi('advanced'), simple: toOpenApi('simple') },
): Comparison {
  const notes: string[] = []
  const differences: Difference[] = []
  const ourOps = (Object.keys(ours) as Integration[]).flatMap((integration) => operationsOf(ours[integration] as Json, integration))
  const theirOps = theirs.flatMap(({ source, document }) => {
    const ops = operationsOf(document as Json)
    const base = basePathOf(document as Json)
    if (base) notes.push(`${source}: its paths are relative to the base path ${base} (servers[0].url), as relay-mock's are to {base_url}.`)
    return stripPrefix(ops, ourOps, source, notes)
  })
  const theirByKey = new Map(theirOps.map((op) => [op.key, op]))
  const ourByKey = new Map(ourOps.map((op) => [op.key, op]))

  const covered = new Set<Integration>(ourOps.filter((op) => theirByKey.has(op.key)).map((op) => op.integration!))
  for (const integration of ['advanced', 'simple'] as const) {
    if (covered.has(integration)) continue
    const named = ourOps.filter((op) => op.integration === integration && !isLink(op)).map((op) => `${op.method} ${op.path}`)
    notes.push(`No document given describes the ${integration} integration (${named.join(', ')}): its operations were not compared.`)
  }

  const add = (difference: Difference) => differences.push(difference)
  for (const our of ourOps) {
    if (!covered.has(our.integration!)) continue
    const name = `${our.method} ${our.path}`
    const their = theirByKey.get(our.key)
    if (!their) {
      if (isLink(our)) {
        add({ operation: name, where: 'paths', kind: 'missing-operation', relayMock: name, assumption: contradicts('links.fetchable', 'not-fetchable'), finding: `The service's document has no ${name}: the links a create answers may not be fetchable.` })
      } else {
        add({ operation: name, where: 'paths', kind: 'missing-operation', relayMock: name, finding: `The service's document has no ${name}.` })
      }
      continue
    }
    if (isLink(our)) add({ operation: name, where: 'paths', kind: 'agreement', relayMock: name, theirs: name, assumption: confirms('links.fetchable') })
    compareOperation(name, our.op, their.op, add)
  }

  // The interface's two slips: documented by the service means served.
  const slipped = new Set<string>()
  for (const slip of KNOWN_SLIPS) {
    const id: AssumptionId = slip.method ? 'slip.method' : 'slip.path'
    const meant = ourOps.find((op) => `${op.method} ${op.path}` === slip.meant)
    if (!meant || !covered.has(meant.integration!)) continue
    const served = theirOps.filter((op) => sameKey(op.path, slip.path) && (!slip.method || op.method === slip.method))
    for (const op of served) {
      slipped.add(op.key)
      add({
        operation: `${op.method} ${op.path}`,
        where: 'paths',
        kind: 'added-operation',
        theirs: `${op.method} ${op.path}`,
        assumption: contradicts(id, slip.method ? 'get-with-body' : 'served'),
        finding: `The service documents ${op.method} ${op.path}, which relay-mock refuses: ${slip.message}`,
      })
    }
    if (served.length === 0 && theirByKey.has(meant.key)) {
      add({ operation: slip.meant, where: 'paths', kind: 'agreement', relayMock: slip.meant, theirs: slip.meant, assumption: confirms(id), finding: `The service documents ${slip.meant} and not ${slip.method ?? ''}${slip.method ? ' ' : ''}${slip.path}.` })
    }
  }
  for (const their of theirOps) {
    if (ourByKey.has(their.key) || slipped.has(their.key)) continue
    const name = `${their.method} ${their.path}`
    add({ operation: name, where: 'paths', kind: 'added-operation', theirs: name, finding: `relay-mock has no ${name}.` })
  }

  const contradicted = differences.filter((d) => d.assumption?.verdict === 'contradicted').length
  const confirmed = differences.filter((d) => d.assumption?.verdict === 'confirmed').length
  return { notes, differences, contradicted, confirmed, findings: differences.length - contradicted - confirmed }
}

/** One operation's request and answers. */
function compareOperation(name: string, our: Json, their: Json, add: (d: Difference) => void): void {
  const at = (d: Omit<Difference, 'operation'>) => add({ operation: name, ...d })
  compareParameters(our, their, at)
  compareRequestBody(our, their, at)

  const ourResponses: Json = our.responses ?? {}
  const theirResponses: Json = their.responses ?? {}
  const ours = new Set(Object.keys(ourResponses))
  const theirs = new Set(Object.keys(theirResponses))
  /** Statuses an assumption has spoken for: not reported again as plain differences. */
  const explained = new Set<string>()
  const has = (status: string) => theirs.has(status)

  // create.status: relay-mock answers a create 201 with Location.
  const created = ourResponses['201']
  if (created?.headers?.Location) {
    if (has('201')) {
      const location = headerOf(theirResponses['201'], 'Location')
      at(
        location
          ? { where: 'responses.201', kind: 'agreement', relayMock: '201 with Location', theirs: '201 with Location', assumption: confirms('create.status') }
          : // A document that leaves a header out says nothing of whether the service sends it: a finding, not a verdict.
            { where: 'responses.201.headers.Location', kind: 'answer-header', relayMock: '201 with Location', theirs: '201, no Location documented', finding: 'The service documents 201 but no Location header: documents often leave headers out, so create.status is neither confirmed nor contradicted here (relay-mock conform --suite variants runs your client without one).' },
      )
    } else if (has('200')) {
      explained.add('201').add('200')
      at({ where: 'responses.201', kind: 'answer-status-missing', relayMock: '201 with Location', theirs: '200', assumption: contradicts('create.status', '200-no-location'), finding: 'The service documents 200 for a create, not 201.' })
    }
  }

  // The refusal of invalid fields: 422, or the simple endpoint's own refusal.
  const simple = isOwnRefusal(ourResponses)
  if (ours.has('422') && !has('422')) {
    const id: AssumptionId = simple ? 'simple.refusal-status' : 'invalid.status'
    if (has('400')) {
      explained.add('422')
      at({ where: 'responses.422', kind: 'answer-status-missing', relayMock: '422', theirs: '400', assumption: contradicts(id, '400'), finding: 'The service documents 400 for invalid fields, not 422.' })
    } else if (simple && !Object.keys(theirResponses).some((s) => /^4/.test(s)) && has('200')) {
      explained.add('422')
      at({ where: 'responses.422', kind: 'answer-status-missing', relayMock: '422', theirs: '200', assumption: contradicts(id, '200'), finding: 'The service documents no 4xx for the simple endpoint: a refusal is a 200 without `id`.' })
    }
  } else if (ours.has('422')) {
    at({ where: 'responses.422', kind: 'agreement', relayMock: '422', theirs: '422', assumption: confirms(simple ? 'simple.refusal-status' : 'invalid.status') })
  }

  // auth.refusal: 401 with WWW-Authenticate.
  if (ours.has('401')) {
    if (has('401')) {
      explained.add('401')
      at(
        headerOf(theirResponses['401'], 'WWW-Authenticate')
          ? { where: 'responses.401', kind: 'agreement', relayMock: '401 with WWW-Authenticate', theirs: '401 with WWW-Authenticate', assumption: confirms('auth.refusal') }
          : { where: 'responses.401.headers.WWW-Authenticate', kind: 'answer-header', relayMock: '401 with WWW-Authenticate', theirs: '401, no WWW-Authenticate documented', finding: 'The service documents 401 but no WWW-Authenticate header: documents often leave headers out, so auth.refusal is neither confirmed nor contradicted here.' },
      )
    } else if (has('403')) {
      explained.add('401').add('403')
      at({ where: 'responses.401', kind: 'answer-status-missing', relayMock: '401', theirs: '403', assumption: contradicts('auth.refusal', '403'), finding: 'The service documents 403 for a refused token, not 401.' })
    }
  }

  // error.body: problem details, where relay-mock answers errors with them.
  if (!simple) {
    const errors = Object.entries(theirResponses).filter(([status, response]) => /^4/.test(status) && response?.content)
    if (errors.length > 0) {
      for (const [status] of errors) explained.add(`${status} media`)
      const media = errors.flatMap(([, response]) => Object.keys(response.content).map(bare))
      const json = errors.map(([, response]) => response.content[Object.keys(response.content).find((m) => bare(m) === JSON_MEDIA) ?? ''])
      const where = `responses.${errors.map(([status]) => status).join(',')}`
      if (media.includes(PROBLEM_JSON)) {
        at({ where, kind: 'agreement', relayMock: PROBLEM_JSON, theirs: [...new Set(media)], assumption: confirms('error.body') })
      } else {
        const fields = [...new Set(json.flatMap((m) => Object.keys(flatten(m?.schema).properties ?? {})))]
        const messageOnly = fields.includes('message') && !fields.some((f) => ['type', 'title', 'status'].includes(f))
        at({
          where,
          kind: 'answer-media-type',
          relayMock: `${PROBLEM_JSON} (type, title, status, message)`,
          theirs: `${[...new Set(media)].join(', ')}${fields.length ? ` (${fields.join(', ')})` : ''}`,
          assumption: contradicts('error.body', messageOnly ? 'json-message' : undefined),
          ...(messageOnly ? {} : { finding: fields.includes('message') ? 'Its error answers are neither problem details nor `message` alone.' : 'Its error answers carry no `message`.' }),
        })
      }
    }
  }

  for (const status of ours) {
    // An answer only a fault relay-mock injects gives is its test tool, not a claim about the service.
    if (explained.has(status) || has(status) || ourResponses[status]?.[FAULT_EXTENSION]) continue
    at({ where: `responses.${status}`, kind: 'answer-status-missing', relayMock: status, finding: `relay-mock documents ${status}: ${firstLine(ourResponses[status]?.description)}` })
  }
  for (const status of theirs) {
    if (explained.has(status) || ours.has(status)) continue
    at({ where: `responses.${status}`, kind: 'answer-status-added', theirs: status, finding: `The service documents ${status}${theirResponses[status]?.description ? `: ${firstLine(theirResponses[status].description)}` : ''}.` })
  }

  /** The success both document: 201 as relay-mock answers, else the other 2xx. */
  const success = ['201', '200'].find((status) => ours.has(status) && has(status))
  let extra = false
  let records = false
  for (const status of ours) {
    if (!theirs.has(status)) continue
    const ourContent: Json = ourResponses[status]?.content ?? {}
    const theirContent: Json = theirResponses[status]?.content ?? {}
    const ourMedia = Object.keys(ourContent).map(bare)
    const theirMedia = Object.keys(theirContent).map(bare)
    if (!explained.has(`${status} media`) && theirMedia.length > 0) {
      for (const media of ourMedia.filter((m) => !theirMedia.includes(m) && !ourContent[m]?.[FAULT_EXTENSION])) {
        const description = ourContent[media]?.schema?.description
        at({ where: `responses.${status}.${media}`, kind: 'answer-media-type', relayMock: media, theirs: theirMedia, finding: `relay-mock also answers ${status} as ${media}${description ? ` (${description})` : ''}; the service's document does not.` })
      }
      for (const media of theirMedia.filter((m) => !ourMedia.includes(m))) {
        at({ where: `responses.${status}.${media}`, kind: 'answer-media-type', relayMock: ourMedia, theirs: media, finding: `The service also answers ${status} as ${media}.` })
      }
    }
    const media = ourMedia.find((m) => m === JSON_MEDIA || m === PROBLEM_JSON)
    const theirSchema = media ? contentOf(theirContent, media)?.schema : undefined
    if (!media || !theirSchema) continue
    const ourSchema = contentOf(ourContent, media)?.schema
    const fields: Difference[] = []
    compareSchemas(ourSchema, theirSchema, `responses.${status}.${media}`, 'answer', (d) => fields.push({ operation: name, ...d }))
    for (const field of fields) {
      if (isSuccess(status) && field.kind === 'answer-field-added') {
        extra = true
        field.assumption = contradicts('records.extra-fields', 'extra')
      }
      add(field)
    }
    if (isSuccess(status)) {
      records = true
      const root = flatten(ourSchema)
      const theirRoot = flatten(theirSchema)
      if (root.type === 'array') {
        at(
          theirRoot.type === 'array'
            ? { where: `responses.${status}.${media}`, kind: 'agreement', relayMock: 'array', theirs: 'array', assumption: confirms('lists.paging') }
            : { where: `responses.${status}.${media}`, kind: 'answer-field-type', relayMock: 'array', theirs: theirRoot.type, assumption: contradicts('lists.paging', 'paged'), finding: 'The list comes inside an object: it may be paged.' },
        )
      }
      if (simple && status === success && root.properties?.status) {
        at(
          theirRoot.properties?.status
            ? { where: `responses.${status}.${media}.status`, kind: 'agreement', relayMock: 'id, status, message', theirs: Object.keys(theirRoot.properties), assumption: confirms('simple.answer') }
            : { where: `responses.${status}.${media}.status`, kind: 'answer-field-missing', relayMock: 'id, status, message', theirs: Object.keys(theirRoot.properties ?? {}), assumption: contradicts('simple.answer', 'id-only') },
        )
      }
    }
  }
  if (records && !extra) at({ where: 'responses', kind: 'agreement', relayMock: 'the listed fields', theirs: 'no more fields', assumption: confirms('records.extra-fields') })
}

function compareParameters(our: Json, their: Json, at: (d: Omit<Difference, 'operation'>) => void): void {
  const ours = queryParameters(our)
  const theirs = queryParameters(their)
  for (const [name, parameter] of ours) {
    const other = theirs.get(name)
    const where = `parameters.query.${name}`
    if (!other) {
      at({ where, kind: 'request-field-missing', relayMock: describeSchema(parameter.schema), finding: `relay-mock reads the query parameter ${name}; the service's document does not list it.` })
      continue
    }
    if (Boolean(parameter.required) !== Boolean(other.required)) {
      at({ where, kind: 'request-field-required', relayMock: Boolean(parameter.required), theirs: Boolean(other.required) })
    }
    compareSchemas(parameter.schema, other.schema, where, 'request', (d) => at(d))
  }
  for (const [name, parameter] of theirs) {
    if (ours.has(name)) continue
    const paging = PAGING.test(name)
    at({
      where: `parameters.query.${name}`,
      kind: 'request-field-added',
      theirs: `${describeSchema(parameter.schema)}${parameter.required ? ', required' : ''}`,
      ...(paging ? { assumption: contradicts('lists.paging', 'paged') } : {}),
      finding: parameter.required ? `The service requires the query parameter ${name}, which relay-mock does not know.` : `The service takes the query parameter ${name} too.`,
    })
  }
}

function compareRequestBody(our: Json, their: Json, at: (d: Omit<Difference, 'operation'>) => void): void {
  const ourContent: Json | undefined = our.requestBody?.content
  if (!ourContent) return
  const theirContent: Json | undefined = their.requestBody?.content
  const media = Object.keys(ourContent)[0]
  const theirMedia = theirContent ? contentOf(theirContent, media) : undefined
  if (!theirMedia) {
    at({ where: `requestBody.${media}`, kind: 'request-media-type', relayMock: media, theirs: theirContent ? Object.keys(theirContent) : undefined, finding: `The service's document takes no ${media} body here.` })
    return
  }
  compareSchemas(ourContent[media].schema, theirMedia.schema, `requestBody.${media}`, 'request', (d) => at(d))
}

/** Field by field: what a side is missing or adds, and each field's required, type, format and enum. */
function compareSchemas(ours: unknown, theirs: unknown, where: string, side: 'request' | 'answer', at: (d: Omit<Difference, 'operation'>) => void, depth = 0): void {
  if (depth > 12 || !ours || !theirs) return
  const a = flatten(ours)
  const b = flatten(theirs)
  if (a.type && b.type && a.type !== b.type) {
    // A list that is an object on the other side is judged by its caller (lists.paging).
    if (!(depth === 0 && a.type === 'array')) at({ where, kind: `${side}-field-type`, relayMock: a.type, theirs: b.type })
    return
  }
  const ourFormat = formatOf(a)
  if (b.format && b.format !== ourFormat) {
    const zone = ourFormat === TIMESTAMP_FORMAT && b.format === 'date-time'
    at({ where, kind: `${side}-field-format`, relayMock: ourFormat ?? 'none', theirs: b.format, ...(zone ? { assumption: contradicts('time.zone', 'utc-suffix'), finding: 'date-time is RFC 3339: a `T` and a zone, not `YYYY-MM-DD HH:MM:SS`.' } : {}) })
  }
  if ((a.enum || b.enum) && !sameSet(a.enum, b.enum)) {
    const country = side === 'request' && /\.country$/.test(where) && Array.isArray(b.enum) && b.enum.length === 1 && b.enum[0] === 'is'
    at({ where, kind: `${side}-field-enum`, relayMock: a.enum ?? 'any', theirs: b.enum ?? 'any', ...(country ? { assumption: contradicts('vehicle.country', 'is-only') } : {}) })
  }
  if (a.type === 'array' || b.type === 'array') {
    compareSchemas(a.items, b.items, `${where}[]`, side, at, depth + 1)
    return
  }
  const ourProps: Json | undefined = a.properties
  const theirProps: Json | undefined = b.properties
  if (!ourProps || !theirProps) return
  for (const [field, schema] of Object.entries(ourProps)) {
    const path = `${where}.${field}`
    if (!(field in theirProps)) {
      at({ where: path, kind: `${side}-field-missing`, relayMock: describeSchema(schema) })
      continue
    }
    const required = [a.required.has(field), b.required.has(field)]
    if (required[0] !== required[1]) at({ where: path, kind: `${side}-field-required`, relayMock: required[0], theirs: required[1] })
    compareSchemas(schema, theirProps[field], path, side, at, depth + 1)
  }
  for (const [field, schema] of Object.entries(theirProps)) {
    if (field in ourProps) continue
    at({ where: `${where}.${field}`, kind: `${side}-field-added`, theirs: `${describeSchema(schema)}${b.required.has(field) ? ', required' : ''}` })
  }
}

interface Flat {
  type?: string
  format?: string
  pattern?: string
  enum?: unknown[]
  properties?: Json
  required: Set<string>
  items?: unknown
}

/** A schema with allOf merged, and anyOf/oneOf branches joined (their fields, required only where all require them). */
function flatten(schema: unknown, depth = 0): Flat {
  const flat: Flat = { required: new Set() }
  if (!schema || typeof schema !== 'object' || depth > 8) return flat
  const s = schema as Json
  const type = Array.isArray(s.type) ? s.type.filter((t: string) => t !== 'null') : s.type
  flat.type = Array.isArray(type) ? (type.length === 1 ? type[0] : type.join('|')) : type
  if (s.format) flat.format = s.format
  if (s.pattern) flat.pattern = s.pattern
  if (Array.isArray(s.enum)) flat.enum = s.enum
  else if ('const' in s) flat.enum = [s.const]
  if (s.properties) flat.properties = { ...s.properties }
  for (const name of s.required ?? []) flat.required.add(name)
  if (s.items) flat.items = s.items
  for (const part of s.allOf ?? []) merge(flat, flatten(part, depth + 1), true)
  const branches: Flat[] = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((branch) => flatten(branch, depth + 1)).filter((b) => b.type !== 'string' || b.properties)
  // A branch of another type (relay-mock's HTML page beside JSON) says nothing of the JSON's fields.
  const objects = branches.filter((b) => b.type === 'object' || b.properties)
  if (objects.length > 0) {
    const required = objects.map((b) => b.required).reduce((all, next) => new Set([...all].filter((n) => next.has(n))))
    for (const branch of objects) merge(flat, { ...branch, required: new Set() }, false)
    for (const name of required) flat.required.add(name)
  } else if (branches.length === 1) merge(flat, branches[0], true)
  return flat
}

function merge(into: Flat, from: Flat, withRequired: boolean): void {
  into.type ??= from.type
  into.format ??= from.format
  into.pattern ??= from.pattern
  into.enum ??= from.enum
  into.items ??= from.items
  if (from.properties) into.properties = { ...from.properties, ...into.properties }
  if (withRequired) for (const name of from.required) into.required.add(name)
}

const TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:MM:SS'
let patternFormats: Map<string, string> | undefined

/** A field's format: its own, or what relay-mock's pattern for it means (relay-mock writes patterns, not formats). */
function formatOf(flat: Flat): string | undefined {
  if (flat.format) return flat.format
  if (!flat.pattern) return undefined
  patternFormats ??= new Map(
    ([[uuid, 'uuid'], [date, 'date'], [timestamp, TIMESTAMP_FORMAT]] as const).map(([schema, format]) => [(z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as Json).pattern, format]),
  )
  return patternFormats.get(flat.pattern)
}

function describeSchema(schema: unknown): string {
  const flat = flatten(schema)
  const format = formatOf(flat)
  return [flat.type ?? 'any', format ? `(${format})` : '', flat.enum ? `one of ${flat.enum.map((v) => JSON.stringify(v)).join(', ')}` : ''].filter(Boolean).join(' ')
}

function queryParameters(op: Json): Map<string, Json> {
  return new Map((op.parameters ?? []).filter((p: Json) => p?.in === 'query').map((p: Json) => [p.name, p]))
}

function operationsOf(document: Json, integration?: Integration): Operation[] {
  const ops: Operation[] = []
  for (const [path, item] of Object.entries((document?.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const op = item?.[method]
      if (op && typeof op === 'object') ops.push({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${keyOf(path)}`, op, integration })
    }
  }
  return ops
}

const keyOf = (path: string) => (path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '') || '/')
const sameKey = (a: string, b: string) => keyOf(a) === keyOf(b)
const isLink = (op: Operation) => op.method === 'GET' && op.path.includes('{')

function basePathOf(document: Json): string | undefined {
  const url = document?.servers?.[0]?.url
  if (typeof url !== 'string') return undefined
  try {
    const path = new URL(url, 'http://relay-mock.invalid').pathname.replace(/\/+$/, '')
    return path || undefined
  } catch {
    return undefined
  }
}

/**
 * The service's operations with a leading path prefix removed when its paths carry one that relay-mock's
 * lack (`/api/v1/vehicles` for `/vehicles`): the prefix is a base path written into every path.
 */
function stripPrefix(ops: Operation[], ours: Operation[], source: string, notes: string[]): Operation[] {
  const known = new Set(ours.map((op) => op.key))
  if (ops.length === 0 || ops.some((op) => known.has(op.key))) return ops
  const segments = ops[0].path.split('/').filter(Boolean)
  for (let n = 1; n < segments.length; n++) {
    const prefix = `/${segments.slice(0, n).join('/')}`
    if (!ops.every((op) => op.path.startsWith(`${prefix}/`))) break
    const stripped = ops.map((op) => {
      const path = op.path.slice(prefix.length)
      return { ...op, path, key: `${op.method} ${keyOf(path)}` }
    })
    if (stripped.some((op) => known.has(op.key))) {
      notes.push(`${source}: every path starts with ${prefix}, a base path: compared without it.`)
      return stripped
    }
  }
  return ops
}

function headerOf(response: Json | undefined, name: string): unknown {
  const headers: Json = response?.headers ?? {}
  const found = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase())
  return found ? headers[found] : undefined
}

/** True when the operation refuses with its own JSON shape rather than problem details (the simple endpoint). */
function isOwnRefusal(responses: Json): boolean {
  return Object.entries(responses).some(([status, response]) => status === '422' && response?.content?.[JSON_MEDIA] && !response.content[PROBLEM_JSON])
}

const bare = (media: string) => media.split(';')[0].trim().toLowerCase()

function contentOf(content: Json, media: string): Json | undefined {
  const found = Object.keys(content).find((m) => bare(m) === media)
  return found ? content[found] : undefined
}

function sameSet(a: unknown[] | undefined, b: unknown[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false
  const keys = new Set(a.map((v) => JSON.stringify(v)))
  return b.every((v) => keys.has(JSON.stringify(v)))
}

const firstLine = (text: unknown) => String(text ?? '').split('\n')[0].replace(/^- /, '')

function confirms(id: AssumptionId): Verdict {
  return { id, verdict: 'confirmed' }
}

/** The test of the ties holds each id and alternative named here to the ledger. */
function contradicts(id: AssumptionId, alternative?: string): Verdict {
  return alternative ? { id, verdict: 'contradicted', alternative } : { id, verdict: 'contradicted' }
}
