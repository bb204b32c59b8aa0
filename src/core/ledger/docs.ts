// The assumption ledger as people read it: the README's table, the page docs/assumptions.md, the
// listing of `relay-mock assumptions`, and which answers of the OpenAPI documents rest on which
// assumption. All are generated from ASSUMPTIONS, so none can drift from what the mock does.
import { STRICT, STRICT_VARIANTS } from '../service/variants.js'
import { ASSUMPTIONS, type Assumption } from './assumptions.js'
import { NOT_VARIED_IN_CONFORM, servedVariants, VARIED_ASSUMPTIONS } from '../service/variants.js'

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** `fidelity.<assumption id>`: the rule that judges a client under the assumption's alternatives, when conform varies it. */
export function fidelityRuleId(id: string): string | undefined {
  return VARIED_ASSUMPTIONS.includes(id) ? `fidelity.${id}` : undefined
}

/**
 * The README's table "What the interface leaves open, and what relay-mock does", one row per assumption.
 * @example console.log(toAssumptionTable())
 */
export function toAssumptionTable(list: readonly Assumption[] = ASSUMPTIONS): string {
  return [
    // The question first: a row that opens with a backticked id is a rule's row to the README's rule test.
    "| question | id | relay-mock's answer | a real service might instead |",
    '|---|---|---|---|',
    ...list.map((entry) => {
      const alternatives = entry.alternatives
        .map(
          (alternative) =>
            `\`${alternative.id}\`${alternative.notServed === undefined ? '' : ' (no variant)'}: ${alternative.answer}`,
        )
        .join(' ')
      return `| ${cell(entry.question)} | \`${entry.id}\` | ${cell(entry.choice)} | ${cell(alternatives)} |`
    }),
  ].join('\n')
}

/**
 * docs/assumptions.md: every assumption in full, with its citation, its alternatives (served as a variant
 * or why not) and the rules that rest on it.
 * @example writeFileSync('docs/assumptions.md', toAssumptionsPage())
 */
export function toAssumptionsPage(list: readonly Assumption[] = ASSUMPTIONS): string {
  const lines = [
    '# What the interface leaves open',
    '',
    '<!-- Generated from src/core/ledger/assumptions.ts by toAssumptionsPage(); test/service/assumption-docs.test.ts checks it. -->',
    '',
    'The interface says "not shown" for much of what a client meets, and is inconsistent in two places. Where it',
    'is, relay-mock makes a choice, the one a careful service would make, and the conformance verdicts rest on it.',
    'Each choice is an assumption with a stable id. A real service may choose otherwise: the alternatives below',
    'are the answers it plausibly gives instead. Those marked as variants relay-mock can serve:',
    '',
    '- `relay-mock serve --variant <assumption>=<alternative>` (repeatable) serves every world under them;',
    '  `createRelayMock({ variants: [...] })` does the same in-process, and `/__relay/variants` shows and changes',
    '  them for one world.',
    '- `relay-mock conform` runs the flow cases that meet each variant (the suite `variants`, part of the default',
    "  run). A client that completes the flow under relay-mock's choice but not under an alternative fails the",
    '  rule `fidelity.<assumption>`.',
    '- `relay-mock assumptions` lists them (`--json` for tools); the OpenAPI documents mark each answer that',
    '  rests on one with `x-relay-assumption` (a list of ids).',
    '',
    '## Serving a world under alternatives',
    '',
    '```sh',
    'relay-mock serve [--variant <assumption>=<alternative> ...]',
    '```',
    '',
    '| option | what it does | default |',
    '|---|---|---|',
    `| \`--variant\` | answer as a real service might where the interface is silent, in each world: \`<assumption>=<alternative>\`, e.g. \`create.status=200-no-location\`; repeatable; one of ${servedVariants()
      .map((variant) => `\`${variant}\``)
      .join(', ')}, or \`${STRICT}\` for the strict world (${Object.entries(STRICT_VARIANTS)
      .map(([id, alternative]) => `\`${id}=${alternative}\``)
      .join(
        ', ',
      )} at once: every form relay-mock accepts beyond the interface's text refused) | none (relay-mock's choices) |`,
    '',
    "In-process: `createRelayMock({ variants: ['create.status=200-no-location'] })` (or `{ 'create.status': '200-no-location' }`);",
    "`mock.addWorld({ variants })` gives one world its own. The admin API: `GET /__relay/variants` (the world's, and every one",
    "served), `PUT` (these only), `POST` (add these), `DELETE` (relay-mock's choices again; `?assumption=<id>` for one), with",
    '`{"variants": ["<assumption>=<alternative>"]}` or `{"variants": {"<assumption>": "<alternative>"}}`. The live page shows',
    "the variants in force and changes them. A reset keeps a world's variants; a request that reaches no world (no token, an",
    "unknown one) is answered under the service's. An armed fault's answer is reshaped too (a revoked token's 401 is a 403",
    'under `auth.refusal=403`).',
    '',
    '## The assumptions',
    '',
  ]
  for (const entry of list) {
    lines.push(
      `### \`${entry.id}\``,
      '',
      `**${entry.question}**`,
      '',
      `- The interface: ${entry.interface}.`,
      `- relay-mock: ${entry.choice}`,
      '- A real service might instead:',
    )
    for (const alternative of entry.alternatives) {
      const how =
        alternative.notServed === undefined
          ? `variant \`${entry.id}=${alternative.id}\``
          : `no variant: ${alternative.notServed}`
      lines.push(`  - \`${alternative.id}\`: ${alternative.answer} (${how})`)
    }
    const fidelity = fidelityRuleId(entry.id)
    if (NOT_VARIED_IN_CONFORM[entry.id])
      lines.push(`- \`relay-mock conform\` does not vary it: ${NOT_VARIED_IN_CONFORM[entry.id]}.`)
    const rules = [...entry.rules, ...(fidelity ? [fidelity] : [])]
    lines.push(`- Rules that rest on it: ${rules.length > 0 ? rules.map((id) => `\`${id}\``).join(', ') : 'none'}.`, '')
  }
  return lines.join('\n')
}

/**
 * `relay-mock assumptions`: each assumption in a few lines, for a terminal.
 * @example console.log(toAssumptionsText())
 */
export function toAssumptionsText(list: readonly Assumption[] = ASSUMPTIONS): string {
  const blocks = list.map((entry) => {
    const alternatives = entry.alternatives.map(
      (alternative, i) =>
        `  ${i === 0 ? 'instead     ' : '            '}${entry.id}=${alternative.id}${alternative.notServed === undefined ? '' : ' (no variant)'}: ${alternative.answer}`,
    )
    return [
      `${entry.id}  ${entry.question}`,
      `  interface   ${entry.interface}`,
      `  relay-mock  ${entry.choice}`,
      ...alternatives,
      ...(entry.rules.length > 0 ? [`  rules       ${entry.rules.join(', ')}`] : []),
    ].join('\n')
  })
  return `${blocks.join('\n\n')}\n\nServe a world under an alternative with relay-mock serve --variant <assumption>=<alternative>.`
}

/** The route facts the OpenAPI documents' `x-relay-assumption` is read from. */
export interface AnswerOf {
  route: { readonly id: string; readonly method: string; readonly integration: string }
  status: number
}

/**
 * The assumptions one documented answer rests on, for its `x-relay-assumption` (empty when none).
 * @example answerAssumptions({ route: postVehicles, status: 201 }) // ['create.status', 'records.extra-fields']
 */
export function answerAssumptions({ route, status }: AnswerOf): string[] {
  const ids: string[] = []
  const simple = route.id === 'POST /payment'
  if (status === 401) ids.push('auth.refusal')
  if (route.method === 'POST' && status === 201) ids.push('create.status')
  if (simple && status === 201) ids.push('simple.answer')
  if (simple && (status === 422 || status === 200)) ids.push('simple.refusal-status', 'simple.unknown-owner')
  if (!simple && status === 422) ids.push('invalid.status')
  if (status === 400 || status === 413 || status === 415) ids.push('request.refusals')
  if (status >= 400) ids.push('error.body')
  if (!simple && status >= 200 && status < 300) ids.push('records.extra-fields')
  if (route.integration === 'links' && (status === 200 || status === 404)) ids.push('links.fetchable')
  return ids
}
