// The user's own cases, read from a cases file (JSON) of visits to add to a conformance run. A bad file
// is one RelayMockError naming each wrong field, what it expected and what it found.
import { dirname, resolve } from 'node:path'
import { z } from 'zod'
import { scenarios as builtInScenarios } from '../../../scenarios/index.js'
import { cases as builtInCases } from '../../../suites/index.js'
import { RelayMockError } from '../../core/errors.js'
import { clientReport } from '../../core/rules/report.js'
import type { ConformanceCase } from '../../core/rules/suite.js'
import type { Flow, Outcome } from '../../core/rules/types.js'
import { FLOWS } from '../../core/rules/vocabulary.js'
import type { Scenario } from '../../core/service/scenario.js'
import { describeFieldErrors, toFieldErrors } from '../../core/service/scenario-file.js'
import { amountValue, date, kennitala, plate, timestamp } from '../../core/service/schemas.js'
import { readJson, resolveScenario } from './user-files.js'

const flow = z.enum(FLOWS, { error: 'is not a flow' }).meta({ description: 'advanced or simple' })
const outcome = clientReport.shape.outcome.meta({ description: 'paid, skipped, rejected or unknown' })
const outcomes = z
  .union([outcome, z.array(outcome).min(1)], { error: 'is not an outcome' })
  .meta({ description: 'paid, skipped or rejected, or a list of the outcomes a correct client may reach' })

const caseEntry = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)*$/, { error: 'is not an id of letters, digits, ".", "_", "-" and "/"' })
      .meta({ description: 'an id of letters, digits, ".", "_", "-" and "/", e.g. glansi/fleet-van' }),
    title: z.string().min(1, { error: 'is empty' }).meta({ description: 'one line: what the case exercises' }),
    scenario: z.string().min(1, { error: 'is empty' }).meta({
      description: 'a built-in scenario (relay-mock scenarios) or a path to a scenario file, relative to this file',
    }),
    flow: flow.optional(),
    flows: z.array(flow).min(1).optional().meta({ description: 'a list of flows: advanced, simple' }),
    visit: z
      .object({
        plate,
        ownerKennitala: kennitala,
        registrationDate: date,
        visitStart: timestamp,
        visitEnd: timestamp,
        amount: amountValue,
      })
      .partial()
      .strict()
      .optional()
      .meta({
        description:
          "changes to the scenario's visit: plate, ownerKennitala, registrationDate, visitStart, visitEnd, amount",
      }),
    outcome: z
      .union([outcomes, z.object({ advanced: outcomes.optional(), simple: outcomes.optional() }).strict()], {
        error: 'is not an outcome',
      })
      .meta({
        description:
          'the outcome a correct client reaches (paid, skipped or rejected), a list of them, or one per flow: { "advanced": ..., "simple": ... }',
      }),
  })
  .strict()
  .superRefine((kase, ctx) => {
    if ((kase.flow === undefined) === (kase.flows === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['flow'],
        input: kase.flow,
        message: kase.flow === undefined ? 'is missing' : 'is given beside flows',
      })
      return
    }
    const perFlow = kase.outcome
    if (typeof perFlow === 'object' && !Array.isArray(perFlow)) {
      for (const f of kase.flows ?? [kase.flow!]) {
        if (perFlow[f] === undefined)
          ctx.addIssue({ code: 'custom', path: ['outcome', f], input: undefined, message: 'is missing' })
      }
    }
  })

const casesFile = z
  .object({
    $schema: z.string().optional(),
    cases: z
      .array(caseEntry)
      .min(1, { error: 'is empty' })
      .meta({ description: 'a list of cases: { id, title, scenario, flow or flows, visit?, outcome }' }),
  })
  .strict()

/** The cases of a cases file, ready for a run, and the scenarios of the user's they need. */
export interface UserCases {
  cases: ConformanceCase[]
  /** The scenarios read from files, for the run's service to know by name. */
  scenarios: Scenario[]
}

/**
 * Reads a cases file: each entry a visit with its scenario (a built-in name or a path relative to the
 * file), its flow or flows and the outcome a correct client reaches. An entry of one flow keeps its
 * id; an entry of several becomes one case per flow, `<id>/<flow>`.
 * @example const { cases, scenarios } = await loadCases('examples/cases.json')
 */
export async function loadCases(file: string): Promise<UserCases> {
  const path = resolve(file)
  const input = await readJson(file, path, 'cases')
  const fail = (reason: string) =>
    new RelayMockError('CASES_FILE_INVALID', `Failed to load the cases ${file}: ${reason} Please fix the file.`)
  const parsed = casesFile.safeParse(input)
  if (!parsed.success) throw fail(`${describeFieldErrors(toFieldErrors(casesFile, parsed.error.issues, input))}.`)

  const cases: ConformanceCase[] = []
  const scenarios = new Map<string, Scenario>()
  const taken = new Map(builtInCases.map((kase) => [kase.id, 'a built-in case']))
  for (const [index, entry] of parsed.data.cases.entries()) {
    const where = `cases[${index}]`
    let scenario: string | Scenario
    try {
      scenario = await resolveScenario(entry.scenario, { from: dirname(path) })
    } catch (error) {
      throw fail(`${where}.scenario: ${(error as Error).message}`)
    }
    if (typeof scenario === 'string' && !builtInScenarios.has(scenario)) {
      throw fail(
        `${where}.scenario is not a scenario (expected a built-in scenario, one of ${[...builtInScenarios.keys()].join(', ')}, or a path to a scenario file such as ./my-world.json; found ${JSON.stringify(entry.scenario)}).`,
      )
    }
    if (typeof scenario !== 'string') {
      const other = scenarios.get(scenario.name)
      if (builtInScenarios.has(scenario.name) || (other && other !== scenario)) {
        throw fail(
          `${where}.scenario ${entry.scenario} is named "${scenario.name}", as ${other ? 'another scenario of this file' : 'a built-in scenario'} is. Please give it a name of its own.`,
        )
      }
      scenarios.set(scenario.name, scenario)
    }
    const flows: Flow[] = [...new Set(entry.flows ?? [entry.flow!])]
    for (const f of flows) {
      const id = flows.length === 1 ? entry.id : `${entry.id}/${f}`
      const owner = taken.get(id)
      if (owner) throw fail(`${where}.id makes the case ${id}, which is ${owner}'s id too (expected an id of its own).`)
      taken.set(id, `${where}`)
      const expected =
        typeof entry.outcome === 'object' && !Array.isArray(entry.outcome) ? entry.outcome[f]! : entry.outcome
      const list: Outcome[] = Array.isArray(expected) ? expected : [expected]
      cases.push({
        id,
        flow: f,
        scenario: typeof scenario === 'string' ? scenario : scenario.name,
        title: entry.title,
        ...(entry.visit ? { visit: entry.visit } : {}),
        outcome: list[0],
        ...(list.length > 1 ? { outcomes: list } : {}),
      })
    }
  }
  return { cases, scenarios: [...scenarios.values()] }
}
