// The resilience matrix as data: for each step a fault breaks and each kind of fault, the status of
// the once and the always cell. Every reporter (console, JSON, HTML) draws this one table.
import { FAULT_KINDS, FAULT_STEPS, type FaultKind, type FaultMode, type FaultStep } from '../service/faults.js'
import type { CaseResult, CaseStatus } from './types.js'

export interface MatrixEntry {
  step: FaultStep
  kind: FaultKind
  mode: FaultMode
  status: CaseStatus
  /** The case that ran the cell. */
  caseId: string
  /** The rules that failed (or, for a warning, warned) in the cell. */
  rules: string[]
}

export interface Matrix {
  /** The steps and kinds that have at least one cell, in the fault table's order. */
  steps: FaultStep[]
  kinds: FaultKind[]
  modes: FaultMode[]
  cells: MatrixEntry[]
}

/**
 * The matrix of the cases that are cells; undefined when none is.
 * @example toMatrix(result.cases)?.cells.filter((cell) => cell.status === 'failed')
 */
export function toMatrix(cases: ReadonlyArray<CaseResult>): Matrix | undefined {
  const cells: MatrixEntry[] = []
  for (const kase of cases) {
    if (!kase.cell) continue
    const flagged = kase.checks
      .filter((check) => check.status === (kase.status === 'warning' ? 'warning' : 'failed'))
      .map((check) => check.rule)
    cells.push({ ...kase.cell, status: kase.status, caseId: kase.id, rules: flagged })
  }
  if (cells.length === 0) return undefined
  const steps = (Object.keys(FAULT_STEPS) as FaultStep[]).filter((step) => cells.some((cell) => cell.step === step))
  const kinds = (Object.keys(FAULT_KINDS) as FaultKind[]).filter((kind) => cells.some((cell) => cell.kind === kind))
  const modes = (['once', 'always'] as const).filter((mode) => cells.some((cell) => cell.mode === mode))
  return { steps, kinds, modes, cells }
}

/** The cell of a matrix at (step, kind, mode), if it ran. */
export function cellAt(matrix: Matrix, step: FaultStep, kind: FaultKind, mode: FaultMode): MatrixEntry | undefined {
  return matrix.cells.find((cell) => cell.step === step && cell.kind === kind && cell.mode === mode)
}
