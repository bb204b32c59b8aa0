// The live page at /__relay/ on `relay-mock serve`: the scenario in force (switchable), the world's
// records, and the journal grouped into visits, each with its verdict and sequence diagram. One HTML
// string with its stylesheet (live.css, ../diagram.css) and script (live.js) inlined. The server renders every fragment (with the same
// diagram as the HTML report); the page polls GET /__relay/live and swaps in what changed.
import { DIAGRAM_CSS, toSequenceDiagram } from '../diagram.js'
import { checkTally, toChecksList } from '../checks-list.js'
import { CASE_BADGES } from '../marks.js'
import { ruleById } from '../../core/rules/index.js'
import type { World } from '../../core/service/world.js'
import { html, jsonForScript, raw, type SafeHtml } from './html.js'
import { LIVE_CSS, LIVE_JS } from './assets.generated.js'
import type { LiveSnapshot, LiveView } from './state.js'
import { RELAY_MOCK_VERSION } from '../../core/version.js'
import { plural } from '../../core/text.js'
import type { LiveVisit } from './visits.js'
import { renderWorld } from './world-panel.js'

/** How often the page asks for changes. Polling, not server-sent events: the mock's RelayResponse is one
 * finished text (both transports, the Node server and msw, write it whole), and one small request a
 * second with a "nothing changed" answer costs nothing on a developer's machine. */
export const POLL_MS = 1000

/** How many visits the page draws (the newest); GET /__relay/visits has them all. */
const VISITS_SHOWN = 40

const describeRule = (id: string) => ruleById(id)

function time(iso: string): string {
  return iso.length >= 19 ? `${iso.slice(11, 19)} UTC` : iso
}

const STATUS_TEXT: Record<LiveVisit['status'], { icon: string; text: string }> = {
  passed: CASE_BADGES.passed,
  warning: CASE_BADGES.warning,
  partial: CASE_BADGES.partial,
  failed: CASE_BADGES.failed,
  'in-progress': { icon: '…', text: 'In progress' },
}

/** A visit's version: what, if it changed, makes the page redraw the visit. */
export function visitVersion(visit: LiveVisit): string {
  return `${visit.number}.${visit.requests.length}.${visit.requests.at(-1)?.seq ?? 0}.${visit.status}`
}

/** The visit's last step: what its verdict rests on. */
function endOfVisit(visit: LiveVisit, quietMs: number): { text: string; failed?: boolean } {
  if (!visit.complete)
    return {
      text: `In progress: a visit is complete when the next one starts or after ${quietMs / 1000} s without a request.`,
    }
  const count = (status: string) => visit.checks.filter((c) => c.status === status).length
  const failed = count('failed')
  if (failed > 0) return { text: `Visit complete: ${plural(failed, 'rule')} broken.`, failed: true }
  const unchecked = count('not-checked')
  if (unchecked > 0)
    return {
      text: `Visit complete: no rule broken, but ${plural(unchecked, 'rule')} could not be checked without the visit’s inputs.`,
    }
  const warned = count('warning')
  return {
    text:
      warned > 0 ? `Visit complete: no rule broken; ${plural(warned, 'warning')}.` : 'Visit complete: no rule broken.',
  }
}

/**
 * One visit as the page draws it: a fold whose summary says the verdict, holding the diagram and the checks.
 * @example renderVisit(visit, { quietMs: 5000 })
 */
export function renderVisit(visit: LiveVisit, { quietMs }: { quietMs: number }): SafeHtml {
  const of = (status: string) => visit.checks.filter((c) => c.status === status)
  const failed = of('failed')
  const notChecked = of('not-checked')
  const status = STATUS_TEXT[visit.status]
  const open = visit.status === 'failed' || visit.status === 'in-progress'
  const noToken = visit.requests.some((e) => e.worldId === null)
  return html`<li class="visit ${visit.status}" id="${visit.id}">
<details class="visit-box" id="${visit.id}-box"${open ? ' open' : ''}>
<summary><h3 class="visit-title"><span class="pill ${visit.status}"><span aria-hidden="true">${status.icon}</span> ${status.text}</span> Visit ${visit.number} <span class="visit-meta">${visit.flow} flow · ${plural(visit.requests.length, 'request')} · ${time(visit.startedAt)}</span></h3>
${failed.length ? html`<span class="visit-broken">${plural(failed.length, 'rule')} broken: ${failed.map((c, i) => html`${i ? ', ' : ''}<code>${c.rule}</code>`)}</span>` : ''}
${visit.complete && notChecked.length ? html`<span class="visit-unchecked">${plural(notChecked.length, 'rule')} not checked: ${notChecked.map((c, i) => html`${i ? ', ' : ''}<code>${c.rule}</code>`)}</span>` : ''}</summary>
<div class="visit-body">
${noToken ? html`<p class="stray-note">Some of these requests carried no valid token, so the mock could not tell which world they were for; they are shown in every world’s page.</p>` : ''}
${toSequenceDiagram(visit, { idPrefix: visit.id, end: endOfVisit(visit, quietMs), describeRule, inProgress: !visit.complete })}
<details class="all-checks" id="${visit.id}-checks"><summary>Checks: ${checkTally(visit.checks)}</summary>
${notChecked.length ? html`<p class="muted unchecked-note">Not checked here: these rules compare the requests with the visit your system was given (its plate, owner, dates, amount, location) or with the client’s run, which a live page does not know; <code>relay-mock conform</code> gives them and checks these rules. Each says what it checked without them.</p>` : ''}
${toChecksList(visit.checks, describeRule)}
</details>
</div>
</details>
</li>`
}

function counts(visits: LiveVisit[]) {
  const count = (status: LiveVisit['status']) => visits.filter((v) => v.status === status).length
  return {
    total: visits.length,
    passed: count('passed'),
    warning: count('warning'),
    partial: count('partial'),
    failed: count('failed'),
    inProgress: count('in-progress'),
  }
}

/** The visits summary line: how many passed, warned, are partial, failed, are in progress. */
function renderCounts(visits: LiveVisit[]): SafeHtml {
  const c = counts(visits)
  if (c.total === 0) return html`<span class="muted">No visit yet.</span>`
  return html`<span class="tally${c.passed ? ' passed' : ''}"><span aria-hidden="true">✓</span> ${c.passed} passed</span>${c.warning ? html` <span class="tally warning"><span aria-hidden="true">!</span> ${c.warning} warned</span>` : ''} <span class="tally${c.partial ? ' partial' : ''}"><span aria-hidden="true">?</span> ${c.partial} partial</span> <span class="tally${c.failed ? ' failed' : ''}"><span aria-hidden="true">✗</span> ${c.failed} failed</span>${c.inProgress ? html` <span class="tally in-progress"><span aria-hidden="true">…</span> ${c.inProgress} in progress</span>` : ''}`
}

export interface LivePayload {
  state: string
  unchanged?: true
  scenario?: string
  scenarioDescription?: string
  /** The scenario's visit's owner, for the page's example request. */
  ownerKennitala?: string
  worldHtml?: string
  countsHtml?: string
  counts?: ReturnType<typeof counts>
  /** Newest first; `html` left out for a visit the page already has at this version. */
  visits?: Array<{
    id: string
    version: string
    status: LiveVisit['status']
    number: number
    rulesBroken: string[]
    html?: string
  }>
}

/**
 * What the page's poll gets: nothing but the state key when nothing changed; else the fragments to swap in.
 * @example toLivePayload(live, service.world, { now: Date.now(), state: 'world-1.1.default.0.0.c', have: [] })
 */
export function toLivePayload(
  view: LiveView,
  world: World,
  { now, state, have = [], snapshot }: { now: number; state?: string; have?: string[]; snapshot?: LiveSnapshot },
): LivePayload {
  // Most polls find nothing new: answer those from the state key alone, judging nothing.
  const live = snapshot ?? view.state(world, { now })
  if (state !== undefined && state === live.state) return { state: live.state, unchanged: true }
  const snap = snapshot ?? view.snapshot(world, { now }, live)
  const known = new Set(have)
  const shown = [...snap.visits].reverse().slice(0, VISITS_SHOWN)
  return {
    state: snap.state,
    scenario: world.scenario.name,
    scenarioDescription: world.scenario.description,
    ownerKennitala: world.visit.ownerKennitala,
    worldHtml: renderWorld(world).value,
    countsHtml: renderCounts(snap.visits).value,
    counts: counts(snap.visits),
    visits: shown.map((visit) => {
      const version = visitVersion(visit)
      return {
        id: visit.id,
        version,
        status: visit.status,
        number: visit.number,
        rulesBroken: visit.checks.filter((c) => c.status === 'failed').map((c) => c.rule),
        ...(known.has(`${visit.id}@${version}`) ? {} : { html: renderVisit(visit, { quietMs: snap.quietMs }).value }),
      }
    }),
  }
}

/**
 * The live page: a shell that holds no world. Its script takes the token from the page's address
 * (`/__relay/#token=...`: a fragment is never sent to a server, so never logged) and sends it as
 * `Authorization: Bearer` on every call; its first poll draws the world. With the admin token,
 * `?world=<id>` in the address picks the world.
 * @example toLivePage(live, { now: Date.now() })
 */
export function toLivePage(view: LiveView): string {
  const mock = view.service
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>relay-mock live</title>
<style>${DIAGRAM_CSS}${raw(LIVE_CSS)}</style>
</head>
<body>
<a class="skip" href="#visits-h">Skip to the visits</a>
<header class="topbar">
<p class="brand"><strong>relay-mock</strong> <span class="brand-sub">live</span> <span class="muted">v${RELAY_MOCK_VERSION}</span></p>
<p class="conn" id="conn"><span class="dot" aria-hidden="true"></span> <span id="conn-text">Connecting…</span></p>
</header>
<div id="no-token" class="card no-token" hidden>
<h1>This page needs your token</h1>
<p>The live page shows one world: the one of your token. Open it with the token after a <code>#</code>, e.g. <code>/__relay/#token=&lt;your token&gt;</code> (<code>relay-mock serve</code> prints the link). The part after <code>#</code> never leaves your browser: the page sends the token only as the Authorization header of its own calls.</p>
</div>
<div class="layout">
<aside class="side" aria-label="Scenario and world">
${scenarioCard(mock)}
<div id="world"></div>
</aside>
${visitsMain(mock)}
</div>
<script type="application/json" id="initial">${jsonForScript({ poll: POLL_MS })}</script>
<script>${raw(LIVE_JS)}</script>
</body>
</html>
`
  return page.value
}

/** The scenario in force, a form to switch it, and the world's reset. */
function scenarioCard(mock: LiveView['service']): SafeHtml {
  return html`<section class="card" aria-labelledby="scenario-h">
<h2 id="scenario-h">Scenario</h2>
<form id="scenario-form" class="scenario-form">
<label for="scenario">Scenario in force</label>
<div class="row"><select id="scenario" name="name">${[...mock.scenarios.values()].map((s) => html`<option value="${s.name}">${s.name}</option>`)}</select>
<button type="submit">Switch</button></div>
</form>
<p id="scenario-description" class="desc"></p>
<p class="row"><button type="button" id="reset">Reset the world</button> <span class="muted small">re-seeds the records and clears the visits</span></p>
<p id="action-status" class="action-status" role="status" aria-live="polite"></p>
</section>`
}

/** The visits, newest first, with the links to the journal and the verdicts, and what to do before the first. */
function visitsMain(mock: LiveView['service']): SafeHtml {
  return html`<main class="main">
<div class="visits-head">
<h1 id="visits-h">Visits</h1>
<p id="counts" class="counts"></p>
<p class="links"><a href="journal.har" id="har-link" data-download="relay-mock-journal.har">Download the journal as HAR</a> · <a href="visits" id="visits-link" data-download="relay-mock-visits.json">Verdicts as JSON</a>${mock.upstream ? html` · <a href="assumptions" id="assumptions-link" data-open="assumptions">Assumptions against ${mock.upstream}</a>` : ''}</p>
</div>
<p class="explain">Each visit is one paid visit as your system reports it: it starts at <code>GET /rental-companies</code> (advanced flow) or <code>POST /payment</code> (simple flow) and holds every request until the next one starts. It is checked against every rule; those that compare the requests with the visit your system was given (its plate, owner, dates, amount) or with its exit status are <em>not checked</em> here, and say so, so a visit that broke nothing is <em>partial</em>, not passed: <code>relay-mock conform</code> checks them all.</p>
<p id="announce" class="visually-hidden" role="status" aria-live="polite"></p>
<ol id="visits" class="visits" reversed></ol>
<div id="empty" class="empty">
<h2>Waiting for the first request</h2>
<p>Point your system at this mock with the token on the left and run a visit; it appears here as it happens. For example:</p>
<pre class="body"><code>curl -H 'Authorization: Bearer <span data-token="">&lt;your token&gt;</span>' \\
  '<span data-origin>http://127.0.0.1:4010</span>/rental-companies?kennitala=<span id="owner-kennitala">&lt;kennitala&gt;</span>'</code></pre>
</div>
</main>`
}
