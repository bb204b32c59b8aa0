// A calibration file (`serve --calibrate FILE`, `conform --calibrate FILE`): the assumptions.json of
// `relay-mock proxy` or `relay-mock probe`, read and checked whole before anything starts, so that a file
// that cannot be read is one clear error (exit 2) naming the file.
import { readFileSync } from 'node:fs'
import { RelayMockError } from '../../core/errors.js'
import { readCalibration, type Calibration } from '../../core/service/calibration.js'

/**
 * The report in the file as JSON (what `createRelayService({ calibration })` takes) and as read.
 * @example const { report, calibration } = readCalibrationFile('relay-report/assumptions.json')
 */
export function readCalibrationFile(path: string): { report: object; calibration: Calibration } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new RelayMockError(
      'CALIBRATION_INVALID',
      `Failed to read the calibration ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}. Please give the assumptions.json that relay-mock proxy or relay-mock probe writes with --report-dir.`,
    )
  }
  let report: unknown
  try {
    report = JSON.parse(text)
  } catch {
    throw new RelayMockError(
      'CALIBRATION_INVALID',
      `Failed to read the calibration ${path}: it is not JSON. Please give the assumptions.json that relay-mock proxy or relay-mock probe writes with --report-dir (not its assumptions.html).`,
    )
  }
  return { report: report as object, calibration: readCalibration(report, path) }
}
