// The world panel of the live page: how to connect a system, the scenario's visit, the faults armed, the
// alternatives the world answers under, and the world's records, the ones clients created first.
import { assumption } from '../../core/ledger/assumptions.js'
import { servedVariants } from '../../core/service/variants.js'
import { inlineCode } from '../diagram.js'
import { FAULT_KINDS, formatFault, stepOf } from '../../core/service/faults.js'
import type { World } from '../../core/service/world.js'
import { html, type SafeHtml } from './html.js'
import { maskSecret } from '../../core/mask.js'
import { plural } from '../../core/text.js'

/** How many seeded records a table lists before it says how many more there are. */
const ROWS_SHOWN = 12

function table(caption: string, head: string[], rows: SafeHtml[], more = 0): SafeHtml {
  if (rows.length === 0) return html`<p class="muted empty-table">None yet.</p>`
  return html`<div class="table-wrap"><table class="records"><caption class="visually-hidden">${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>${more > 0 ? html`<p class="muted more">…and ${more} more (GET /__relay/world pages through every record: ?since=, ?limit=).</p>` : ''}</div>`
}

const NEW = html`<span class="new-badge">new</span>`
const shortId = (id: string) => html`<code title="${id}">${id.slice(0, 8)}</code>`

/** How often an armed fault has struck, in words: a `once` fault that struck is spent. */
function struckText(mode: 'once' | 'always', struck: number): string {
  if (struck === 0) return 'not struck yet'
  if (mode === 'once') return 'struck once: spent'
  return `struck ${plural(struck, 'time')}`
}

/**
 * The faults armed on the world (the scenario's, `serve --fault`, POST /__relay/faults), each with what the
 * client sees and how often it struck; nothing when none is armed.
 * @example renderFaults(mock.world)
 */
export function renderFaults(world: World): SafeHtml {
  if (world.faults.length === 0) return html``
  return html`<section class="card faults-card" aria-labelledby="faults-h" id="faults">
<h2 id="faults-h"><span aria-hidden="true">⚡</span> Faults armed</h2>
<p class="muted small">This world breaks these requests on purpose. In a visit, the answer a fault broke carries <span class="fault-badge"><span aria-hidden="true">⚡</span> fault</span> on its arrow.</p>
<ul class="faults">${world.faults.map((fault) => {
    const struck = world.faultsAnswered.get(fault) ?? 0
    return html`<li class="fault${fault.mode === 'once' && struck > 0 ? ' spent' : ''}"><code class="fault-text">${formatFault(fault)}</code> <span class="muted">(${stepOf(fault.route)})</span><span class="fault-sees">${inlineCode(FAULT_KINDS[fault.kind].sees)}</span><span class="fault-struck">${struckText(fault.mode, struck)}</span></li>`
  })}</ul>
</section>`
}

/**
 * The alternatives of the assumption ledger the world answers under, and a form to add one or go back to
 * relay-mock's choices (the page's script sends them to /__relay/variants).
 * @example renderVariants(mock.world)
 */
export function renderVariants(world: World): SafeHtml {
  const inForce = Object.entries(world.variants ?? {})
  return html`<section class="card variants-card" aria-labelledby="variants-h" id="variants">
<h2 id="variants-h">Where the interface is silent</h2>
${
  inForce.length
    ? html`<p class="muted small">This world answers as a real service may instead of as relay-mock chose:</p>
<ul class="variants">${inForce.map(([id, alternative]) => html`<li><code>${id}=${alternative}</code> <span class="muted">${assumption(id)?.alternatives.find((a) => a.id === alternative)?.answer ?? ''}</span></li>`)}</ul>`
    : html`<p class="muted small">This world answers with relay-mock’s choices (<code>relay-mock assumptions</code> lists them). Try your client where a real service answers otherwise:</p>`
}
<form id="variant-form" class="variant-form"><label for="variant">Answer as</label> <select id="variant">${servedVariants().map((variant) => html`<option value="${variant}">${variant}</option>`)}</select> <button type="submit">Add</button>${inForce.length ? html` <button type="button" id="variants-clear">Back to relay-mock’s choices</button>` : ''}</form>
</section>`
}

/**
 * The world panel: how to connect, the visit to try, the faults armed, and the records, the ones clients created first.
 * @example renderWorld(mock.world)
 */
export function renderWorld(world: World): SafeHtml {
  const records = world.store.snapshot()
  const seen: SeenRecords = {
    records,
    isNew: (id: string) => !world.store.isSeeded(id),
    companies: new Map(records.rentalCompanies.map((c) => [c.id, c])),
    vehiclesById: new Map(records.vehicles.map((v) => [v.id, v])),
    visit: world.visit,
  }
  return html`${connectSection(world)}
${renderFaults(world)}
${renderVariants(world)}
<section class="card" aria-labelledby="world-h">
<h2 id="world-h">The world</h2>
${paymentsBox(seen)}
${vehiclesBox(seen)}
${custodiansBox(seen)}
${companiesBox(seen)}
</section>`
}

type Records = ReturnType<World['store']['snapshot']>

/** The world's records as the panel's tables read them. */
interface SeenRecords {
  records: Records
  /** A record a client created, not one the world was seeded with. */
  isNew: (id: string) => boolean
  companies: ReadonlyMap<string, Records['rentalCompanies'][number]>
  vehiclesById: ReadonlyMap<string, Records['vehicles'][number]>
  visit: World['visit']
}

/** How to connect a system to the world, and the scenario's visit to try. */
function connectSection(world: World): SafeHtml {
  const visit = world.visit
  return html`<section class="card" aria-labelledby="connect-h">
<h2 id="connect-h">Connect your system</h2>
<dl class="kv">
<div><dt>Base URL</dt><dd><code data-origin>(this page’s address, without /__relay/)</code></dd></div>
<div><dt>Token</dt><dd><code data-token="${maskSecret(world.token)}">${maskSecret(world.token)}</code></dd></div>
<div><dt>Location id</dt><dd><code>${world.location.id}</code></dd></div>
</dl>
<h3>The scenario’s visit</h3>
<dl class="kv">
<div><dt>Plate</dt><dd><code>${visit.plate}</code></dd></div>
<div><dt>Owner kennitala</dt><dd><code>${visit.ownerKennitala}</code></dd></div>
<div><dt>Registration date</dt><dd><code>${visit.registrationDate}</code></dd></div>
<div><dt>Visit</dt><dd><code>${visit.visitStart}</code> → <code>${visit.visitEnd}</code></dd></div>
<div><dt>Amount</dt><dd><code>${visit.amount} ${visit.currency}</code></dd></div>
</dl>
<p class="muted hint">Also try: owner <code>${world.hints.unknownKennitala}</code> (not in the service), plate <code>${world.hints.unknownPlate}</code> (unknown).</p>
</section>`
}

/** The payments, newest first. */
function paymentsBox({ records, vehiclesById }: SeenRecords): SafeHtml {
  const payments = [...records.payments].reverse()
  return html`<details class="records-box" id="w-payments" open><summary>Payments <span class="count">${records.payments.length}</span></summary>
${table(
  'Payments, newest first',
  ['Payment', 'Vehicle', 'Amount', 'Visit', 'Via'],
  payments
    .slice(0, ROWS_SHOWN)
    .map(
      (p) =>
        html`<tr class="fresh"><td>${shortId(p.id)}</td><td><code>${vehiclesById.get(p.vehicleId)?.plate ?? p.vehicleId.slice(0, 8)}</code></td><td>${p.amount.amount} ${p.amount.currency}</td><td>${p.startedOn.slice(11, 16)}–${p.endedOn.slice(11, 16)}</td><td>${p.via}</td></tr>`,
    ),
  payments.length - Math.min(payments.length, ROWS_SHOWN),
)}
</details>`
}

/** The vehicles: the ones clients created first, then the visit's plate, then the seeded ones, each with who holds it. */
function vehiclesBox({ records, isNew, companies, visit }: SeenRecords): SafeHtml {
  const holder = new Map<string, string>()
  for (const c of records.custodians)
    holder.set(c.vehicleId, companies.get(c.rentalCompanyId)?.name ?? c.rentalCompanyId)
  const plate = visit.plate.toUpperCase()
  const newVehicles = records.vehicles.filter((v) => isNew(v.id)).reverse()
  const visitVehicles = records.vehicles.filter((v) => !isNew(v.id) && v.plate.toUpperCase() === plate)
  const otherVehicles = records.vehicles.filter((v) => !isNew(v.id) && v.plate.toUpperCase() !== plate)
  const shownOthers = otherVehicles.slice(0, ROWS_SHOWN)
  const vehicleRow = (v: (typeof records.vehicles)[number], fresh: boolean) =>
    html`<tr class="${fresh ? 'fresh' : ''}${v.plate.toUpperCase() === plate ? ' mine' : ''}"><td><code>${v.plate}</code>${fresh ? NEW : ''}${v.plate.toUpperCase() === plate ? html` <span class="mine-badge">the visit’s</span>` : ''}</td><td>${v.active ? 'active' : 'inactive'}</td><td>${holder.get(v.id) ?? '—'}</td><td>${shortId(v.id)}</td></tr>`
  return html`<details class="records-box" id="w-vehicles" open><summary>Vehicles <span class="count">${records.vehicles.length}</span>${newVehicles.length ? html` <span class="new-count">${newVehicles.length} new</span>` : ''}</summary>
${table('Vehicles: the ones clients created first, then the visit’s plate, then the seeded ones', ['Plate', 'State', 'Held by', 'Id'], [...newVehicles.slice(0, ROWS_SHOWN).map((v) => vehicleRow(v, true)), ...visitVehicles.map((v) => vehicleRow(v, false)), ...shownOthers.map((v) => vehicleRow(v, false))], otherVehicles.length - shownOthers.length + Math.max(0, newVehicles.length - ROWS_SHOWN))}
</details>`
}

/** The custodians clients created (the seeded ones only counted). */
function custodiansBox({ records, isNew, companies, vehiclesById }: SeenRecords): SafeHtml {
  const newCustodians = records.custodians.filter((c) => isNew(c.id)).reverse()
  return html`<details class="records-box" id="w-custodians"${newCustodians.length ? ' open' : ''}><summary>Custodians <span class="count">${records.custodians.length}</span>${newCustodians.length ? html` <span class="new-count">${newCustodians.length} new</span>` : ''}</summary>
${
  newCustodians.length
    ? table(
        'Custodians clients created',
        ['Vehicle', 'Company', 'Acquired on', 'Id'],
        newCustodians
          .slice(0, ROWS_SHOWN)
          .map(
            (c) =>
              html`<tr class="fresh"><td><code>${vehiclesById.get(c.vehicleId)?.plate ?? c.vehicleId.slice(0, 8)}</code>${NEW}</td><td>${companies.get(c.rentalCompanyId)?.name ?? c.rentalCompanyId}</td><td><code>${c.acquiredOn}</code></td><td>${shortId(c.id)}</td></tr>`,
          ),
        Math.max(0, newCustodians.length - ROWS_SHOWN),
      )
    : html`<p class="muted empty-table">None created yet; ${records.custodians.length} seeded.</p>`
}
</details>`
}

/** The rental companies, the visit's owner marked. */
function companiesBox({ records, visit }: SeenRecords): SafeHtml {
  return html`<details class="records-box" id="w-companies"><summary>Rental companies <span class="count">${records.rentalCompanies.length}</span></summary>
${table(
  'Rental companies',
  ['Name', 'Kennitala', 'Id'],
  records.rentalCompanies.map(
    (c) =>
      html`<tr class="${c.kennitala === visit.ownerKennitala ? 'mine' : ''}"><td>${c.name}${c.kennitala === visit.ownerKennitala ? html` <span class="mine-badge">the visit’s owner</span>` : ''}</td><td><code>${c.kennitala}</code></td><td>${shortId(c.id)}</td></tr>`,
  ),
)}
</details>`
}
