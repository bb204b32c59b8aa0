// A run judged under a calibration (`conform --calibrate`, and `conform --from FILE --calibrate` for a
// recorded one): the cases as the calibrated service leaves them, and what the run's summary says of it.
// One reading for both, so that a run and the same run read back are judged alike.
import { calibratedIds, calibrationVariants, uncalibratedIds, type Calibration } from '../service/calibration.js'
import type { Outcome, RunCalibration } from './types.js'

/** What calibration reads of a case: its flow, scenario, expected outcomes and the variants its world answered under. */
export interface CalibratedCase {
  flow: string
  scenario?: string
  outcome?: Outcome
  outcomes?: ReadonlyArray<Outcome>
  variants?: Readonly<Record<string, string>>
}

/**
 * The cases as a calibrated run holds them: a variant case of an assumption the real service answered
 * is left out (it is no longer varied), and a case whose outcome the calibration changes expects the new
 * one (an unknown owner's simple payment that the service records is `paid`). A recorded run says, by
 * `recorded`, whether its service did record that payment: one recorded uncalibrated did not, and its
 * client is still held to the answer it got.
 * @example underCalibration(cases, calibration).leftOut // 12
 */
export function underCalibration<T extends CalibratedCase>(
  cases: ReadonlyArray<T>,
  calibration: Calibration | undefined,
  recorded: (kase: T) => boolean = () => true,
): { cases: T[]; leftOut: number } {
  if (!calibration) return { cases: [...cases], leftOut: 0 }
  const calibrated = new Set(calibratedIds(calibration))
  const kept = cases.filter((kase) => !Object.keys(kase.variants ?? {}).some((id) => calibrated.has(id)))
  const accepted = calibrationVariants(calibration)['simple.unknown-owner'] === 'accepted'
  const paid = (kase: T) =>
    accepted &&
    kase.flow === 'simple' &&
    kase.scenario === 'unknown-owner' &&
    kase.outcome === 'rejected' &&
    recorded(kase)
  return {
    cases: kept.map((kase) => (paid(kase) ? { ...kase, outcome: 'paid' as const, outcomes: undefined } : kase)),
    leftOut: cases.length - kept.length,
  }
}

/**
 * What a calibrated run's summary says: against what, which assumptions it answered as observed, and
 * each assumption the service's answers settled, with what it answered.
 * @example toRunCalibration(calibration, 12).settled[0] // { assumption: 'create.status', status: 'contradicted', answered: '201 without Location', alternative: '201-no-location', served: true }
 */
export function toRunCalibration(calibration: Calibration, leftOut: number): RunCalibration {
  const served = new Set(calibratedIds(calibration))
  return {
    upstream: calibration.upstream,
    ...(calibration.date ? { date: calibration.date } : {}),
    calibrated: calibratedIds(calibration),
    notCalibrated: uncalibratedIds(calibration),
    variantCasesLeftOut: leftOut,
    settled: Object.entries(calibration.settled).map(([assumption, settled]) => ({
      assumption,
      ...settled,
      served: settled.status === 'contradicted' && served.has(assumption),
    })),
  }
}
