// The service's published OpenAPI documents against relay-mock's own, operation by operation: each
// difference, and each agreement, tied to the assumption of the ledger it confirms or contradicts, or
// reported as a finding. Plain documents in (their $refs already resolved), differences out: reading,
// fetching and validating the documents is the edge's work (src/node/files/openapi-source.ts).
//
// Here: which operations meet, and the ones only one side has. One operation against another is
// operation-diff.ts; the verdicts on the ledger's assumptions are verdicts.ts; two schemas, schema-diff.ts.
import type { AssumptionId } from '../ledger/assumptions.js'
import { KNOWN_SLIPS } from '../service/protocol.js'
import { confirms, contradicts, type Difference } from './differences.js'
import { toOpenApi } from './documents.js'
import type { OpenApiDocument } from './model.js'
import { compareOperation } from './operation-diff.js'
import {
  basePathOf,
  isLink,
  operationsOf,
  sameKey,
  stripPrefix,
  type Integration,
  type Operation,
} from './operations.js'

export type { Difference, DifferenceKind, Verdict } from './differences.js'

/** One document of the service, its $refs resolved. */
export interface ServiceDocument {
  /** The file or URL it came from, for the report. */
  source: string
  document: OpenApiDocument
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

/** The operations of both sides, with what a comparison needs to look them up. */
interface Sides {
  ours: Operation[]
  theirs: Operation[]
  theirByKey: Map<string, Operation>
  /** The integrations the service's documents describe: only theirs are compared. */
  covered: Set<Integration | undefined>
}

/**
 * Compares the service's documents with relay-mock's (by default the two it publishes, built in-process).
 * @example compareOpenApi([{ source: 'advanced.json', document }]).contradicted // 0 when nothing contradicts
 */
export function compareOpenApi(
  theirs: ReadonlyArray<ServiceDocument>,
  ours: Record<Integration, OpenApiDocument> = { advanced: toOpenApi('advanced'), simple: toOpenApi('simple') },
): Comparison {
  const notes: string[] = []
  const differences: Difference[] = []
  const add = (difference: Difference): void => void differences.push(difference)
  const sides = pairSides(theirs, ours, notes)
  compareOurOperations(sides, add)
  const slipped = compareSlips(sides, add)
  const ourKeys = new Set(sides.ours.map((op) => op.key))
  for (const their of sides.theirs) {
    if (ourKeys.has(their.key) || slipped.has(their.key)) continue
    const name = `${their.method} ${their.path}`
    add({
      operation: name,
      where: 'paths',
      kind: 'added-operation',
      theirs: name,
      finding: `relay-mock has no ${name}.`,
    })
  }
  const contradicted = differences.filter((d) => d.assumption?.verdict === 'contradicted').length
  const confirmed = differences.filter((d) => d.assumption?.verdict === 'confirmed').length
  return { notes, differences, contradicted, confirmed, findings: differences.length - contradicted - confirmed }
}

/** Both sides' operations, the service's with a base path taken off, and a note for each integration no document covers. */
function pairSides(
  theirDocuments: ReadonlyArray<ServiceDocument>,
  ourDocuments: Record<Integration, OpenApiDocument>,
  notes: string[],
): Sides {
  const ours = (Object.keys(ourDocuments) as Integration[]).flatMap((integration) =>
    operationsOf(ourDocuments[integration], integration),
  )
  const theirs = theirDocuments.flatMap(({ source, document }) => {
    const base = basePathOf(document)
    if (base)
      notes.push(
        `${source}: its paths are relative to the base path ${base} (servers[0].url), as relay-mock's are to {base_url}.`,
      )
    return stripPrefix(operationsOf(document), ours, source, notes)
  })
  const theirByKey = new Map(theirs.map((op) => [op.key, op]))
  const covered = new Set(ours.filter((op) => theirByKey.has(op.key)).map((op) => op.integration))
  for (const integration of ['advanced', 'simple'] as const) {
    if (covered.has(integration)) continue
    const named = ours
      .filter((op) => op.integration === integration && !isLink(op))
      .map((op) => `${op.method} ${op.path}`)
    notes.push(
      `No document given describes the ${integration} integration (${named.join(', ')}): its operations were not compared.`,
    )
  }
  return { ours, theirs, theirByKey, covered }
}

/** Each of relay-mock's operations against the service's, or missing from its document. */
function compareOurOperations({ ours, theirByKey, covered }: Sides, add: (d: Difference) => void): void {
  for (const our of ours) {
    if (!covered.has(our.integration)) continue
    const name = `${our.method} ${our.path}`
    const their = theirByKey.get(our.key)
    if (!their) {
      add(
        isLink(our)
          ? {
              operation: name,
              where: 'paths',
              kind: 'missing-operation',
              relayMock: name,
              assumption: contradicts('links.fetchable', 'not-fetchable'),
              finding: `The service's document has no ${name}: the links a create answers may not be fetchable.`,
            }
          : {
              operation: name,
              where: 'paths',
              kind: 'missing-operation',
              relayMock: name,
              finding: `The service's document has no ${name}.`,
            },
      )
      continue
    }
    if (isLink(our))
      add({
        operation: name,
        where: 'paths',
        kind: 'agreement',
        relayMock: name,
        theirs: name,
        assumption: confirms('links.fetchable'),
      })
    compareOperation(name, our.op, their.op, add)
  }
}

/** The interface's two slips (slip.method, slip.path): documented by the service means served. Returns the keys of the slipped operations. */
function compareSlips({ ours, theirs, theirByKey, covered }: Sides, add: (d: Difference) => void): Set<string> {
  const slipped = new Set<string>()
  for (const slip of KNOWN_SLIPS) {
    const id: AssumptionId = slip.method ? 'slip.method' : 'slip.path'
    const meant = ours.find((op) => `${op.method} ${op.path}` === slip.meant)
    if (!meant || !covered.has(meant.integration)) continue
    const served = theirs.filter((op) => sameKey(op.path, slip.path) && (!slip.method || op.method === slip.method))
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
      const instead = `${slip.method ?? ''}${slip.method ? ' ' : ''}${slip.path}`
      add({
        operation: slip.meant,
        where: 'paths',
        kind: 'agreement',
        relayMock: slip.meant,
        theirs: slip.meant,
        assumption: confirms(id),
        finding: `The service documents ${slip.meant} and not ${instead}.`,
      })
    }
  }
  return slipped
}
