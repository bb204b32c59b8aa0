// How a case's or a visit's checks read, shared by the HTML report and the live page: their tally in
// words, and the list of every check, failed first.
import type { Check } from '../core/rules/types.js'
import type { DiagramOptions } from './diagram.js'
import { html, inlineCode, type SafeHtml } from './live/html.js'

/** A check's status as a person reads it. */
export const STATUS_WORDS: Record<Check['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'warning',
  'not-checked': 'not checked',
  skipped: 'skipped',
  echo: 'same defect',
}

const ICONS: Record<Check['status'], string> = {
  passed: '✓',
  failed: '✗',
  warning: '!',
  'not-checked': '?',
  skipped: '–',
  echo: '=',
}

/**
 * How a case's or visit's checks came out, in words: failed and passed always, the other statuses when any.
 * @example checkTally(checks) // '1 failed, 2 not checked, 9 passed, 3 did not apply'
 */
export function checkTally(checks: ReadonlyArray<Check>): string {
  const count = (status: Check['status']) => checks.filter((check) => check.status === status).length
  return [
    `${count('failed')} failed`,
    count('not-checked') ? `${count('not-checked')} not checked` : '',
    count('warning') ? `${count('warning')} warned` : '',
    count('echo') ? `${count('echo')} the same defect as the flow case's` : '',
    `${count('passed')} passed`,
    count('skipped') ? `${count('skipped')} did not apply` : '',
  ]
    .filter(Boolean)
    .join(', ')
}

/**
 * Every check of a case or visit, failed first, each with its rule id, status in words and message.
 * @example toChecksList(result.checks)
 */
export function toChecksList(checks: ReadonlyArray<Check>, describeRule?: DiagramOptions['describeRule']): SafeHtml {
  const order: Record<Check['status'], number> = {
    failed: 0,
    echo: 1,
    'not-checked': 2,
    warning: 3,
    passed: 4,
    skipped: 5,
  }
  const sorted = [...checks].sort((a, b) => order[a.status] - order[b.status])
  return html`<ul class="checks">${sorted.map((check) => {
    const rule = describeRule?.(check.rule)
    return html`<li class="check ${check.status}"><span class="check-status"><span aria-hidden="true">${ICONS[check.status]}</span> ${STATUS_WORDS[check.status]}</span> <code class="check-rule">${check.rule}</code>${rule ? html` <span class="rule-title">${inlineCode(rule.title)}</span>` : ''}${check.message ? html`<div class="check-message">${inlineCode(check.message)}</div>` : ''}</li>`
  })}</ul>`
}
