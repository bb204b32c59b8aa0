// readOpenApi: a document from a file or a URL, validated and with its $refs resolved by the parser;
// anything that stops a comparison is one RelayMockError line naming the document.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareOpenApi } from '../../src/core/compare.js'
import { RelayMockError } from '../../src/core/errors.js'
import { toOpenApi } from '../../src/core/openapi.js'
import { readOpenApi } from '../../src/node/openapi-source.js'

const fixture = fileURLToPath(new URL('fixtures/service-advanced.yaml', import.meta.url))
let dir: string
let server: http.Server
let base: string
const hung: http.ServerResponse[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-openapi-'))
  server = http.createServer((request, response) => {
    if (request.url === '/openapi/advanced.json') response.end(JSON.stringify(toOpenApi('advanced')))
    else if (request.url === '/hang') hung.push(response)
    else response.writeHead(404).end('Not Found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const response of hung) response.destroy()
  await new Promise((resolve) => server.close(resolve))
  await rm(dir, { recursive: true, force: true })
})

/** The one line readOpenApi refuses `source` with. */
async function refusal(source: string, options?: { timeoutMs?: number }): Promise<string> {
  const error = await readOpenApi(source, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RelayMockError)
  const message = (error as RelayMockError).message
  expect(message).not.toContain('\n')
  expect(message.startsWith(`Failed to read the OpenAPI document ${source}: `)).toBe(true)
  return message
}

async function written(name: string, text: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, text)
  return path
}

describe('readOpenApi', () => {
  it('reads a YAML document and resolves its $refs', async () => {
    const { document } = (await readOpenApi(fixture)) as { document: any }
    const created = document.paths['/vehicles'].post.responses['200']
    expect(created.$ref).toBeUndefined()
    expect(created.content['application/json'].schema.properties).toHaveProperty('link')
    expect(document.paths['/vehicles'].get.responses['200'].content['application/json'].schema.items.properties).toHaveProperty('createdAt')
  })

  it('gives the comparison what the $refs hold', async () => {
    const comparison = compareOpenApi([await readOpenApi(fixture)])
    const tied = (id: string) => comparison.differences.filter((d) => d.assumption?.id === id && d.assumption.verdict === 'contradicted')
    // Each of these is reached only through a $ref (components.responses, components.schemas).
    expect(tied('create.status').map((d) => d.operation)).toEqual(['POST /vehicles', 'POST /custodians', 'POST /payments'])
    expect(tied('error.body')[0].assumption!.alternative).toBe('json-message')
    expect(tied('records.extra-fields').map((d) => d.where)).toEqual(['responses.200.application/json[].createdAt'])
    expect(tied('slip.path')).toHaveLength(1)
  })

  it('reads a document on one line', async () => {
    const path = await written('one-line.json', JSON.stringify(toOpenApi('simple')))
    const { document } = (await readOpenApi(path)) as { document: any }
    expect(document.paths['/payment'].post).toBeDefined()
  })

  it('reads a document from a URL', async () => {
    const { document } = (await readOpenApi(`${base}/openapi/advanced.json`)) as { document: any }
    expect(compareOpenApi([{ source: 'url', document }]).contradicted).toBe(0)
  })

  it('refuses a missing file', async () => {
    expect(await refusal(join(dir, 'missing.json'))).toContain(': there is no such file.')
  })

  it('refuses a file that is neither JSON nor YAML', async () => {
    expect(await refusal(await written('broken.json', '{"openapi": "3.0.3",\n'))).toContain('it is neither JSON nor YAML')
  })

  it('refuses a Swagger 2.0 document', async () => {
    expect(await refusal(await written('swagger.json', '{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}\n'))).toContain('it is a Swagger 2.0 document; relay-mock compare reads OpenAPI 3 documents')
  })

  it('refuses an invalid document, naming where', async () => {
    const path = await written('invalid.json', '{"openapi": "3.0.3", "info": {"title": "x"}, "paths": {}}\n')
    expect(await refusal(path)).toContain("it is not a valid OpenAPI document: at /info it must have required property 'version'")
  })

  it('refuses a $ref that names nothing', async () => {
    const path = await written('dangling.json', '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/vehicles": {"get": {"responses": {"200": {"$ref": "#/components/responses/Ok"}}}}}}\n')
    expect(await refusal(path)).toContain('a $ref names nothing in it (#/components/responses/Ok)')
  })

  it('refuses an external $ref, saying how to bundle', async () => {
    const path = await written('external.json', '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/vehicles": {"get": {"responses": {"200": {"$ref": "other.json#/Ok"}}}}}}\n')
    expect(await refusal(path)).toContain('a $ref points outside it (other.json#/Ok). Please bundle its files into one first')
  })

  it('refuses a URL that answers 404', async () => {
    expect(await refusal(`${base}/openapi/nope.json`)).toContain('the server answered 404 Not Found')
  })

  it('refuses an unreachable URL', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    expect(await refusal(`http://127.0.0.1:${port}/openapi.json`)).toContain('it could not be fetched (ECONNREFUSED)')
  })

  it('gives up on a URL that does not answer within the timeout', async () => {
    expect(await refusal(`${base}/hang`, { timeoutMs: 200 })).toContain('no answer within 0.2 s')
  })

  it('refuses a scheme other than file and http(s)', async () => {
    expect(await refusal('ftp://relay.example.com/openapi.json')).toContain('it is neither a file nor an http(s) URL')
  })
})
