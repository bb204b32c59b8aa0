// The published OpenAPI documents: valid OpenAPI 3 (checked by a standard validator), served by
// both transports, and generated from the schemas that validate requests.
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'
import * as schemas from '../../src/core/service/schemas.js'
import { transports, type Client } from '../support/transports.js'

describe.each(transports)('OpenAPI documents over $name', (transport) => {
  let service: RelayService
  let client: Client
  const documents: Record<string, any> = {}
  beforeAll(async () => {
    service = await createServedService()
    client = await transport.connect(service)
    for (const name of ['advanced', 'simple']) {
      const answer = await client.request('GET', `/openapi/${name}.json`)
      expect(answer.status).toBe(200)
      documents[name] = answer.body
    }
  })
  afterAll(() => client.close())

  it.each(['advanced', 'simple'])('/openapi/%s.json is a valid OpenAPI 3 document', async (name) => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(documents[name]))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toMatch(/^3\./)
  })

  it('the advanced document has the five endpoints and the links, the simple one only POST /payment', () => {
    const operations = (doc: any) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`),
      )
    expect(operations(documents.advanced).sort()).toEqual(
      [
        'GET /rental-companies',
        'GET /vehicles',
        'POST /vehicles',
        'POST /custodians',
        'POST /payments',
        'GET /rental-companies/{id}',
        'GET /vehicles/{id}',
        'GET /custodians/{id}',
        'GET /payments/{id}',
      ].sort(),
    )
    expect(operations(documents.simple)).toEqual(['POST /payment'])
  })

  it("carries the kennitala schema's pattern and description in the query parameter", () => {
    const kennitala = z.toJSONSchema(schemas.kennitala) as { pattern: string; description: string }
    const [parameter] = documents.advanced.paths['/rental-companies'].get.parameters
    expect(parameter).toMatchObject({ name: 'kennitala', in: 'query', required: true })
    expect(parameter.schema.pattern).toBe(kennitala.pattern)
    expect(parameter.description).toBe(kennitala.description)
  })

  it('carries the currency enum ISK in both integrations', () => {
    const advanced = documents.advanced.paths['/payments'].post.requestBody.content['application/json'].schema
    const simple = documents.simple.paths['/payment'].post.requestBody.content['application/json'].schema
    expect(advanced.properties.amount.properties.currency.enum).toEqual(['ISK'])
    expect(simple.properties.payment.properties.currency.enum).toEqual(['ISK'])
  })

  it('requires exactly the fields the schemas require', () => {
    const simple = documents.simple.paths['/payment'].post.requestBody.content['application/json'].schema
    expect(simple.required.sort()).toEqual(Object.keys(schemas.simplePaymentBody.shape).sort())
    expect(simple.additionalProperties).toBe(false)
    const payment = documents.advanced.paths['/payments'].post.requestBody.content['application/json'].schema
    expect(payment.required.sort()).toEqual(['amount', 'endedOn', 'locationId', 'startedOn', 'vehicleId'])
  })

  it('carries the form of timestamps and dates as patterns that agree with the mock', () => {
    const simple = documents.simple.paths['/payment'].post.requestBody.content['application/json'].schema.properties
    const custodian =
      documents.advanced.paths['/custodians'].post.requestBody.content['application/json'].schema.properties
    const fields: Array<[string, { pattern: string }, z.ZodType]> = [
      ['visit.startedOn', simple.visit.properties.startedOn, schemas.timestamp],
      ['vehicle.acquiredOn', simple.vehicle.properties.acquiredOn, schemas.date],
      ['acquiredOn', custodian.acquiredOn, schemas.acquiredOnAdvanced],
    ]
    // Values whose form is right or wrong, all of real calendar days: the pattern and the schema must agree.
    for (const [field, property, schema] of fields) {
      for (const value of [
        '2026-11-21 09:14:05',
        '2026-11-21',
        '2026-11-21T09:14:05',
        '21.11.2026',
        '2026-11-21 09:14',
      ]) {
        expect(new RegExp(property.pattern).test(value), `${field} ${value}`).toBe(schema.safeParse(value).success)
      }
    }
  })

  it('gives the UUID pattern the same case rule as the mock', () => {
    const pattern =
      documents.advanced.paths['/payments'].post.requestBody.content['application/json'].schema.properties.locationId
        .pattern
    const upper = '3F2B8C1E-5D4A-4E6B-9C7D-1A2B3C4D5E6F'
    expect(schemas.uuid.safeParse(upper).success).toBe(true)
    expect(new RegExp(pattern).test(upper)).toBe(true)
  })

  it('describes the amount as a positive integer', () => {
    const amount =
      documents.advanced.paths['/payments'].post.requestBody.content['application/json'].schema.properties.amount
        .properties.amount
    expect(amount.type).toBe('integer')
    expect(amount).toMatchObject({ minimum: 0, exclusiveMinimum: true })
  })

  it('documents the bearer token on every operation', () => {
    expect(documents.advanced.security).toEqual([{ bearer: [] }])
    expect(documents.advanced.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })
})
