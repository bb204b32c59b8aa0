// compareOpenApi on relay-mock's own documents (clean) and on edited copies, one kind of difference each,
// each tied to the assumption it confirms or contradicts, or reported as a finding.
import { describe, expect, it } from 'vitest'
import { ASSUMPTIONS } from '../../src/core/ledger/assumptions.js'
import { compareOpenApi, type Comparison, type Difference } from '../../src/core/openapi/compare.js'
import { openApiJson } from '../support/openapi-json.js'

type Docs = { advanced: any; simple: any }

/** relay-mock's two documents, copied, edited, and compared with relay-mock's own. */
function compareEdited(edit: (docs: Docs) => void = () => {}, only?: keyof Docs): Comparison {
  const docs: Docs = { advanced: openApiJson('advanced'), simple: openApiJson('simple') }
  edit(docs)
  const given = (['advanced', 'simple'] as const).filter((name) => !only || name === only)
  return compareOpenApi(given.map((name) => ({ source: `${name}.json`, document: docs[name] })))
}

const contradictions = (c: Comparison) => c.differences.filter((d) => d.assumption?.verdict === 'contradicted')
const findings = (c: Comparison) => c.differences.filter((d) => !d.assumption)
const only = (c: Comparison, operation: string) =>
  c.differences.filter((d) => d.operation === operation && d.kind !== 'agreement')
const body = (doc: any, path: string) => doc.paths[path].post.requestBody.content['application/json'].schema
const problemJson = 'application/problem+json'

/** The differences an edit makes, tied ones first: what each test names. */
const verdicts: Array<{ name: string; edit: (docs: Docs) => void; expected: Partial<Difference>[] }> = [
  {
    name: 'a create answered 200 and no 201: create.status contradicted (200-no-location)',
    edit: ({ advanced }) => {
      const ops = advanced.paths['/vehicles'].post.responses
      ops['200'] = { ...ops['201'], headers: undefined }
      delete ops['201']
    },
    expected: [
      {
        operation: 'POST /vehicles',
        where: 'responses.201',
        kind: 'answer-status-missing',
        relayMock: '201 with Location',
        theirs: '200',
        assumption: { id: 'create.status', verdict: 'contradicted', alternative: '200-no-location' },
      },
    ],
  },
  {
    name: 'invalid fields answered 400, not 422: invalid.status contradicted (400)',
    edit: ({ advanced }) => delete advanced.paths['/custodians'].post.responses['422'],
    expected: [
      {
        operation: 'POST /custodians',
        where: 'responses.422',
        kind: 'answer-status-missing',
        theirs: '400',
        assumption: { id: 'invalid.status', verdict: 'contradicted', alternative: '400' },
      },
    ],
  },
  {
    name: 'errors as application/json with only `message`: error.body contradicted (json-message)',
    edit: ({ advanced }) => {
      for (const response of Object.values<any>(advanced.paths['/vehicles'].get.responses)) {
        if (response.content?.[problemJson])
          response.content = {
            'application/json': {
              schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
            },
          }
      }
    },
    expected: [
      {
        operation: 'GET /vehicles',
        kind: 'answer-media-type',
        assumption: { id: 'error.body', verdict: 'contradicted', alternative: 'json-message' },
      },
    ],
  },
  {
    name: 'a refused token answered 403: auth.refusal contradicted (403)',
    edit: ({ advanced }) => {
      const ops = advanced.paths['/vehicles'].post.responses
      ops['403'] = { description: 'Forbidden', content: ops['401'].content }
      delete ops['401']
    },
    expected: [
      {
        operation: 'POST /vehicles',
        where: 'responses.401',
        theirs: '403',
        assumption: { id: 'auth.refusal', verdict: 'contradicted', alternative: '403' },
      },
    ],
  },
  {
    name: 'the misspelled path documented: slip.path contradicted (served)',
    edit: ({ advanced }) =>
      (advanced.paths['/rental-comapnies'] = structuredClone(advanced.paths['/rental-companies'])),
    expected: [
      {
        operation: 'GET /rental-comapnies',
        kind: 'added-operation',
        assumption: { id: 'slip.path', verdict: 'contradicted', alternative: 'served' },
      },
    ],
  },
  {
    name: 'GET /payment documented: slip.method contradicted (get-with-body)',
    edit: ({ simple }) => (simple.paths['/payment'].get = structuredClone(simple.paths['/payment'].post)),
    expected: [
      {
        operation: 'GET /payment',
        kind: 'added-operation',
        assumption: { id: 'slip.method', verdict: 'contradicted', alternative: 'get-with-body' },
      },
    ],
  },
  {
    name: 'records with more fields: records.extra-fields contradicted (extra)',
    edit: ({ advanced }) =>
      (advanced.paths['/vehicles'].get.responses['200'].content['application/json'].schema.items.properties.createdAt =
        { type: 'string', format: 'date-time' }),
    expected: [
      {
        operation: 'GET /vehicles',
        where: 'responses.200.application/json[].createdAt',
        kind: 'answer-field-added',
        assumption: { id: 'records.extra-fields', verdict: 'contradicted', alternative: 'extra' },
      },
    ],
  },
  {
    name: 'a simple answer without `status`: simple.answer contradicted (id-only)',
    edit: ({ simple }) =>
      delete simple.paths['/payment'].post.responses['201'].content['application/json'].schema.properties.status,
    expected: [
      {
        operation: 'POST /payment',
        where: 'responses.201.application/json.status',
        kind: 'answer-field-missing',
        assumption: { id: 'simple.answer', verdict: 'contradicted', alternative: 'id-only' },
      },
      { operation: 'POST /payment', where: 'responses.201.application/json.status', kind: 'answer-field-missing' },
    ],
  },
  {
    name: 'the simple endpoint refusing with 400: simple.refusal-status contradicted (400)',
    edit: ({ simple }) => delete simple.paths['/payment'].post.responses['422'],
    expected: [
      {
        operation: 'POST /payment',
        where: 'responses.422',
        theirs: '400',
        assumption: { id: 'simple.refusal-status', verdict: 'contradicted', alternative: '400' },
      },
    ],
  },
  {
    name: 'a link path missing: links.fetchable contradicted (not-fetchable)',
    edit: ({ advanced }) => delete advanced.paths['/vehicles/{id}'],
    expected: [
      {
        operation: 'GET /vehicles/{id}',
        kind: 'missing-operation',
        assumption: { id: 'links.fetchable', verdict: 'contradicted', alternative: 'not-fetchable' },
      },
    ],
  },
  {
    name: 'a list inside an object: lists.paging contradicted (paged)',
    edit: ({ advanced }) => {
      const content = advanced.paths['/rental-companies'].get.responses['200'].content['application/json']
      content.schema = { type: 'object', properties: { items: content.schema, next: { type: 'string' } } }
    },
    expected: [
      {
        operation: 'GET /rental-companies',
        kind: 'answer-field-type',
        relayMock: 'array',
        theirs: 'object',
        assumption: { id: 'lists.paging', verdict: 'contradicted', alternative: 'paged' },
      },
    ],
  },
  {
    name: 'a paging query parameter: lists.paging contradicted (paged)',
    edit: ({ advanced }) =>
      advanced.paths['/vehicles'].get.parameters.push({ name: 'page', in: 'query', schema: { type: 'integer' } }),
    expected: [
      {
        operation: 'GET /vehicles',
        where: 'parameters.query.page',
        kind: 'request-field-added',
        assumption: { id: 'lists.paging', verdict: 'contradicted', alternative: 'paged' },
      },
    ],
  },
  {
    name: 'timestamps as date-time: time.zone contradicted (utc-suffix)',
    edit: ({ advanced }) =>
      (body(advanced, '/payments').properties.startedOn = { type: 'string', format: 'date-time' }),
    expected: [
      {
        operation: 'POST /payments',
        where: 'requestBody.application/json.startedOn',
        kind: 'request-field-format',
        relayMock: 'YYYY-MM-DD HH:MM:SS',
        theirs: 'date-time',
        assumption: { id: 'time.zone', verdict: 'contradicted', alternative: 'utc-suffix' },
      },
    ],
  },
  {
    name: 'country only `is`: vehicle.country contradicted (is-only)',
    edit: ({ advanced }) => (body(advanced, '/vehicles').properties.country = { type: 'string', enum: ['is'] }),
    expected: [
      {
        operation: 'POST /vehicles',
        where: 'requestBody.application/json.country',
        kind: 'request-field-enum',
        theirs: ['is'],
        assumption: { id: 'vehicle.country', verdict: 'contradicted', alternative: 'is-only' },
      },
    ],
  },
]

const plain: Array<{ name: string; edit: (docs: Docs) => void; expected: Partial<Difference>[] }> = [
  {
    name: 'a 201 without Location documented (create.status neither confirmed nor contradicted)',
    edit: ({ advanced }) => delete advanced.paths['/payments'].post.responses['201'].headers,
    expected: [{ operation: 'POST /payments', kind: 'answer-header' }],
  },
  {
    name: 'a 401 without WWW-Authenticate documented (auth.refusal neither confirmed nor contradicted)',
    edit: ({ advanced }) => delete advanced.paths['/vehicles'].get.responses['401'].headers,
    expected: [{ operation: 'GET /vehicles', kind: 'answer-header' }],
  },
  {
    name: 'an operation missing',
    edit: ({ advanced }) => delete advanced.paths['/custodians'],
    expected: [
      { operation: 'POST /custodians', where: 'paths', kind: 'missing-operation', relayMock: 'POST /custodians' },
    ],
  },
  {
    name: 'an operation added',
    edit: ({ advanced }) =>
      (advanced.paths['/locations'] = { get: { responses: { 200: { description: 'The locations' } } } }),
    expected: [{ operation: 'GET /locations', where: 'paths', kind: 'added-operation', theirs: 'GET /locations' }],
  },
  {
    name: 'a request field optional',
    edit: ({ advanced }) => (body(advanced, '/vehicles').required = ['plate']),
    expected: [
      {
        operation: 'POST /vehicles',
        where: 'requestBody.application/json.country',
        kind: 'request-field-required',
        relayMock: true,
        theirs: false,
      },
    ],
  },
  {
    name: 'a request field of another type',
    edit: ({ advanced }) => (body(advanced, '/payments').properties.amount.properties.amount = { type: 'string' }),
    expected: [
      {
        operation: 'POST /payments',
        where: 'requestBody.application/json.amount.amount',
        kind: 'request-field-type',
        relayMock: 'integer',
        theirs: 'string',
      },
    ],
  },
  {
    name: 'a request field of another format',
    edit: ({ simple }) => (body(simple, '/payment').properties.vehicle.properties.plate.format = 'byte'),
    expected: [
      {
        operation: 'POST /payment',
        where: 'requestBody.application/json.vehicle.plate',
        kind: 'request-field-format',
        relayMock: 'none',
        theirs: 'byte',
      },
    ],
  },
  {
    name: 'a request field with another enum',
    edit: ({ advanced }) => (body(advanced, '/payments').properties.amount.properties.currency.enum = ['ISK', 'EUR']),
    expected: [
      {
        operation: 'POST /payments',
        where: 'requestBody.application/json.amount.currency',
        kind: 'request-field-enum',
        relayMock: ['ISK'],
        theirs: ['ISK', 'EUR'],
      },
    ],
  },
  {
    name: 'a request field missing, and one added',
    edit: ({ advanced }) => {
      delete body(advanced, '/payments').properties.status
      body(advanced, '/payments').properties.reference = { type: 'string' }
    },
    expected: [
      { operation: 'POST /payments', where: 'requestBody.application/json.status', kind: 'request-field-missing' },
      {
        operation: 'POST /payments',
        where: 'requestBody.application/json.reference',
        kind: 'request-field-added',
        theirs: 'string',
      },
    ],
  },
  {
    name: 'a query parameter optional',
    edit: ({ advanced }) => (advanced.paths['/vehicles'].get.parameters[0].required = false),
    expected: [
      {
        operation: 'GET /vehicles',
        where: 'parameters.query.plate',
        kind: 'request-field-required',
        relayMock: true,
        theirs: false,
      },
    ],
  },
  {
    name: 'an answer status missing, and one added',
    edit: ({ advanced }) => {
      const ops = advanced.paths['/payments'].post.responses
      delete ops['413']
      ops['409'] = { description: 'A payment for this visit exists' }
    },
    expected: [
      { operation: 'POST /payments', where: 'responses.413', kind: 'answer-status-missing', relayMock: '413' },
      {
        operation: 'POST /payments',
        where: 'responses.409',
        kind: 'answer-status-added',
        theirs: '409',
        finding: 'The service documents 409: A payment for this visit exists.',
      },
    ],
  },
  {
    name: 'an answer media type missing',
    edit: ({ simple }) => delete simple.paths['/payment'].post.responses['401'].content['application/problem+json'],
    expected: [
      {
        operation: 'POST /payment',
        where: 'responses.401.application/problem+json',
        kind: 'answer-media-type',
        relayMock: 'application/problem+json',
        theirs: ['application/json'],
      },
    ],
  },
  {
    name: 'an answer media type added',
    edit: ({ advanced }) =>
      (advanced.paths['/vehicles'].post.responses['201'].content['application/xml'] = { schema: { type: 'string' } }),
    expected: [
      {
        operation: 'POST /vehicles',
        where: 'responses.201.application/xml',
        kind: 'answer-media-type',
        theirs: 'application/xml',
      },
    ],
  },
  {
    name: 'an answer field missing, and one of another type',
    edit: ({ advanced }) => {
      const item = advanced.paths['/rental-companies'].get.responses['200'].content['application/json'].schema.items
      delete item.properties.name
      item.properties.kennitala = { type: 'integer' }
    },
    expected: [
      {
        operation: 'GET /rental-companies',
        where: 'responses.200.application/json[].name',
        kind: 'answer-field-missing',
      },
      {
        operation: 'GET /rental-companies',
        where: 'responses.200.application/json[].kennitala',
        kind: 'answer-field-type',
        relayMock: 'string',
        theirs: 'integer',
      },
    ],
  },
  {
    name: 'an answer field optional, and one with an enum',
    edit: ({ advanced }) => {
      const created = advanced.paths['/payments'].post.responses['201'].content['application/json'].schema
      const json = created.anyOf ? created.anyOf[0] : created
      json.required = ['id']
      json.properties.link.format = 'uri-reference'
    },
    expected: [
      {
        operation: 'POST /payments',
        where: 'responses.201.application/json.link',
        kind: 'answer-field-required',
        relayMock: true,
        theirs: false,
      },
      {
        operation: 'POST /payments',
        where: 'responses.201.application/json.link',
        kind: 'answer-field-format',
        theirs: 'uri-reference',
      },
    ],
  },
]

describe('compareOpenApi', () => {
  it("finds nothing between relay-mock's own documents, and confirms every assumption they touch", () => {
    const comparison = compareEdited()
    expect(comparison.differences.filter((d) => d.kind !== 'agreement')).toEqual([])
    expect(comparison.contradicted).toBe(0)
    expect(comparison.findings).toBe(0)
    expect(comparison.notes).toEqual([])
    const confirmed = new Set(comparison.differences.map((d) => d.assumption?.id))
    for (const id of [
      'create.status',
      'invalid.status',
      'error.body',
      'auth.refusal',
      'simple.answer',
      'simple.refusal-status',
      'records.extra-fields',
      'links.fetchable',
      'slip.path',
      'slip.method',
      'lists.paging',
    ]) {
      expect(confirmed, id).toContain(id)
    }
  })

  it.each(verdicts)('$name', ({ edit, expected }) => {
    const comparison = compareEdited(edit)
    for (const difference of expected)
      expect(comparison.differences).toContainEqual(expect.objectContaining(difference))
    expect(comparison.contradicted).toBeGreaterThan(0)
    // Nothing else in the documents moved: every contradiction is the edit's.
    for (const d of contradictions(comparison)) expect(d.assumption!.id).toBe(expected[0].assumption!.id)
  })

  it.each(plain)('$name: a finding, no assumption contradicted', ({ edit, expected }) => {
    const comparison = compareEdited(edit)
    for (const difference of expected) expect(findings(comparison)).toContainEqual(expect.objectContaining(difference))
    expect(contradictions(comparison)).toEqual([])
    expect(findings(comparison)).toHaveLength(expected.length)
  })

  it('ties each difference to an assumption and an alternative the ledger has', () => {
    for (const { edit } of [...verdicts, ...plain]) {
      for (const d of compareEdited(edit).differences) {
        if (!d.assumption) continue
        const entry = ASSUMPTIONS.find((a) => a.id === d.assumption!.id)
        expect(entry, d.assumption.id).toBeDefined()
        if (d.assumption.alternative)
          expect(
            entry!.alternatives.map((a) => a.id),
            d.assumption.id,
          ).toContain(d.assumption.alternative)
      }
    }
  })

  it('reports no answer that only a fault relay-mock injects gives, and still reports a real difference beside it', () => {
    /** Whether relay-mock's document marks the answer as a fault's only. */
    const fault = (answer: any) => Boolean(answer?.['x-relay-fault'])
    let removed = 0
    const comparison = compareEdited(({ advanced, simple }) => {
      for (const doc of [advanced, simple]) {
        for (const item of Object.values<any>(doc.paths)) {
          for (const op of Object.values<any>(item)) {
            for (const [status, response] of Object.entries<any>(op.responses)) {
              if (fault(response)) {
                delete op.responses[status]
                removed++
                continue
              }
              for (const [media, content] of Object.entries<any>(response.content ?? {})) {
                if (fault(content)) {
                  delete response.content[media]
                  removed++
                }
              }
            }
          }
        }
      }
      delete advanced.paths['/payments'].post.responses['415']
    })
    // 429, 500 and 503 on each faultable operation, and the garbage fault's HTML page beside its answers.
    expect(removed).toBeGreaterThan(20)
    expect(findings(comparison)).toEqual([
      expect.objectContaining({
        operation: 'POST /payments',
        where: 'responses.415',
        kind: 'answer-status-missing',
        relayMock: '415',
      }),
    ])
    expect(comparison.contradicted).toBe(0)
  })

  it("marks as a fault's only the answers only a fault gives", () => {
    const responses = openApiJson('advanced').paths['/vehicles'].post.responses
    expect(responses['503']['x-relay-fault']).toEqual(['unavailable'])
    expect(responses['201']['x-relay-fault']).toBeUndefined()
    expect(responses['201'].content!['text/html']['x-relay-fault']).toEqual(['garbage'])
    expect(responses['201'].content!['application/json']['x-relay-fault']).toBeUndefined()
    // 401 is also the token check's answer: relay-mock's own, whatever the fault token-revoked adds.
    expect(responses['401']['x-relay-fault']).toBeUndefined()
    expect(responses['413']['x-relay-fault']).toBeUndefined()
  })

  it('matches a path whose parameter has another name', () => {
    const comparison = compareEdited(({ advanced }) => {
      advanced.paths['/vehicles/{vehicleId}'] = advanced.paths['/vehicles/{id}']
      advanced.paths['/vehicles/{vehicleId}'].get.parameters[0].name = 'vehicleId'
      delete advanced.paths['/vehicles/{id}']
    })
    expect(comparison.differences.filter((d) => d.kind !== 'agreement')).toEqual([])
  })

  it('strips a base path written into every path, and says so', () => {
    const comparison = compareEdited(({ advanced }) => {
      advanced.paths = Object.fromEntries(
        Object.entries(advanced.paths).map(([path, item]) => [`/api/v1${path}`, item]),
      )
    })
    expect(comparison.notes).toEqual([
      'advanced.json: every path starts with /api/v1, a base path: compared without it.',
    ])
    expect(comparison.differences.filter((d) => d.kind !== 'agreement')).toEqual([])
  })

  it('names the base path of servers[0].url', () => {
    const comparison = compareEdited(({ advanced }) => (advanced.servers = [{ url: 'https://relay.example.com/v1/' }]))
    expect(comparison.notes).toEqual([
      "advanced.json: its paths are relative to the base path /v1 (servers[0].url), as relay-mock's are to {base_url}.",
    ])
    expect(comparison.contradicted).toBe(0)
  })

  it('compares only the integration a lone document describes, and says which it left out', () => {
    const comparison = compareEdited(undefined, 'advanced')
    expect(comparison.notes).toEqual([
      'No document given describes the simple integration (POST /payment): its operations were not compared.',
    ])
    expect(comparison.differences.some((d) => d.operation === 'POST /payment')).toBe(false)
    expect(comparison.contradicted + comparison.findings).toBe(0)
  })

  it('reads errors that carry more than `message` as contradicting error.body without an alternative', () => {
    const comparison = compareEdited(({ advanced }) => {
      const response = advanced.paths['/vehicles/{id}'].get.responses['404']
      response.content = {
        'application/json': {
          schema: { type: 'object', properties: { error: { type: 'string' }, code: { type: 'integer' } } },
        },
      }
      delete advanced.paths['/vehicles/{id}'].get.responses['401']
    })
    const [error] = only(comparison, 'GET /vehicles/{id}').filter((d) => d.assumption?.id === 'error.body')
    expect(error).toMatchObject({
      assumption: { id: 'error.body', verdict: 'contradicted' },
      finding: 'Its error answers carry no `message`.',
    })
    expect(error.assumption!.alternative).toBeUndefined()
  })
})
