// relay-mock's advanced OpenAPI document split across files by hand, as services publish theirs: what
// `relay-mock compare` must read as the one document it was split from.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { openApiJson } from './openapi-json.js'

async function write(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
  return path
}

/** YAML for plain data: block mappings and sequences, every scalar in JSON's quoting (which YAML reads alike). */
function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value))
    return value.map((item) => `\n${indent}- ${toYaml(item, `${indent}  `).trimStart()}`).join('')
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(
        ([key, item]) =>
          `\n${indent}${JSON.stringify(key)}:${item && typeof item === 'object' && Object.keys(item).length > 0 ? toYaml(item, `${indent}  `) : ` ${JSON.stringify(item)}`}`,
      )
      .join('')
  }
  return ` ${JSON.stringify(value)}`
}

/**
 * relay-mock's advanced document split by hand into `folder`: two request bodies moved into files of a
 * subfolder (one in YAML, whose money object is in a third file one folder up) and a whole path item into
 * a file of its own. Resolved, it is the document it was split from. Returns the main file's path.
 * @example await readOpenApi(await writeSplit(join(dir, 'split')))
 */
export async function writeSplit(folder: string): Promise<string> {
  const main = openApiJson('advanced')
  const body = (path: string) => main.paths[path].post.requestBody.content['application/json']
  const vehicle = body('/vehicles').schema
  const payment = structuredClone(body('/payments').schema)
  const money = payment.properties.amount
  payment.properties.amount = { $ref: '../common/money.yaml#/Money' }
  await write(`${folder}/schemas/vehicle.json`, JSON.stringify({ VehicleBody: vehicle }, null, 2))
  await write(`${folder}/schemas/payment.yaml`, `# The payment's body${toYaml({ PaymentBody: payment })}\n`)
  await write(`${folder}/common/money.yaml`, `${toYaml({ Money: money }).trimStart()}\n`)
  await write(`${folder}/paths/custodians.json`, JSON.stringify(main.paths['/custodians']))
  body('/vehicles').schema = { $ref: 'schemas/vehicle.json#/VehicleBody' }
  body('/payments').schema = { $ref: './schemas/payment.yaml#/PaymentBody' }
  main.paths['/custodians'] = { $ref: 'paths/custodians.json' }
  return write(`${folder}/advanced.json`, JSON.stringify(main, null, 2))
}
