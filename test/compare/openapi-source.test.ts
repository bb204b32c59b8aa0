// readOpenApi: a document from a file or a URL, with the files its $refs name, validated and with its
// $refs resolved by the parser; anything that stops a comparison is one RelayMockError line naming the
// document.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareOpenApi } from '../../src/core/openapi/compare.js'
import { RelayMockError } from '../../src/core/errors.js'
import { toOpenApi } from '../../src/core/openapi/documents.js'
import { openApiJson } from '../support/openapi-json.js'
import { OPENAPI_MAX_FILES, readOpenApi } from '../../src/node/files/openapi-source.js'
import { writeSplit } from '../support/split-openapi.js'

const fixture = fileURLToPath(new URL('fixtures/service-advanced.yaml', import.meta.url))
let dir: string
let server: http.Server
let base: string
const hung: http.ServerResponse[] = []
/** How often the server was asked for each path. */
const asked = new Map<string, number>()

beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-openapi-'))
  server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    asked.set(path, (asked.get(path) ?? 0) + 1)
    if (path === '/openapi/advanced.json') response.end(JSON.stringify(toOpenApi('advanced')))
    else if (path === '/hang') hung.push(response)
    // The files written under the temporary folder, as a web server would publish them.
    else if (path.startsWith('/files/')) {
      readFile(join(dir, decodeURIComponent(path.slice('/files/'.length)))).then(
        (text) => response.end(text),
        () => response.writeHead(404).end('Not Found'),
      )
    } else response.writeHead(404).end('Not Found')
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
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
  return path
}

describe('readOpenApi', () => {
  it('reads a YAML document and resolves its $refs', async () => {
    const { document } = (await readOpenApi(fixture)) as { document: any }
    const created = document.paths['/vehicles'].post.responses['200']
    expect(created.$ref).toBeUndefined()
    expect(created.content['application/json'].schema.properties).toHaveProperty('link')
    expect(
      document.paths['/vehicles'].get.responses['200'].content['application/json'].schema.items.properties,
    ).toHaveProperty('createdAt')
  })

  it('gives the comparison what the $refs hold', async () => {
    const comparison = compareOpenApi([await readOpenApi(fixture)])
    const tied = (id: string) =>
      comparison.differences.filter((d) => d.assumption?.id === id && d.assumption.verdict === 'contradicted')
    // Each of these is reached only through a $ref (components.responses, components.schemas).
    expect(tied('create.status').map((d) => d.operation)).toEqual([
      'POST /vehicles',
      'POST /custodians',
      'POST /payments',
    ])
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
    expect(await refusal(await written('broken.json', '{"openapi": "3.0.3",\n'))).toContain(
      'it is neither JSON nor YAML',
    )
  })

  it('refuses an empty file, and one holding a bare value, as no document', async () => {
    for (const [name, text] of [
      ['empty.json', ''],
      ['blank.yaml', '  \n'],
      ['null.json', 'null'],
      ['number.json', '42\n'],
      ['list.json', '[1, 2]'],
    ]) {
      expect(await refusal(await written(name, text)), name).toContain(
        'it is not an OpenAPI document (it holds no JSON or YAML object)',
      )
    }
  })

  it('refuses a Swagger 2.0 document', async () => {
    expect(
      await refusal(
        await written('swagger.json', '{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}\n'),
      ),
    ).toContain('it is a Swagger 2.0 document; relay-mock compare reads OpenAPI 3 documents')
  })

  it('refuses an invalid document, naming where', async () => {
    const path = await written('invalid.json', '{"openapi": "3.0.3", "info": {"title": "x"}, "paths": {}}\n')
    expect(await refusal(path)).toContain(
      "it is not a valid OpenAPI document: at /info it must have required property 'version'",
    )
  })

  it('refuses a $ref that names nothing', async () => {
    const path = await written(
      'dangling.json',
      '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/vehicles": {"get": {"responses": {"200": {"$ref": "#/components/responses/Ok"}}}}}}\n',
    )
    expect(await refusal(path)).toContain('a $ref names nothing in it (#/components/responses/Ok)')
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

describe('readOpenApi with a document split across files', () => {
  it('reads the files its $refs name, relative to its own path, and resolves it as the document it was split from', async () => {
    const split = await readOpenApi(await writeSplit(join(dir, 'split')))
    const original = await readOpenApi(await written('original.json', JSON.stringify(toOpenApi('advanced'))))
    expect(split.document).toEqual(original.document)
    const { differences, contradicted, findings } = compareOpenApi([split])
    expect({ differences, contradicted, findings }).toEqual(
      (({ differences, contradicted, findings }) => ({ differences, contradicted, findings }))(
        compareOpenApi([original]),
      ),
    )
  })

  it('reads the files its $refs name relative to its URL, each once', async () => {
    await writeSplit(join(dir, 'served'))
    const split = await readOpenApi(`${base}/files/served/advanced.json`)
    expect(split.document).toEqual(toOpenApi('advanced'))
    for (const file of [
      'advanced.json',
      'schemas/vehicle.json',
      'schemas/payment.yaml',
      'common/money.yaml',
      'paths/custodians.json',
    ])
      expect(asked.get(`/files/served/${file}`), file).toBe(1)
  })

  it('follows a $ref back into the document, and $refs that name each other', async () => {
    const main = openApiJson('simple')
    main.components.schemas = { Plate: { type: 'string', description: 'from the document itself' } }
    main.paths['/payment'].post.requestBody.content['application/json'].schema.properties.vehicle = {
      $ref: 'parts/a.json#/Vehicle',
    }
    await written(
      'cycle/parts/a.json',
      JSON.stringify({
        Vehicle: {
          type: 'object',
          properties: {
            plate: { $ref: '../simple.json#/components/schemas/Plate' },
            custodian: { $ref: 'b.json#/Custodian' },
          },
        },
      }),
    )
    await written(
      'cycle/parts/b.json',
      JSON.stringify({ Custodian: { type: 'object', properties: { vehicle: { $ref: 'a.json#/Vehicle' } } } }),
    )
    const { document } = (await readOpenApi(await written('cycle/simple.json', JSON.stringify(main)))) as {
      document: any
    }
    const vehicle = document.paths['/payment'].post.requestBody.content['application/json'].schema.properties.vehicle
    expect(vehicle.properties.plate.description).toBe('from the document itself')
    expect(vehicle.properties.custodian.properties.vehicle).toBe(vehicle)
    expect(document).not.toHaveProperty('x-inlined-refs')
  })

  it('follows a component that is a $ref to a file, and a file whose part is a $ref to a deeper file', async () => {
    const main = openApiJson('advanced')
    const body = main.paths['/vehicles'].post.requestBody.content['application/json']
    await written(
      'chain/schemas/vehicle.json',
      JSON.stringify({ VehicleBody: { $ref: 'deeper/vehicle.json#/VehicleBody' } }),
    )
    await written('chain/schemas/deeper/vehicle.json', JSON.stringify({ VehicleBody: body.schema }))
    main.components.schemas = { VehicleBody: { $ref: 'schemas/vehicle.json#/VehicleBody' } }
    body.schema = { $ref: '#/components/schemas/VehicleBody' }
    const { document } = (await readOpenApi(await written('chain/advanced.json', JSON.stringify(main)))) as {
      document: any
    }
    expect(document.paths['/vehicles'].post.requestBody.content['application/json'].schema).toEqual(
      openApiJson('advanced').paths['/vehicles'].post.requestBody.content['application/json'].schema,
    )
  })

  it('refuses a $ref to a $ref it cannot follow, rather than compare an empty schema', async () => {
    const main = openApiJson('advanced')
    const body = main.paths['/vehicles'].post.requestBody.content['application/json']
    // A component that is a $ref to a later component that is a $ref in turn.
    main.components.schemas = {
      VehicleBody: { $ref: '#/components/schemas/NewVehicle' },
      NewVehicle: { $ref: '#/components/schemas/Vehicle' },
      Vehicle: body.schema,
    }
    body.schema = { $ref: '#/components/schemas/VehicleBody' }
    const path = await written('chain-unfollowed/advanced.json', JSON.stringify(main))
    expect(await refusal(path)).toContain(
      `: the $ref #/components/schemas/Vehicle in ${path} is itself named by a $ref, and relay-mock compare follows $refs one deep. Please point the $refs that name it at what it names (#/components/schemas/Vehicle).`,
    )
  })

  it('refuses a $ref to a file that is not there, naming the $ref, the file it is in and the file it names', async () => {
    const main = await writeSplit(join(dir, 'missing'))
    await rm(join(dir, 'missing/common/money.yaml'))
    const message = await refusal(main)
    expect(message).toBe(
      `Failed to read the OpenAPI document ${main}: the $ref ../common/money.yaml#/Money in ${join(dir, 'missing/schemas/payment.yaml')} names ${join(dir, 'missing/common/money.yaml')}, which cannot be read: there is no such file. Please check the $ref: a relative $ref names a file relative to the file it is in.`,
    )
  })

  it('refuses a $ref to a file that is neither JSON nor YAML', async () => {
    const main = await writeSplit(join(dir, 'broken'))
    await written('broken/schemas/vehicle.json', '{"VehicleBody": {\n')
    expect(await refusal(main)).toContain(
      `: the $ref schemas/vehicle.json#/VehicleBody in ${main} names ${join(dir, 'broken/schemas/vehicle.json')}, which cannot be read: it is neither JSON nor YAML. Please write each file a $ref names as JSON or YAML`,
    )
  })

  it('refuses a $ref whose part names nothing in its file', async () => {
    const main = await writeSplit(join(dir, 'dangling-part'))
    await written('dangling-part/schemas/vehicle.json', JSON.stringify({ Vehicle: {} }))
    expect(await refusal(main)).toContain(
      `: the $ref schemas/vehicle.json#/VehicleBody in ${main} names nothing in ${join(dir, 'dangling-part/schemas/vehicle.json')}.`,
    )
  })

  it('refuses a $ref to a URL that answers 404, naming the status', async () => {
    await writeSplit(join(dir, 'gone'))
    await rm(join(dir, 'gone/schemas/payment.yaml'))
    const url = `${base}/files/gone/advanced.json`
    expect(await refusal(url)).toContain(
      `: the $ref ./schemas/payment.yaml#/PaymentBody in ${url} names ${base}/files/gone/schemas/payment.yaml, which cannot be read: the server answered 404 Not Found.`,
    )
  })

  it('refuses a document from a URL whose $ref names a file of this machine', async () => {
    const main = openApiJson('simple')
    main.paths['/payment'].post.requestBody.content['application/json'].schema = {
      $ref: `file://${join(dir, 'split/schemas/vehicle.json')}#/VehicleBody`,
    }
    await written('local-ref/simple.json', JSON.stringify(main))
    expect(await refusal(`${base}/files/local-ref/simple.json`)).toContain('which a document read from a URL may not')
  })

  it(`refuses a document whose $refs name more than ${OPENAPI_MAX_FILES} files, in one line`, async () => {
    const main = openApiJson('simple')
    const properties = main.paths['/payment'].post.requestBody.content['application/json'].schema.properties
    for (let i = 0; i <= OPENAPI_MAX_FILES; i++) {
      await written(`many/parts/${i}.json`, '{"Field": {"type": "string"}}')
      properties[`field${i}`] = { $ref: `parts/${i}.json#/Field` }
    }
    const path = await written('many/simple.json', JSON.stringify(main))
    expect(await refusal(path)).toContain(
      `: its $refs name more than ${OPENAPI_MAX_FILES} files, and relay-mock compare reads at most ${OPENAPI_MAX_FILES} (the one over: the $ref parts/${OPENAPI_MAX_FILES}.json#/Field in ${path}). Please bundle its files into one first`,
    )
  })
})
