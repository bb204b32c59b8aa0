// The client's own account of a case (RELAY_RESULT_FILE), read strictly: a report that does not
// parse is a finding (client.outcome), never a crash.
import { z } from 'zod'
import { clipJson } from '../text.js'
import type { ClientReport } from './types.js'
import { OUTCOMES } from './vocabulary.js'

export const clientReport = z
  .object({
    outcome: z.enum(OUTCOMES),
    paymentId: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({
    title: 'ClientReport',
    description: 'What a client may write to RELAY_RESULT_FILE',
  }) satisfies z.ZodType<ClientReport>

/**
 * Reads a client's report from the text of RELAY_RESULT_FILE (or a function client's return value).
 * @example toClientReport('{"outcome":"paid","paymentId":"..."}') // { report: { outcome: 'paid', ... } }
 */
export function toClientReport(input: unknown): { report: ClientReport } | { error: string } {
  let value = input
  if (typeof input === 'string') {
    if (input.trim() === '') return { error: 'the file is empty' }
    try {
      value = JSON.parse(input)
    } catch (error) {
      return { error: `the file is not JSON (${(error as Error).message}): ${clipJson(input, 60)}` }
    }
  }
  const parsed = clientReport.safeParse(value)
  if (parsed.success) return { report: parsed.data }
  const issue = parsed.error.issues[0]
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the report'
  return { error: `${where} ${issue.message.toLowerCase()} (it holds ${clipJson(value, 120)})` }
}
