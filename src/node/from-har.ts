// `relay-mock conform --from FILE.har`: check a conversation captured elsewhere with the same rules
// and reporters as a run, without running a client.
import { readFile } from 'node:fs/promises'
import type { Har } from 'har-format'
import { fromHarConversations } from '../devtools/har.js'
import { checkCapture } from '../devtools/live/capture.js'
import { RELAY_MOCK_VERSION } from '../core/version.js'
import { RelayMockError } from '../core/mock.js'
import type { Reporter, RunResult } from '../core/rules/types.js'

export interface CheckHarOptions {
  /** The service's base URL in the capture (default: inferred from the requests to its resources). */
  baseUrl?: string
  reporters?: Reporter[]
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
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message
    throw new RelayMockError('HAR_UNREADABLE', `Failed to read the HAR file ${file}: ${reason}. Please pass a HAR 1.2 file (a browser's "Save all as HAR", a proxy's export, or relay-mock's GET /__relay/journal.har).`)
  }
  if (!Array.isArray(har?.log?.entries)) {
    throw new RelayMockError('HAR_UNREADABLE', `Failed to read the HAR file ${file}: it has no log.entries. Please pass a HAR 1.2 file.`)
  }
  const conversations = fromHarConversations(har, { baseUrl: options.baseUrl })
  if (conversations.length === 0) {
    const hosts = [...new Set(har.log.entries.map((e) => e.request?.url).filter(Boolean).map((url) => URL.canParse(url) ? new URL(url).host : url))]
    throw new RelayMockError(
      'HAR_EMPTY',
      `Failed to find a request to the relay service in ${file} (${har.log.entries.length} entries${hosts.length ? `, hosts ${hosts.slice(0, 5).join(', ')}` : ''}). Please capture the calls to /rental-companies, /vehicles, /custodians, /payments or /payment.`,
    )
  }
  const result = checkCapture(conversations, { source: `captured conversation ${file}`, version: RELAY_MOCK_VERSION })
  const reporters = options.reporters ?? []
  const startedAt = result.summary.startedAt
  for (const reporter of reporters) await reporter.onRunStart?.({ cases: result.cases.map(({ id, flow, scenario, title }) => ({ id, flow, scenario, title })), client: result.summary.client, flows: result.summary.flows, startedAt })
  for (const kase of result.cases) for (const reporter of reporters) await reporter.onCaseEnd?.(kase)
  for (const reporter of reporters) await reporter.onRunEnd?.(result)
  return result
}
