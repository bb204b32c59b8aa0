// Safe HTML by construction for the report and the live page: every interpolated value is escaped
// unless it is itself markup built here. A client can send `<script>` in a plate; it shows as text.

/** Markup that is already safe to insert (built by `html` or deliberately by `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Escapes text for an HTML element or a quoted attribute.
 * @example escapeHtml('<script>') // '&lt;script&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  // A string, number or boolean as it reads; an object as JSON.
  return escapeHtml(
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value),
  )
}

/**
 * A template whose interpolations are escaped; nested `html` fragments and arrays of them are kept.
 * @example html`<td>${plate}</td>` // plate '<b>' renders as &lt;b&gt;
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new SafeHtml(out)
}

/**
 * Prose with its backticked spans (`/rental-companies`) as code, as the ledger and the rules write it.
 * @example inlineCode('POST `/vehicles` with the plate') // POST <code>/vehicles</code> with the plate
 */
export function inlineCode(text: string): SafeHtml {
  return html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`
}

/**
 * Sentences of prose: each ends with one full stop (or its own ? or !), never two, backticks as code.
 * @example sentence('every successful GET answers 200.') // every successful GET answers 200.
 */
export function sentence(text: string): SafeHtml {
  const trimmed = text.trim()
  return inlineCode(/[.?!]$/.test(trimmed) ? trimmed : `${trimmed}.`)
}

/** Markup taken as it is: only for constants written in this code base (CSS, scripts). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}

/**
 * JSON that can sit inside a `<script>` element: no `</script>`, no `<!--`, no line separators.
 * @example html`<script type="application/json">${jsonForScript(state)}</script>`
 */
export function jsonForScript(value: unknown): SafeHtml {
  const json = JSON.stringify(value) ?? 'null'
  return new SafeHtml(
    json
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  )
}
