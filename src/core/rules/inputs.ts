// A case's inputs written down: what the client was given (the visit, the token) and how its run ended.
// relay-mock's own HAR carries them on each page (`_relay`), and a `--visits` file gives them for a HAR
// captured elsewhere; one schema reads both, so `conform --from` can check every rule. The schema is made
// from the same lists and types the writer uses (vocabulary.ts, CaseVisit, ClientReport), and VisitInputs
// is the schema's own type: what relay-mock writes, it reads back.
import { z } from 'zod'
import { toValidationProblem } from '../service/problems.js'
import { amountValue, currency, date, kennitala, timestamp, uuid, type FieldError } from '../service/schemas.js'
import { clientReport } from './report.js'
import type { CaseVisit, MatrixCell } from './types.js'
import { FLOWS, OUTCOMES } from './vocabulary.js'
import {
  FAULT_KINDS,
  FAULT_MODES,
  FAULT_STEPS,
  type ArmedFault,
  type FaultKind,
  type FaultRecord,
  type FaultRoute,
  type FaultStep,
} from '../service/faults.js'

const outcome = z.enum(OUTCOMES)

const faultKind = z.enum(Object.keys(FAULT_KINDS) as [FaultKind, ...FaultKind[]])
const faultMode = z.enum(FAULT_MODES)

/** A fault armed on a case's world. */
export const armedFault = z
  .object({
    route: z.enum(Object.values(FAULT_STEPS) as [FaultRoute, ...FaultRoute[]]),
    kind: faultKind,
    mode: faultMode,
  })
  .strict()
  .meta({ description: 'a fault armed on the world: { route, kind, mode }' }) satisfies z.ZodType<ArmedFault>

/** The fault a request met, as the journal keeps it (a HAR entry's `_relay.fault`). */
export const faultRecord = z
  .object({ kind: faultKind, mode: faultMode, applied: z.boolean() })
  .strict()
  .meta({ description: 'the fault a request met: { kind, mode, applied }' }) satisfies z.ZodType<FaultRecord>

/** The resilience matrix cell a case is: the step its fault breaks, the kind, the mode. */
const matrixCell = z
  .object({ step: z.enum(Object.keys(FAULT_STEPS) as [FaultStep, ...FaultStep[]]), kind: faultKind, mode: faultMode })
  .strict()
  .meta({ description: 'the resilience matrix cell: { step, kind, mode }' }) satisfies z.ZodType<MatrixCell>

/** The visit a client was given: the RELAY_* variables of the client contract. */
export const caseVisit = z
  .object({
    plate: z.string().min(1).meta({ description: 'the plate (RELAY_PLATE), e.g. AB123' }),
    ownerKennitala: kennitala,
    registrationDate: date,
    visitStart: timestamp,
    visitEnd: timestamp,
    amount: amountValue,
    currency,
    locationId: uuid,
  })
  .strict()
  .meta({
    title: 'CaseVisit',
    description: 'the visit the client was given (RELAY_PLATE, RELAY_OWNER_KENNITALA, ...)',
  }) satisfies z.ZodType<CaseVisit>

/** How the client's run ended, as far as the rules read it. */
export const clientEnd = z
  .object({
    exitCode: z.number().int().nullable().meta({ description: 'the exit status, or null when a signal ended it' }),
    signal: z.string().nullable().optional(),
    timedOut: z.boolean().default(false),
    durationMs: z.number().nonnegative().optional(),
    report: clientReport.optional(),
    reportError: z.string().optional(),
  })
  .strict()
  .meta({ description: 'how the client run ended: { exitCode, timedOut?, report? }' })

/** One case's or visit's inputs: the `_relay` field of a page of relay-mock's HAR, and an item of a `--visits` file. */
export const visitInputs = z
  .object({
    case: z.string().optional().meta({ description: "the case's id, e.g. advanced/new-vehicle" }),
    scenario: z.string().optional().meta({
      description:
        "the case's scenario, e.g. unknown-owner: a calibration that records an unknown owner's payment changes what a correct client reports there",
    }),
    flow: z.enum(FLOWS).optional(),
    visit: caseVisit.optional(),
    token: z.string().min(1).optional().meta({ description: "the case's token (RELAY_API_TOKEN), masked or whole" }),
    outcome: outcome.optional().meta({ description: 'the outcome a correct client reaches' }),
    outcomes: z.array(outcome).optional(),
    client: clientEnd.optional(),
    faults: z.array(armedFault).optional().meta({ description: "the faults armed on the case's world" }),
    cell: matrixCell.optional(),
    variants: z.record(z.string(), z.string()).optional().meta({
      description:
        'the alternatives of the assumption ledger the world answered under, e.g. {"create.status": "200-no-location"}',
    }),
    of: z.string().optional().meta({
      description:
        'for a variant case: the id of the flow case it repeats, which it is judged against where the capture holds it',
    }),
  })
  .strict()
  .meta({ title: 'VisitInputs', description: "a visit's inputs: { visit?, token?, client?, outcome?, case?, flow? }" })

/** A `--visits` file: the visits' inputs in the order the visits were made, or keyed by the visit's id (`visit-2`). */
export const visitsFile = z.union([z.array(visitInputs), z.record(z.string(), visitInputs)])

/** One case's or visit's inputs, as `visitInputs` reads them. */
export type VisitInputs = z.output<typeof visitInputs>

export type VisitsFile = VisitInputs[] | Record<string, VisitInputs>

/**
 * Reads a `--visits` file's parsed JSON: the visits' inputs, or one line per field that is wrong
 * (`[1].visit.amount is not a number; expected a positive integer amount ...`).
 * @example toVisitsFile([{ visit: { plate: 'AB123', ... } }]) // { visits: [...] }
 */
export function toVisitsFile(value: unknown): { visits: VisitsFile } | { errors: string[] } {
  const shape = Array.isArray(value) ? z.array(visitInputs) : z.record(z.string(), visitInputs)
  if (typeof value !== 'object' || value === null) {
    return {
      errors: [
        `the file holds ${JSON.stringify(value)}; expected an array of visits in order ([{ "visit": {...}, "token": "...", "client": {...} }]) or an object keyed by visit id ({ "visit-1": {...} })`,
      ],
    }
  }
  const parsed = shape.safeParse(value)
  if (parsed.success) return { visits: parsed.data }
  // Each visit is judged against the visit schema on its own, so that every field error says what that field expects.
  const byVisit = new Map<PropertyKey, z.core.$ZodIssue[]>()
  for (const issue of parsed.error.issues)
    byVisit.set(issue.path[0], [...(byVisit.get(issue.path[0]) ?? []), { ...issue, path: issue.path.slice(1) }])
  const errors = [...byVisit].flatMap(([key, issues]) => {
    const where = typeof key === 'number' ? `[${key}]` : JSON.stringify(String(key))
    const item = (value as Record<PropertyKey, unknown>)[key as string]
    const found = (toValidationProblem(visitInputs, issues, item, where).body as { errors: FieldError[] }).errors
    return found.map(
      (e) =>
        `${e.field} ${e.problem}${e.expected ? `; expected ${e.expected}` : ''}${e.received !== undefined && !/is missing/.test(e.problem) ? ` (it holds ${JSON.stringify(e.received)})` : ''}`,
    )
  })
  return { errors }
}
