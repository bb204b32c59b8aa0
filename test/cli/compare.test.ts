// `relay-mock compare` as a user runs it: relay-mock's own documents compare clean (exit 0), an edited copy
// names what it contradicts (exit 1), and a document that cannot be read is one line and exit 2.
import { readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toOpenApi } from '../../src/core/openapi/documents.js'
import { openApiJson } from '../support/openapi-json.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { createServedService } from '../support/service.js'
import { ROOT, runCli, useBuiltCli } from '../support/cli.js'
import { closedPort } from '../support/proxy.js'
import { writeSplit } from '../support/split-openapi.js'

const scratch = useBuiltCli('relay-mock-compare-')

const relayMock = (...args: string[]) => runCli(args)

let advanced: string
let simple: string
let edited: string
let served: http.Server
let baseUrl: string

beforeAll(async () => {
  // relay-mock's documents as GET /openapi/*.json serves them.
  served = createServer(await createServedService())
  baseUrl = await listen(served, { port: 0 })
  advanced = join(scratch(), 'advanced.json')
  simple = join(scratch(), 'simple.json')
  edited = join(scratch(), 'edited.json')
  await writeFile(advanced, JSON.stringify(toOpenApi('advanced'), null, 2))
  await writeFile(simple, JSON.stringify(toOpenApi('simple'), null, 2))
  const copy = openApiJson('advanced')
  const responses = copy.paths['/vehicles'].post.responses
  responses['200'] = {
    description: 'Created',
    content: { 'application/json': responses['201'].content['application/json'] },
  }
  delete responses['201']
  await writeFile(edited, JSON.stringify(copy))
})
afterAll(() => close(served))

describe('relay-mock compare', () => {
  it("compares relay-mock's own documents clean: exit 0", async () => {
    const run = await relayMock('compare', advanced, simple)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Compared ${advanced}, ${simple} with relay-mock `)
    expect(run.stdout).toMatch(
      /^POST \/vehicles\n {2}✓ confirms create\.status, invalid\.status, auth\.refusal, error\.body, records\.extra-fields$/m,
    )
    expect(run.stdout).toMatch(/^nothing contradicted, \d+ confirmed, 0 findings\.$/m)
    expect(run.stdout).not.toContain('✗')
  })

  it('compares the documents a running relay-mock serves clean: exit 0', async () => {
    const run = await relayMock('compare', `${baseUrl}/openapi/advanced.json`, `${baseUrl}/openapi/simple.json`)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^nothing contradicted, \d+ confirmed, 0 findings\.$/m)
  })

  it('names the assumption an edited copy contradicts: exit 1', async () => {
    const run = await relayMock('compare', edited)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '  ✗ create.status contradicted (200-no-location): responses.201: relay-mock 201 with Location, the service 200.',
    )
    expect(run.stdout).toContain(
      'No document given describes the simple integration (POST /payment): its operations were not compared.',
    )
    expect(run.stdout).toMatch(/^1 contradicted, \d+ confirmed, 0 findings\.$/m)
  })

  it('prints the comparison as JSON with --json', async () => {
    const run = await relayMock('compare', edited, simple, '--json')
    expect(run.code).toBe(1)
    const json = JSON.parse(run.stdout)
    expect(json.documents).toEqual([edited, simple])
    expect(json.contradicted).toBe(1)
    expect(json.differences).toContainEqual({
      operation: 'POST /vehicles',
      where: 'responses.201',
      kind: 'answer-status-missing',
      relayMock: '201 with Location',
      theirs: '200',
      assumption: { id: 'create.status', verdict: 'contradicted', alternative: '200-no-location' },
      finding: 'The service documents 200 for a create, not 201.',
    })
  })

  it('refuses a document that cannot be read in one line: exit 2', async () => {
    const missing = join(scratch(), 'missing.json')
    const run = await relayMock('compare', advanced, missing)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `Failed to read the OpenAPI document ${missing}: there is no such file. Please give an OpenAPI 3 document (JSON or YAML) as a file or an http(s) URL.\n`,
    )
  })

  it('refuses an invalid document in one line: exit 2', async () => {
    const invalid = join(scratch(), 'invalid.json')
    await writeFile(invalid, '{"openapi": "3.0.3", "paths": {}}\n')
    const run = await relayMock('compare', invalid)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      /^Failed to read the OpenAPI document .*invalid\.json: it is not a valid OpenAPI document: at \/ it must have required property 'info'\. [^\n]+\n$/,
    )
  })

  it('refuses an unreachable URL in one line: exit 2', async () => {
    const url = `${await closedPort()}/openapi/advanced.json`
    const run = await relayMock('compare', url, '--timeout', '5')
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `Failed to read the OpenAPI document ${url}: it could not be fetched (ECONNREFUSED). Please check the URL and that this machine can reach it (--timeout gives it longer).\n`,
    )
    expect(run.stderr).not.toMatch(/^\s*at /m)
  })

  it('compares a document split across files as the one it was split from', async () => {
    const split = await writeSplit(join(scratch(), 'split'))
    const [whole, parts] = await Promise.all([
      relayMock('compare', advanced, '--json'),
      relayMock('compare', split, '--json'),
    ])
    expect(parts.stderr).toBe('')
    expect(parts.code).toBe(whole.code)
    expect({ ...JSON.parse(parts.stdout), documents: [] }).toEqual({ ...JSON.parse(whole.stdout), documents: [] })
  })

  it('refuses a document whose $ref names a missing file in one line, naming both: exit 2', async () => {
    const split = await writeSplit(join(scratch(), 'split-missing'))
    const missing = join(scratch(), 'split-missing/schemas/vehicle.json')
    await rm(missing)
    const run = await relayMock('compare', split)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `Failed to read the OpenAPI document ${split}: the $ref schemas/vehicle.json#/VehicleBody in ${split} names ${missing}, which cannot be read: there is no such file. Please check the $ref: a relative $ref names a file relative to the file it is in.\n`,
    )
  })

  it('refuses a bad --timeout like any option: exit 2', async () => {
    const run = await relayMock('compare', advanced, '--timeout', 'soon')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^relay-mock compare: --timeout "soon" [^\n]+\n$/)
  })

  it('asks for a document when none is given: exit 2', async () => {
    const run = await relayMock('compare')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^relay-mock compare: [^\n]+\n$/)
  })

  it('prints for its fixture the report docs/compare.md shows', async () => {
    const run = await relayMock('compare', 'test/compare/fixtures/service-advanced.yaml')
    expect(run.code).toBe(1)
    const page = await readFile(join(ROOT, 'docs/compare.md'), 'utf8')
    const shown = /```text\n([\s\S]*?)```/.exec(page)![1].split('\n...\n\n')
    expect(shown).toHaveLength(2)
    expect(run.stdout).toContain(shown[0])
    expect(run.stdout.endsWith(shown[1])).toBe(true)
  })
})
