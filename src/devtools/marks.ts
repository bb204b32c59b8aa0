// How a case's or a visit's status is shown, in every view (the console, the HTML report, the live
// page): one mark and one word each, so that a ✗ means the same thing everywhere.
import type { CaseStatus } from '../core/rules/types.js'

/** Each case status: its mark and its word. */
export const CASE_BADGES: Readonly<Record<CaseStatus, { icon: string; text: string }>> = {
  passed: { icon: '✓', text: 'Passed' },
  warning: { icon: '!', text: 'Warning' },
  partial: { icon: '?', text: 'Partial' },
  failed: { icon: '✗', text: 'Failed' },
  'not-reached': { icon: '–', text: 'Not reached' },
  flaky: { icon: '~', text: 'Flaky' },
  echo: { icon: '=', text: 'Same defect' },
}
