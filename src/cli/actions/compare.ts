// `relay-mock compare`'s work, loaded only when the command runs: read and validate each document,
// compare them with relay-mock's own, print the report (or JSON); resolves with the exit code.
import pc from 'picocolors'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { compareOpenApi, type Comparison, type Difference } from '../../core/openapi/compare.js'
import { readOpenApi } from '../../node/files/openapi-source.js'

export interface CompareArgs {
  documents: string[]
  json?: boolean
  /** Seconds each URL may take (a document, or a file its $refs name). */
  timeout?: number
}

/** Compares the documents; 0 when nothing contradicts an assumption, 1 when something does. */
export async function compare(args: CompareArgs): Promise<number> {
  const documents = []
  for (const source of args.documents)
    documents.push(await readOpenApi(source, { timeoutMs: (args.timeout ?? 10) * 1000 }))
  const comparison = compareOpenApi(documents)
  if (args.json) console.log(JSON.stringify({ documents: args.documents, ...comparison }, null, 2))
  else {
    const c = pc.createColors(Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env))
    console.log(
      [
        `Compared ${args.documents.join(', ')} with relay-mock ${RELAY_MOCK_VERSION}'s documents.`,
        ...comparisonLines(comparison, c),
      ].join('\n'),
    )
  }
  return comparison.contradicted > 0 ? 1 : 0
}

type Colors = ReturnType<typeof pc.createColors>

/**
 * The report: per operation, what contradicts an assumption, the findings, and what it confirms.
 * @example comparisonLines(compareOpenApi(documents), pc.createColors(false)).join('\n')
 */
export function comparisonLines(comparison: Comparison, c: Colors): string[] {
  const lines = comparison.notes.map((note) => c.dim(note))
  const operations = new Map<string, Difference[]>()
  for (const difference of comparison.differences)
    (operations.get(difference.operation) ?? operations.set(difference.operation, []).get(difference.operation)!).push(
      difference,
    )
  for (const [operation, differences] of operations) {
    lines.push('', c.bold(operation))
    for (const d of differences.filter((d) => d.assumption?.verdict === 'contradicted')) {
      const alternative = d.assumption!.alternative ? ` (${d.assumption!.alternative})` : ''
      lines.push(
        `  ${c.red('✗')} ${c.red(`${d.assumption!.id} contradicted${alternative}`)}: ${said(d)}${d.finding ? ` ${d.finding}` : ''}`,
      )
    }
    const findings = differences.filter((d) => !d.assumption)
    // The statuses the service leaves out, on one line: relay-mock documents its limits too.
    const unlisted = findings.filter((d) => d.kind === 'answer-status-missing')
    for (const d of findings.filter((d) => d.kind !== 'answer-status-missing'))
      lines.push(`  ${c.yellow('•')} ${d.kind} ${said(d)}${d.finding ? ` ${c.dim(d.finding)}` : ''}`)
    if (unlisted.length > 0) {
      lines.push(
        `  ${c.yellow('•')} answer-status-missing ${unlisted.map((d) => d.relayMock).join(', ')}: relay-mock documents ${unlisted.length === 1 ? 'it' : 'them'}, the service's document does not ${c.dim('(--json gives what each is)')}`,
      )
    }
    const confirmed = [
      ...new Set(differences.filter((d) => d.assumption?.verdict === 'confirmed').map((d) => d.assumption!.id)),
    ]
    if (confirmed.length > 0) lines.push(`  ${c.green('✓')} confirms ${confirmed.join(', ')}`)
  }
  const verdict =
    comparison.contradicted > 0 ? c.red(`${comparison.contradicted} contradicted`) : c.green('nothing contradicted')
  lines.push('', `${verdict}, ${comparison.confirmed} confirmed, ${comparison.findings} findings.`)
  return lines
}

/** `where: relay-mock X, theirs Y`. */
function said(d: Difference): string {
  const enums = d.kind.endsWith('-enum')
  const show = (value: unknown) =>
    value === undefined
      ? 'nothing'
      : Array.isArray(value)
        ? enums
          ? `one of ${value.map((v) => JSON.stringify(v)).join(', ')}`
          : value.join(', ')
        : enums && value === 'any'
          ? 'any value'
          : typeof value === 'string'
            ? value
            : JSON.stringify(value)
  return `${d.where}: relay-mock ${show(d.relayMock)}, the service ${show(d.theirs)}.`
}
