// `relay-mock conform --from FILE.har`: check a conversation captured elsewhere with the same rules
// and reporters as a run, without running a client.
import { readFile } from 'node:fs/promises'
import type { Har } from 'har-format'
import { fromHarConversations } from '../../devtools/har.js'
import { checkCapture } from '../../devtools/live/capture.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { RelayMockError } from '../../core/service/mock.js'
import type { Reporter, RunResult } from '../../core/rules/types.js'
import type { VerdictPolicy } from '../../core/rules/verdict.js'
import { toVisitsFile, type VisitsFile } from '../../core/rules/inputs.js'
import { readCalibration } from '../../core/service/calibration.js'

export interface CheckHarOptions extends VerdictPolicy {
  /** The service's base URL in the capture (default: inferred from the requests to its resources). */
  baseUrl?: string
  reporters?: Reporter[]
  /** A JSON file of the visits' inputs (`--visits`): an array in the order the visits were made, or an object keyed by visit id. */
  visitsFile?: string
  /** An assumptions report of `relay-mock proxy` or `probe` as JSON (`--calibrate`): the visits judged as a run calibrated by it judges them. */
  calibration?: object
}

/**
 * Reads a `--visits` file, refusing it with every field that is wrong.
 * @example await readVisitsFile('visits.json') // [{ visit: { plate: 'AB123', ... }, token: '...' }]
 */
export async function readVisitsFile(file: string): Promise<VisitsFile> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message
    throw new RelayMockError(
      'VISITS_UNREADABLE',
      `Failed to read the visits file ${file}: ${reason}. Please pass a JSON file of the visits' inputs (see "Checking a capture" in the README).`,
    )
  }
  const read = toVisitsFile(value)
  if ('errors' in read) {
    const shown = read.errors.slice(0, 20)
    const more = read.errors.length > shown.length ? `\n  …and ${read.errors.length - shown.length} more` : ''
    throw new RelayMockError(
      'VISITS_INVALID',
      `Failed to read the visits file ${file}:\n  ${shown.join('\n  ')}${more}\nPlease correct these fields (see "Checking a capture" in the README).`,
    )
  }
  return read.visits
}

/**
 * Reads a HAR file, groups its requests into visits and judges each visit; reporters hear it as a run.
 * @example const result = await checkHarFile('capture.har', { reporters: [createConsoleReporter()] })
 */
export async function checkHarFile(file: string, options: CheckHarOptions = {}): Promise<RunResult> {
  let har: Har
  try {
    har = JSON.parse(await readFile(file, 'utf8')) as Har
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message
    throw new RelayMockError(
      'HAR_UNREADABLE',
      `Failed to read the HAR file ${file}: ${reason}. Please pass a HAR 1.2 file (a browser's "Save all as HAR", a proxy's export, or relay-mock's GET /__relay/journal.har).`,
    )
  }
  if (!Array.isArray(har?.log?.entries)) {
    throw new RelayMockError(
      'HAR_UNREADABLE',
      `Failed to read the HAR file ${file}: it has no log.entries. Please pass a HAR 1.2 file.`,
    )
  }
  const conversations = fromHarConversations(har, { baseUrl: options.baseUrl })
  if (conversations.length === 0) {
    const hosts = [
      ...new Set(
        har.log.entries
          .map((e) => e.request?.url)
          .filter(Boolean)
          .map((url) => (URL.canParse(url) ? new URL(url).host : url)),
      ),
    ]
    throw new RelayMockError(
      'HAR_EMPTY',
      `Failed to find a request to the relay service in ${file} (${har.log.entries.length} entries${hosts.length ? `, hosts ${hosts.slice(0, 5).join(', ')}` : ''}). Please capture the calls to /rental-companies, /vehicles, /custodians, /payments or /payment.`,
    )
  }
  const visits = options.visitsFile ? await readVisitsFile(options.visitsFile) : undefined
  const result = checkCapture(conversations, {
    source: `captured conversation ${file}`,
    version: RELAY_MOCK_VERSION,
    allowPartial: options.allowPartial,
    strict: options.strict,
    ...(visits ? { visits, visitsSource: options.visitsFile } : {}),
    ...(options.calibration ? { calibration: readCalibration(options.calibration, 'given') } : {}),
  })
  const reporters = options.reporters ?? []
  const startedAt = result.summary.startedAt
  for (const reporter of reporters)
    await reporter.onRunStart?.({
      cases: result.cases.map(({ id, flow, scenario, title }) => ({ id, flow, scenario, title })),
      client: result.summary.client,
      flows: result.summary.flows,
      startedAt,
    })
  for (const kase of result.cases) for (const reporter of reporters) await reporter.onCaseEnd?.(kase)
  for (const reporter of reporters) await reporter.onRunEnd?.(result)
  return result
}
