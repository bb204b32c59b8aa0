// The small pieces every part of the HTML report writes: anchors, times, status badges.
import { CASE_BADGES } from '../../../devtools/marks.js'
import { html, type SafeHtml } from '../../../devtools/live/html.js'
import type { CaseStatus } from '../../../core/rules/types.js'

/** An anchor's text from a case id: `case-simple-happy`. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'case'
  )
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** `2026-11-21 10:00:00 UTC` from an ISO time; the text as given when it is not one. */
export function readableTime(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

export function badge(status: CaseStatus): SafeHtml {
  const { icon, text } = CASE_BADGES[status]
  return html`<span class="pill ${status}"><span aria-hidden="true">${icon}</span> ${text}</span>`
}

/** A case id that may break after each `/` on a narrow screen (the long variant ids would squeeze the titles beside them). */
export function breakable(id: string): SafeHtml {
  return html`${id.split('/').map((part, i) => html`${i ? html`/<wbr>` : ''}${part}`)}`
}
