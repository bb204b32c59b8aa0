// The report and the live page in a real headless Chromium: what a person sees, not just the markup.
import { mkdir, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/mock.js'
import { createServedService } from '../support/service.js'
import { close, createServer, listen } from '../../src/node/server.js'
import { toHtmlReport } from '../../src/node/reporters/html.js'
import { runConformance, type ClientFunction } from '../../src/node/runner.js'
import { referenceClient } from '../../src/node/reference-client.js'
import { checkCapture } from '../../src/devtools/live/capture.js'
import { launchChromium } from './chromium.js'
import { XSS, hostileRun } from './fixtures.js'

const ARTIFACTS = resolve('test-results')

/** An advanced client that creates the vehicle but never its custodian, then pays. */
const skipsCustodian: ClientFunction = async function skipsCustodian(visit, env) {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${env.RELAY_BASE_URL}${path}`, {
      method,
      headers: { authorization: `Bearer ${env.RELAY_API_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return answer.json() as Promise<any>
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

/** Records what a page logs as an error and what it throws, to assert there is none. */
function errorsOf(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
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
      const result = await runConformance({ client: skipsCustodian, cases: ['advanced/new-vehicle', 'advanced/existing-vehicle'], jobs: 1, reporters: [] })
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
        .evaluateAll((labels) => labels.map((l) => `${l.querySelector('.method')?.textContent} ${l.querySelector('.path')?.textContent}`))
      expect(made).toEqual(['GET /rental-companies', 'GET /vehicles', 'POST /vehicles', 'POST /payments'])
      await expect.poll(() => kase.locator('.missing-step').innerText()).toMatch(/POST \/custodians\s+not sent/)
      expect(await kase.locator('.expect').allInnerTexts()).toEqual(
        expect.arrayContaining([expect.stringContaining('POST /custodians'), expect.stringContaining('POST /payments')]),
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
      const run = await runConformance({ client: referenceClient, cases: ['advanced/new-vehicle'], jobs: 1, reporters: [] })
      const result = checkCapture([{ id: 'staging', entries: run.cases[0].requests }], { source: 'staging.har', version: '0.1.0' })
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
      expect(await page.locator('#case-visit-1 .check.not-checked .check-status').first().innerText()).toMatch(/not checked/i)
      await page.screenshot({ path: resolve(ARTIFACTS, 'report-partial.png'), fullPage: true })
    })

    it('logs no error', () => {
      expect(errors).toEqual([])
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
      server = createServer(service)
      baseUrl = await listen(server, { port: 0 })
      page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
      liveErrors = errorsOf(page)
      page.on('request', (request) => sent.push({ url: request.url(), authorization: request.headers().authorization }))
      await page.goto(`${baseUrl}/__relay/#token=${encodeURIComponent(service.world.token)}`)
      await page.locator('#world [data-origin]').waitFor({ timeout: 15_000 })
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

    it('sends the token from its address only as the Authorization header, never in a URL', async () => {
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
      await fetch(`${baseUrl}/rental-companies?kennitala=${visit.ownerKennitala}`, { headers: { authorization: `Bearer ${token}` } })
      await fetch(`${baseUrl}/payments`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })
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
      await fetch(`${baseUrl}/payment`, { method: 'POST', headers: { authorization: `Bearer ${service.world.token}`, 'content-type': 'application/json', 'x-note': markup }, body: JSON.stringify({ vehicle: { plate: markup } }) })
      const visit = page.locator('#visits > li', { hasText: 'simple flow' })
      await visit.waitFor({ timeout: 15_000 })
      await visit.locator('.exchange summary').first().click()
      expect(await visit.innerText()).toContain(markup)
      expect(await page.locator('#visits img').count()).toBe(0)
      expect(dialogs).toEqual([])
    })

    it('calls a complete visit that broke nothing partial, listing the rules it could not check, and logs no error', async () => {
      const { visit, token, location } = service.world
      const body = { location: location.id, vehicle: { owner: visit.ownerKennitala, plate: visit.plate, acquiredOn: visit.registrationDate }, visit: { startedOn: visit.visitStart, endedOn: visit.visitEnd }, payment: { amount: visit.amount, currency: 'ISK' } }
      await fetch(`${baseUrl}/payment`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const item = page.locator('#visits > li.partial').first()
      await item.waitFor({ timeout: 20_000 })
      expect(await item.locator('.pill.partial').innerText()).toMatch(/partial/i)
      expect(await item.locator('.visit-unchecked').innerText()).toMatch(/3 rules not checked: simple\.body, client\.completes, client\.outcome/)
      expect(await page.locator('#counts').innerText()).toMatch(/1 partial/)
      expect(liveErrors).toEqual([])
    })

    it('shows a record the client created in the world panel', async () => {
      const { visit, token } = service.world
      await fetch(`${baseUrl}/vehicles`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ plate: visit.plate, country: 'is' }) })
      await page.locator('#w-vehicles tr.fresh', { hasText: visit.plate }).waitFor({ timeout: 15_000 })
    })

    it('switches the scenario from the page and starts over', async () => {
      await page.selectOption('#scenario', 'unknown-owner')
      await page.getByRole('button', { name: 'Switch' }).click()
      await page.locator('#action-status', { hasText: 'Switched to unknown-owner' }).waitFor({ timeout: 15_000 })
      expect(service.world.scenario.name).toBe('unknown-owner')
      await page.locator('#empty').waitFor({ state: 'visible', timeout: 15_000 })
      expect(await page.locator('#scenario-description').innerText()).toBe(service.world.scenario.description)
    })
  })
})
