// The report and the live page in a real headless Chromium: what a person sees, not just the markup.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import type { Server } from 'node:http'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'
import { close, createServer, listen } from '../../src/node/server/server.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { runConformance } from '../../src/node/runner/runner.js'
import type { ClientFunction } from '../../src/node/runner/contract.js'
import { referenceClient } from '../../src/node/reference-client/reference-client.js'
import { checkCapture } from '../../src/devtools/live/capture.js'
import { parseFault } from '../../src/core/service/faults.js'
import { cases as builtInCases } from '../../suites/index.js'
import { toRelayEnv } from '../../src/node/runner/contract.js'
import { launchChromium } from './chromium.js'
import { XSS, existingVehicleCase, hostileRun } from './fixtures.js'
import { countCases } from '../../src/core/rules/verdict.js'
import type { CaseResult, CaseStatus, RunResult } from '../../src/core/rules/types.js'
// @ts-expect-error: a plain ES module without types (it also runs as a process)
import { createDefectiveClient } from '../conform/clients/defective.mjs'
import { needs } from '../support/needs.js'

// A headless Chromium drives the report and the live page.
needs('chromium')

const ARTIFACTS = resolve('test-results')

/** An advanced client that creates the vehicle but never its custodian, then pays. */
const skipsCustodian: ClientFunction = async function skipsCustodian(visit, env) {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${env.RELAY_BASE_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${env.RELAY_API_TOKEN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    return answer.json()
  }
  const [company] = await call('GET', `/rental-companies?kennitala=${visit.ownerKennitala}`)
  if (!company) return { outcome: 'skipped' }
  let [vehicle] = await call('GET', `/vehicles?plate=${encodeURIComponent(visit.plate)}`)
  if (!vehicle) vehicle = await call('POST', '/vehicles', { plate: visit.plate, country: 'is' })
  const payment = await call('POST', '/payments', {
    locationId: visit.locationId,
    vehicleId: vehicle.id,
    amount: { amount: visit.amount, currency: visit.currency },
    startedOn: visit.visitStart,
    endedOn: visit.visitEnd,
  })
  return { outcome: 'paid', paymentId: payment.id }
}

/** A client that sends the payment again when its answer was lost: resilience.no-resend fails. */
const resendsPayment = createDefectiveClient('resend-payment') as ClientFunction

/** What a diagram shows of each exchange, in order: the request, the answer's status, and the fault on it. */
async function exchangesOf(diagram: Locator): Promise<string[]> {
  return diagram.locator('.step:not(.missing-step):not(.pending-step):not(.end-step)').evaluateAll((steps) =>
    steps.map((step) => {
      const label = step.querySelector('.arrow.req .label')
      const request = `${label?.querySelector('.method')?.textContent} ${label?.querySelector('.path')?.textContent}`
      const answer = step.querySelector('.arrow.res .status')?.textContent ?? ''
      const fault = step.querySelector('.arrow.res.broken .fault-badge code')?.textContent
      return `${request} → ${answer}${fault ? ` ⚡${fault}` : ''}`
    }),
  )
}

/** The rules a diagram marks broken, each with the number of the exchange it is drawn at. */
async function findingsOf(diagram: Locator): Promise<string[]> {
  return diagram
    .locator('.step')
    .evaluateAll((steps) =>
      steps.flatMap((step) =>
        Array.from(step.querySelectorAll('.finding .rule-badge code')).map(
          (code) => `${step.querySelector('.step-no')?.textContent?.trim() || 'end'}: ${code.textContent}`,
        ),
      ),
    )
}

/** Records what a page logs as an error and what it throws, to assert there is none. */
function errorsOf(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/**
 * Serves `service` on a free port and opens its first world's live page, as the address serve prints
 * opens it, once the page has drawn the world. `watch` sees the page before it loads.
 */
async function openLivePage(
  browser: Browser,
  service: RelayService,
  watch?: (page: Page) => void,
): Promise<{ server: Server; baseUrl: string; page: Page; errors: string[] }> {
  const server = createServer(service)
  const baseUrl = await listen(server, { port: 0 })
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  const errors = errorsOf(page)
  watch?.(page)
  await page.goto(`${baseUrl}/__relay/#token=${encodeURIComponent(service.world.token)}`)
  await page.locator('#world [data-origin]').waitFor({ timeout: 15_000 })
  return { server, baseUrl, page, errors }
}

describe('in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium()
    await mkdir(ARTIFACTS, { recursive: true })
  })
  afterAll(async () => {
    await browser?.close()
  })

  describe('the HTML report of a broken client', () => {
    let page: Page
    let token: string
    beforeAll(async () => {
      const result = await runConformance({
        client: skipsCustodian,
        cases: ['advanced/new-vehicle', 'advanced/existing-vehicle'],
        jobs: 1,
        reporters: [],
      })
      token = result.cases[0].requests[0].request.headers.authorization
      const file = resolve(ARTIFACTS, 'report.html')
      await writeFile(file, toHtmlReport(result))
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      // The page must work offline: any request it makes beyond its own file fails the test.
      const fetched: string[] = []
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) fetched.push(request.url())
      })
      await page.goto(pathToFileURL(file).href)
      expect(fetched).toEqual([])
    })
    afterAll(async () => {
      await page?.close()
    })

    it('draws the calls the client made beside the calls the flow expects', async () => {
      const kase = page.locator('#case-advanced-new-vehicle')
      const made = await kase
        .locator('.step .arrow.req:not(.ghost) .label')
        .evaluateAll((labels) =>
          labels.map((l) => `${l.querySelector('.method')?.textContent} ${l.querySelector('.path')?.textContent}`),
        )
      expect(made).toEqual(['GET /rental-companies', 'GET /vehicles', 'POST /vehicles', 'POST /payments'])
      await expect.poll(() => kase.locator('.missing-step').innerText()).toMatch(/POST \/custodians\s+not sent/)
      expect(await kase.locator('.expect').allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringContaining('POST /custodians'),
          expect.stringContaining('POST /payments'),
        ]),
      )
    })

    it('marks the step where it went wrong with the broken rule and its explanation, visibly', async () => {
      const wrong = page.locator('#case-advanced-new-vehicle .step.first-failure')
      expect(await wrong.locator('.arrow.req').innerText()).toContain('POST /payments')
      expect(await wrong.locator('.went-wrong').isVisible()).toBe(true)
      const finding = wrong.locator('.finding').filter({ hasText: 'advanced.custodian-after-create' })
      expect(await finding.isVisible()).toBe(true)
      expect(await finding.innerText()).toMatch(/POST \/custodians/)
    })

    it('opens failing cases and folds passing ones', async () => {
      expect(await page.locator('#case-advanced-new-vehicle > details').getAttribute('open')).toBe('')
      expect(await page.locator('#case-advanced-existing-vehicle > details').getAttribute('open')).toBeNull()
      expect(await page.locator('#case-advanced-existing-vehicle .diagram').isVisible()).toBe(false)
    })

    it('opens a request to show its headers, token masked, and its body', async () => {
      const exchange = page.locator('#case-advanced-new-vehicle .exchange').nth(2)
      await exchange.locator('summary').click()
      const text = await exchange.innerText()
      expect(text).toContain(token)
      expect(token).toMatch(/^Bearer …\S{4}$/)
      expect(text).toMatch(/"country": "is"/)
      await page.screenshot({ path: resolve(ARTIFACTS, 'report.png'), fullPage: true })
    })

    it('folds and opens a case from the keyboard', async () => {
      const summary = page.locator('#case-advanced-new-vehicle > details > summary')
      await summary.focus()
      await page.keyboard.press('Enter')
      expect(await page.locator('#case-advanced-new-vehicle > details').getAttribute('open')).toBeNull()
      await page.keyboard.press('Enter')
      expect(await page.locator('#case-advanced-new-vehicle > details').getAttribute('open')).toBe('')
    })

    it('opens every fold for printing', async () => {
      await page.emulateMedia({ media: 'print' })
      // The print style alone shows folded content (no script needed)...
      expect(await page.locator('#case-advanced-existing-vehicle .diagram').isVisible()).toBe(true)
      // ...and the script opens every fold while printing, then restores them.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')))
      const closed = await page.locator('details:not([open])').count()
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')))
      await page.emulateMedia({ media: 'screen' })
      expect(closed).toBe(0)
      expect(await page.locator('#case-advanced-existing-vehicle > details').getAttribute('open')).toBeNull()
    })
  })

  it('shows markup a client sent as text, running none of it', async () => {
    const file = resolve(ARTIFACTS, 'report-hostile.html')
    await writeFile(file, toHtmlReport(await hostileRun()))
    const page = await browser.newPage()
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(pathToFileURL(file).href)
    await page.locator('details').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)))
    expect(await page.locator('body').innerText()).toContain(XSS)
    expect(await page.locator('img').count()).toBe(0)
    expect(dialogs).toEqual([])
    await page.close()
  })

  describe('the HTML report of a capture checked without its inputs (partial)', () => {
    let page: Page
    let errors: string[]
    beforeAll(async () => {
      const run = await runConformance({
        client: referenceClient,
        cases: ['advanced/new-vehicle'],
        jobs: 1,
        reporters: [],
      })
      const result = checkCapture([{ id: 'staging', entries: run.cases[0].requests }], {
        source: 'staging.har',
        version: '0.1.0',
      })
      const file = resolve(ARTIFACTS, 'report-partial.html')
      await writeFile(file, toHtmlReport(result))
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      errors = errorsOf(page)
      await page.goto(pathToFileURL(file).href)
    })
    afterAll(async () => {
      await page?.close()
    })

    it('says the visit is partial, not passed, in the heading, the counts and its badge', async () => {
      expect(await page.locator('h1').innerText()).toMatch(/The visit is partial: not every rule could be checked/)
      expect(await page.locator('.counts .partial').first().innerText()).toContain('1 partial')
      const badge = page.locator('#case-visit-1 .pill.partial')
      expect(await badge.innerText()).toMatch(/partial/i)
      expect(await badge.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(105, 65, 198)')
      expect(await page.locator('.pill.passed').count()).toBe(0)
    })

    it('lists each rule not checked with the input it lacked, open and visible', async () => {
      const box = page.locator('#case-visit-1 .unchecked')
      expect(await box.isVisible()).toBe(true)
      const text = await box.innerText()
      expect(text).toContain('advanced.custodian-after-create')
      expect(text).toMatch(/it needs the visit the client was given/)
      expect(text).toMatch(/client\.completes.*it needs the client’s run|client\.completes.*it needs the client's run/s)
      await page.locator('#case-visit-1 .all-checks > summary').click()
      expect(await page.locator('#case-visit-1 .check.not-checked').count()).toBeGreaterThan(0)
      expect(await page.locator('#case-visit-1 .check.not-checked .check-status').first().innerText()).toMatch(
        /not checked/i,
      )
      await page.screenshot({ path: resolve(ARTIFACTS, 'report-partial.png'), fullPage: true })
    })

    it('logs no error', () => {
      expect(errors).toEqual([])
    })
  })

  describe('the HTML report of a run with resilience cells', () => {
    const CELLS = [
      'resilience/payment-create/unavailable/once',
      'resilience/payment-create/unavailable/always',
      'resilience/payment-create/reset/once',
    ]
    let page: Page
    let errors: string[]
    beforeAll(async () => {
      const result = await runConformance({ client: resendsPayment, cases: CELLS, jobs: CELLS.length, reporters: [] })
      expect(result.cases.map((kase) => [kase.id, kase.status])).toEqual([
        [CELLS[0], 'passed'],
        [CELLS[1], 'passed'],
        [CELLS[2], 'failed'],
      ])
      const file = resolve(ARTIFACTS, 'report-matrix.html')
      await writeFile(file, toHtmlReport(result))
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      errors = errorsOf(page)
      await page.goto(pathToFileURL(file).href)
    }, 60_000)
    afterAll(async () => {
      await page?.close()
    })

    it('draws the matrix: a row per step, a column per fault kind and mode, each cell with its status', async () => {
      const matrix = page.locator('table.matrix')
      expect(await matrix.isVisible()).toBe(true)
      expect(await matrix.locator('thead th[scope=colgroup]').allInnerTexts()).toEqual(['unavailable', 'reset'])
      expect(await matrix.locator('thead th.mode').allInnerTexts()).toEqual(['once', 'always', 'once', 'always'])
      expect(await matrix.locator('tbody th[scope=row]').allInnerTexts()).toEqual(['payment-create'])
      const cells = await matrix
        .locator('tbody td')
        .evaluateAll((tds) =>
          tds.map((td) => `${td.className}: ${(td.querySelector('[aria-hidden]') ?? td).textContent}`),
        )
      expect(cells).toEqual(['cell passed: ✓', 'cell passed: ✓', 'cell failed: ✗', 'cell none: ·'])
      // Each cell says in words what its mark means, to a screen reader and on hover.
      const failed = matrix.locator('td.cell.failed a')
      expect(await failed.getAttribute('title')).toBe('payment-create · reset · once: Failed: resilience.no-resend')
      expect(await failed.locator('.visually-hidden').textContent()).toBe(
        'payment-create reset once: Failed: resilience.no-resend',
      )
      expect(await matrix.locator('td.cell.none').getAttribute('title')).toBe('not run')
      expect(await failed.evaluate((a) => getComputedStyle(a).color)).toBe('rgb(180, 35, 24)')
      await page.screenshot({ path: resolve(ARTIFACTS, 'report-matrix.png'), fullPage: true })
    })

    it('opens a folded case from its cell and scrolls to it', async () => {
      const kase = page.locator('#case-resilience-payment-create-unavailable-always')
      expect(await kase.locator('> details').getAttribute('open')).toBeNull()
      await page.locator('table.matrix td.cell.passed a').nth(1).click()
      await expect.poll(() => kase.locator('> details').getAttribute('open')).toBe('')
      expect(await page.evaluate(() => location.hash)).toBe('#case-resilience-payment-create-unavailable-always')
      const [top, height] = await kase.evaluate((el) => [el.getBoundingClientRect().top, window.innerHeight])
      expect(top).toBeGreaterThan(-1)
      expect(top).toBeLessThan(height / 2)
      expect(await kase.locator('.diagram').isVisible()).toBe(true)
    })

    it('draws each fault on the arrow it broke, and the rule broken at the request that broke it', async () => {
      const reset = page.locator('#case-resilience-payment-create-reset-once .diagram')
      expect(await exchangesOf(reset)).toEqual([
        'GET /rental-companies → 200 OK',
        'GET /vehicles → 200 OK',
        'POST /payments → no answer ⚡reset',
        'POST /payments → 201 Created',
      ])
      const broken = reset.locator('.arrow.res.broken')
      expect(await broken.count()).toBe(1)
      expect(await broken.isVisible()).toBe(true)
      expect(await broken.innerText()).toMatch(/fault reset once: connection reset after recording the request/)
      expect(await findingsOf(reset)).toEqual(['4: resilience.no-resend'])
      // A transient 503: the first payment broken, the one sent after Retry-After answered.
      const unavailable = page.locator('#case-resilience-payment-create-unavailable-once .diagram')
      await page.locator('table.matrix td.cell.passed a').first().click()
      expect(await exchangesOf(unavailable)).toEqual([
        'GET /rental-companies → 200 OK',
        'GET /vehicles → 200 OK',
        'POST /payments → 503 Service Unavailable ⚡unavailable',
        'POST /payments → 201 Created',
      ])
      expect(await findingsOf(unavailable)).toEqual([])
    })

    it('logs no error', () => {
      expect(errors).toEqual([])
    })
  })

  describe('the HTML report of the whole default run, on a laptop and a desktop screen', () => {
    // Every case of the default run, each drawn from one real conversation: the layout depends on the
    // cases' ids, titles, cells and variants, which are the real ones. A few statuses differ, so that each
    // badge must show its own case's.
    const OWN: Record<string, CaseStatus> = {
      'variants/error.body=json-message/simple-rejected': 'failed',
      'variants/create.status=200-no-location/simple-accepted': 'warning',
      'resilience/vehicle-lookup/server-error/always': 'warning',
    }
    let page: Page
    let errors: string[]
    let result: RunResult
    beforeAll(async () => {
      const base = await existingVehicleCase()
      const cases: CaseResult[] = builtInCases.map((kase) => ({
        ...base,
        id: kase.id,
        title: kase.title,
        flow: kase.flow,
        scenario: kase.scenario,
        status: OWN[kase.id] ?? 'passed',
        ...(kase.cell ? { cell: kase.cell } : {}),
        ...(kase.variants ? { variants: kase.variants } : {}),
      }))
      result = {
        summary: {
          ...countCases(cases),
          clientMs: 1,
          wallMs: 1,
          startedAt: new Date(0).toISOString(),
          version: '0.1.0',
          client: 'go run ./examples/clients/go',
          flows: ['advanced', 'simple'],
        },
        cases,
      }
      const file = resolve(ARTIFACTS, 'report-default-run.html')
      await writeFile(file, toHtmlReport(result))
      page = await browser.newPage({ viewport: { width: 1024, height: 800 } })
      errors = errorsOf(page)
      await page.goto(pathToFileURL(file).href)
    })
    afterAll(async () => {
      await page?.close()
    })

    for (const width of [1024, 1300]) {
      it(`at ${width} px, every table fits its card and the page does not scroll sideways`, async () => {
        await page.setViewportSize({ width, height: 800 })
        const overflows = await page.locator('.report-head table').evaluateAll((tables) =>
          tables.flatMap((table) => {
            const card = table.closest('.report-head')!
            const padding = parseFloat(getComputedStyle(card).paddingRight)
            const right = card.getBoundingClientRect().right - padding
            const scroller = table.parentElement!
            const id = table.closest('section')?.querySelector('h2')?.textContent
            return [
              ...(table.getBoundingClientRect().right > right + 0.5
                ? [`${id}: the table ends at ${table.getBoundingClientRect().right} px, its card at ${right} px`]
                : []),
              ...(scroller.scrollWidth > scroller.clientWidth + 0.5
                ? [`${id}: scrolls sideways in its card (${scroller.scrollWidth} > ${scroller.clientWidth} px)`]
                : []),
            ]
          }),
        )
        expect(overflows).toEqual([])
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
        await page.locator('.report-head').screenshot({ path: resolve(ARTIFACTS, `report-default-run-${width}.png`) })
      })

      it(`at ${width} px, the variants table gives its alternatives room, a badge per case under each alternative, each naming its case`, async () => {
        await page.setViewportSize({ width, height: 800 })
        const table = page.locator('section[aria-labelledby=variants-title] table')
        const [held, assumption, alternatives] = await table
          .locator('thead th')
          .evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width))
        expect(alternatives).toBeGreaterThanOrEqual(0.4 * (held + assumption + alternatives))
        // The ledger's questions show their code as code, not as backticks.
        expect((await table.locator('tbody td:nth-child(2)').allInnerTexts()).join('\n')).not.toContain('`')
        const rows = await table.locator('tbody tr').evaluateAll((trs) =>
          trs.map((tr) => {
            // What the badge shows, without the words only a screen reader hears.
            const shown = (a: Element) => {
              const copy = a.cloneNode(true) as Element
              copy.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove())
              return copy.textContent?.trim()
            }
            const cell = tr.lastElementChild as HTMLElement
            const badges = Array.from(cell.querySelectorAll('a'))
            const lineHeight = parseFloat(getComputedStyle(cell).lineHeight)
            return {
              text: cell.textContent ?? '',
              badges: badges.map((a) => ({
                href: a.getAttribute('href'),
                className: a.className,
                text: shown(a),
                title: a.title,
                height: a.getBoundingClientRect().height,
                lineHeight,
              })),
            }
          }),
        )
        const variantCases = result.cases.filter((kase) => kase.variants)
        // A case is a badge under each alternative it ran under (a case may vary several assumptions).
        expect(rows.flatMap((row) => row.badges)).toHaveLength(
          variantCases.reduce((sum, kase) => sum + Object.keys(kase.variants!).length, 0),
        )
        for (const row of rows) {
          // Badges side by side, no commas between them, none broken over two lines.
          expect(row.text).not.toContain(',')
          for (const badge of row.badges) expect(badge.height, badge.title).toBeLessThan(2 * badge.lineHeight)
        }
        for (const kase of variantCases) {
          const badge = rows
            .flatMap((row) => row.badges)
            .find(
              (b) =>
                b.href ===
                `#case-${kase.id
                  .toLowerCase()
                  .replace(/[^a-z0-9]+/g, '-')
                  .replace(/^-|-$/g, '')}`,
            )
          expect(badge, kase.id).toBeDefined()
          // Its own case's status, and which case it is: in its text and, in full, on hover.
          expect(badge!.className, kase.id).toContain(kase.status)
          expect(kase.id.endsWith(`/${badge!.text.replace(/^\S+\s+/, '')}`), `${kase.id}: ${badge!.text}`).toBe(true)
          expect(badge!.title, kase.id).toMatch(new RegExp(`^${kase.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `))
        }
      })
    }

    it('logs no error', () => {
      expect(errors).toEqual([])
    })
  })

  describe('the live page of a world served under a variant', () => {
    let service: RelayService
    let server: Server
    let page: Page
    let errors: string[]
    beforeAll(async () => {
      // As `relay-mock serve --scenario new-vehicle --variant create.status=200-no-location` serves it.
      service = await createServedService({ scenario: 'new-vehicle', variants: ['create.status=200-no-location'] })
      ;({ server, page, errors } = await openLivePage(browser, service))
    })
    afterAll(async () => {
      await page?.close()
      if (server) await close(server)
    })

    it("shows the variants in force, adds one from its form, and goes back to relay-mock's choices", async () => {
      const variants = page.locator('#variants')
      expect(await variants.locator('.variants code').allInnerTexts()).toEqual(['create.status=200-no-location'])
      await page.locator('#variant').selectOption('error.body=json-message')
      await page.locator('#variant-form button[type=submit]').click()
      await page
        .locator('#variants .variants code', { hasText: 'error.body=json-message' })
        .waitFor({ timeout: 10_000 })
      expect(service.world.variants).toEqual({ 'create.status': '200-no-location', 'error.body': 'json-message' })
      await page.locator('#variants-clear').click()
      await page
        .locator('#variants', { hasText: 'This world answers with relay-mock’s choices' })
        .waitFor({ timeout: 10_000 })
      expect(service.world.variants).toBeUndefined()
      expect(errors).toEqual([])
    })
  })

  describe('the live page of a world with a fault armed', () => {
    let service: RelayService
    let server: Server
    let baseUrl: string
    let page: Page
    let errors: string[]
    beforeAll(async () => {
      // As `relay-mock serve --scenario existing-vehicle --fault "POST /payments=reset:once"` serves it.
      service = await createServedService({
        scenario: 'existing-vehicle',
        faults: [parseFault('POST /payments=reset:once')],
      })
      ;({ server, baseUrl, page, errors } = await openLivePage(browser, service))
    })
    afterAll(async () => {
      await page?.close()
      if (server) await close(server)
    })

    it('shows which fault is armed, what the client will see, and that it has not struck yet', async () => {
      const faults = page.locator('#faults')
      expect(await faults.isVisible()).toBe(true)
      expect(await faults.locator('.fault-text').allInnerTexts()).toEqual(['POST /payments=reset:once'])
      const text = await faults.innerText()
      expect(text).toContain('payment-create')
      expect(text).toMatch(/the connection is reset after the request was applied/)
      expect(await faults.locator('.fault-struck').innerText()).toBe('not struck yet')
    })

    it('marks the request the fault broke in the visit, and the fault as spent', async () => {
      const { visit, token, location } = service.world
      const auth = { authorization: `Bearer ${token}` }
      await fetch(`${baseUrl}/rental-companies?kennitala=${visit.ownerKennitala}`, { headers: auth })
      const [vehicle] = (await (
        await fetch(`${baseUrl}/vehicles?plate=${encodeURIComponent(visit.plate)}`, { headers: auth })
      ).json()) as Array<{ id: string }>
      const payment = JSON.stringify({
        locationId: location.id,
        vehicleId: vehicle.id,
        amount: { amount: visit.amount, currency: visit.currency },
        startedOn: visit.visitStart,
        endedOn: visit.visitEnd,
      })
      // The fault resets the connection: fetch sees no answer at all.
      await expect(
        fetch(`${baseUrl}/payments`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: payment,
        }),
      ).rejects.toThrow()
      await fetch(`${baseUrl}/payments`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: payment,
      })
      const diagram = page.locator('#visits > li').first().locator('.diagram')
      await diagram.locator('.step .arrow.res', { hasText: '201 Created' }).waitFor({ timeout: 15_000 })
      expect(await exchangesOf(diagram)).toEqual([
        'GET /rental-companies → 200 OK',
        'GET /vehicles → 200 OK',
        'POST /payments → no answer ⚡reset',
        'POST /payments → 201 Created',
      ])
      const broken = diagram.locator('.arrow.res.broken')
      expect(await broken.isVisible()).toBe(true)
      expect(await broken.innerText()).toMatch(/fault reset once: connection reset after recording the request/)
      expect(await findingsOf(diagram)).toContain('4: resilience.no-resend')
      await page
        .locator('#faults .fault.spent .fault-struck', { hasText: 'struck once: spent' })
        .waitFor({ timeout: 15_000 })
      await page.screenshot({ path: resolve(ARTIFACTS, 'live-fault.png'), fullPage: true })
    })

    it('shows a fault armed through the admin API without a reload, and none once they are cleared', async () => {
      const auth = { authorization: `Bearer ${service.world.token}`, 'content-type': 'application/json' }
      const armed = await fetch(`${baseUrl}/__relay/faults`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ route: 'vehicle-lookup', kind: 'unavailable', mode: 'always' }),
      })
      expect(armed.status).toBe(201)
      await page.locator('#faults .fault-text', { hasText: 'GET /vehicles=unavailable' }).waitFor({ timeout: 15_000 })
      expect(await page.locator('#faults .fault-text').allInnerTexts()).toEqual([
        'POST /payments=reset:once',
        'GET /vehicles=unavailable',
      ])
      expect((await fetch(`${baseUrl}/__relay/faults`, { method: 'DELETE', headers: auth })).status).toBe(200)
      await page.locator('#faults').waitFor({ state: 'detached', timeout: 15_000 })
      expect(errors).toEqual([])
    })
  })

  // `relay-mock case <id>` serves one case's world for a client run by hand, without the live page; the
  // same world served with the dev tools shows the client's visit as the conform run's report draws it.
  describe("the live page of one case's world", () => {
    const CASE_ID = 'resilience/payment-create/reset/once'
    let service: RelayService
    let server: Server
    let dir: string
    let report: Page
    let live: Page
    let errors: string[]
    beforeAll(async () => {
      const conform = await runConformance({ client: resendsPayment, cases: [CASE_ID], jobs: 1, reporters: [] })
      expect(conform.cases[0].status).toBe('failed')
      const file = resolve(ARTIFACTS, 'report-case.html')
      await writeFile(file, toHtmlReport(conform))
      report = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await report.goto(pathToFileURL(file).href)

      // The world conform (and `relay-mock case`) gives the case: its scenario, its faults, its visit.
      const kase = builtInCases.find((k) => k.id === CASE_ID)!
      service = await createServedService({ scenario: kase.scenario, faults: kase.faults })
      const opened = await openLivePage(browser, service)
      ;({ server, page: live, errors } = opened)
      const { baseUrl } = opened
      dir = await mkdtemp(join(os.tmpdir(), 'relay-mock-live-case-'))
      const visit = { ...service.world.visit, ...kase.visit, locationId: service.world.location.id, flow: kase.flow }
      await resendsPayment(visit, toRelayEnv(visit, baseUrl, service.world.token, join(dir, 'result.json')), {
        signal: new AbortController().signal,
      })
    }, 60_000)
    afterAll(async () => {
      await report?.close()
      await live?.close()
      if (server) await close(server)
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    it('draws the same exchanges, the fault on the same answer, and the same rule broken at the same request', async () => {
      // Complete after the quiet time: the verdict is final, as the conform run's is.
      const visit = live.locator('#visits > li.failed').first()
      await visit.waitFor({ timeout: 20_000 })
      const conformDiagram = report.locator(`#case-${CASE_ID.replace(/\//g, '-')} .diagram`)
      const liveDiagram = visit.locator('.diagram')
      const drawn = await exchangesOf(conformDiagram)
      expect(drawn).toContain('POST /payments → no answer ⚡reset')
      expect(await exchangesOf(liveDiagram)).toEqual(drawn)
      // The expected calls line up alike; only their notes differ (the live page does not know the visit's plate or owner).
      const expectedCalls = (diagram: Locator) =>
        diagram
          .locator('.expect')
          .evaluateAll((cells) =>
            cells.map((cell) => `${cell.className} ${cell.querySelector('code')?.textContent ?? ''}`),
          )
      expect(await expectedCalls(liveDiagram)).toEqual(await expectedCalls(conformDiagram))
      expect(await findingsOf(conformDiagram)).toEqual(['4: resilience.no-resend'])
      expect(await findingsOf(liveDiagram)).toEqual(await findingsOf(conformDiagram))
      expect(await visit.locator('.visit-broken').innerText()).toBe('1 rule broken: resilience.no-resend')
      expect(await live.locator('#faults .fault-text').allInnerTexts()).toEqual(['POST /payments=reset:once'])
      expect(errors).toEqual([])
      await live.screenshot({ path: resolve(ARTIFACTS, 'live-case.png'), fullPage: true })
    })
  })

  describe('the live page', () => {
    let service: RelayService
    let server: Server
    let baseUrl: string
    let page: Page
    const sent: Array<{ url: string; authorization?: string }> = []
    let liveErrors: string[]
    beforeAll(async () => {
      service = await createServedService({ scenario: 'new-vehicle' })
      ;({
        server,
        baseUrl,
        page,
        errors: liveErrors,
      } = await openLivePage(browser, service, (opened) =>
        opened.on('request', (request) =>
          sent.push({ url: request.url(), authorization: request.headers().authorization }),
        ),
      ))
    })
    afterAll(async () => {
      await page?.close()
      if (server) await close(server)
    })

    it('tells how to connect: this address, the token, the location', async () => {
      expect(await page.locator('#world [data-origin]').innerText()).toBe(baseUrl)
      expect(await page.locator('#world').innerText()).toContain(service.world.token)
      expect(await page.locator('#world').innerText()).toContain(service.world.location.id)
    })

    it('sends the token from its address only as the Authorization header, never in a URL', () => {
      const polls = sent.filter((r) => r.url.includes('/__relay/live'))
      expect(polls.length).toBeGreaterThan(0)
      for (const poll of polls) expect(poll.authorization).toBe(`Bearer ${service.world.token}`)
      for (const request of sent) expect(request.url.split('#')[0]).not.toContain(service.world.token)
    })

    it('asks for the token when opened without one, and shows no world', async () => {
      const bare = await browser.newPage()
      await bare.goto(`${baseUrl}/__relay/`)
      expect(await bare.locator('#no-token').isVisible()).toBe(true)
      expect(await bare.locator('body').innerText()).not.toContain(service.world.location.id)
      await bare.close()
    })

    it('shows a visit when a request arrives, without a reload', async () => {
      expect(await page.locator('#empty').isVisible()).toBe(true)
      const { visit, token } = service.world
      await fetch(`${baseUrl}/rental-companies?kennitala=${visit.ownerKennitala}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      await fetch(`${baseUrl}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
      const first = page.locator('#visits > li').first()
      await first.locator('.arrow.req', { hasText: 'POST /payments' }).waitFor({ timeout: 15_000 })
      expect(await first.locator('.arrow.req').first().innerText()).toContain('GET /rental-companies')
      expect(await first.locator('.finding').first().innerText()).toMatch(/advanced\.vehicle-lookup/)
      expect(await page.locator('#empty').isVisible()).toBe(false)
      await page.screenshot({ path: resolve(ARTIFACTS, 'live.png'), fullPage: true })
    })

    it('shows markup a client sent as text, running none of it', async () => {
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      const markup = '<img src=x onerror=alert(1)>'
      await fetch(`${baseUrl}/payment`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.world.token}`,
          'content-type': 'application/json',
          'x-note': markup,
        },
        body: JSON.stringify({ vehicle: { plate: markup } }),
      })
      const visit = page.locator('#visits > li', { hasText: 'simple flow' })
      await visit.waitFor({ timeout: 15_000 })
      await visit.locator('.exchange summary').first().click()
      expect(await visit.innerText()).toContain(markup)
      expect(await page.locator('#visits img').count()).toBe(0)
      expect(dialogs).toEqual([])
    })

    it('calls a complete visit that broke nothing partial, listing the rules it could not check, and logs no error', async () => {
      const { visit, token, location } = service.world
      const body = {
        location: location.id,
        vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate },
        visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd },
        payment: { amount: visit.amount, currency: 'ISK' },
      }
      await fetch(`${baseUrl}/payment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const item = page.locator('#visits > li.partial').first()
      await item.waitFor({ timeout: 20_000 })
      expect(await item.locator('.pill.partial').innerText()).toMatch(/partial/i)
      expect(await item.locator('.visit-unchecked').innerText()).toMatch(
        /3 rules not checked: simple\.body, client\.completes, client\.outcome/,
      )
      expect(await page.locator('#counts').innerText()).toMatch(/1 partial/)
      expect(liveErrors).toEqual([])
    })

    it('shows a record the client created in the world panel', async () => {
      const { visit, token } = service.world
      await fetch(`${baseUrl}/vehicles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plate: visit.plate, country: 'is' }),
      })
      await page.locator('#w-vehicles tr.fresh', { hasText: visit.plate }).waitFor({ timeout: 15_000 })
    })

    it('switches the scenario from the page and starts over', async () => {
      await page.selectOption('#scenario', 'unknown-owner')
      // The pick outlives a poll that redraws the page before the click (a request arrived), focused or not.
      await page.locator('#scenario').evaluate((select) => (select as HTMLSelectElement).blur())
      await fetch(`${baseUrl}/rental-companies?kennitala=${service.world.visit.ownerKennitala}`, {
        headers: { authorization: `Bearer ${service.world.token}` },
      })
      await page.waitForResponse(
        async (answer) => answer.url().includes('/__relay/live') && !(await answer.json()).unchanged,
      )
      expect(await page.locator('#scenario').inputValue()).toBe('unknown-owner')
      await page.getByRole('button', { name: 'Switch' }).click()
      await page.locator('#action-status', { hasText: 'Switched to unknown-owner' }).waitFor({ timeout: 15_000 })
      expect(service.world.scenario.name).toBe('unknown-owner')
      await page.locator('#empty').waitFor({ state: 'visible', timeout: 15_000 })
      expect(await page.locator('#scenario-description').innerText()).toBe(service.world.scenario.description)
    })
  })
})
