import { describe, expect, it, vi } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'

const token = 'rm_live000000000000000000001'
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', host: '127.0.0.1:4010' }

async function mockWithVisit(): Promise<RelayService> {
  const service = await createServedService({ tokens: [token], scenario: 'new-vehicle' })
  const { visit } = service.world
  await service.handle({
    method: 'GET',
    url: `/rental-companies?kennitala=${visit.ownerKennitala}`,
    headers: { authorization: `Bearer ${token}` },
  })
  await service.handle({
    method: 'GET',
    url: `/vehicles?plate=${visit.plate}`,
    headers: { authorization: `Bearer ${token}` },
  })
  await service.handle({
    method: 'POST',
    url: '/payments',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  return service
}

const json = (text: string) => JSON.parse(text)
const AUTH = { authorization: `Bearer ${token}` }

describe('GET /__relay/', () => {
  it('serves the live page to a browser', async () => {
    const service = await mockWithVisit()
    const answer = await service.handle({ method: 'GET', url: '/__relay/', headers: HTML })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(answer.text).toMatch(/^<!doctype html>/)
  })

  it('serves the page as a shell that shows no world and no token: its script reads the token from the fragment', async () => {
    const service = await mockWithVisit()
    const answer = await service.handle({ method: 'GET', url: '/__relay/', headers: HTML })
    expect(answer.text).not.toContain(token)
    expect(answer.text).not.toContain(token.slice(-4))
    expect(answer.text).not.toContain(service.world.location.id)
    expect(answer.text).toContain('location.hash')
  })

  it('answers the admin index as JSON to everything else', async () => {
    const service = await mockWithVisit()
    const answer = await service.handle({ method: 'GET', url: '/__relay/', headers: { accept: '*/*' } })
    expect(answer.headers['content-type']).toMatch(/json/)
    expect(Object.keys(json(answer.text).endpoints)).toContain('GET /__relay/visits')
  })

  it('sends a browser at /__relay on to /__relay/', async () => {
    const service = await mockWithVisit()
    const answer = await service.handle({ method: 'GET', url: '/__relay', headers: HTML })
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe('__relay/')
  })
})

describe('GET /__relay/visits', () => {
  it('answers each visit with its verdict and broken rules', async () => {
    const service = await mockWithVisit()
    const body = json((await service.handle({ method: 'GET', url: '/__relay/visits', headers: AUTH })).text)
    expect(body.visits).toHaveLength(1)
    expect(body.visits[0]).toMatchObject({
      id: 'visit-1',
      flow: 'advanced',
      requests: [{ seq: 1 }, { seq: 2 }, { seq: 3 }],
    })
    expect(body.visits[0].rulesBroken).toContain('advanced.create-vehicle-when-missing')
    expect(['in-progress', 'failed']).toContain(body.visits[0].status)
  })

  it('with ?since=<seq> answers only the visits with newer requests', async () => {
    const service = await mockWithVisit()
    const body = json((await service.handle({ method: 'GET', url: '/__relay/visits?since=3', headers: AUTH })).text)
    expect(body.visits).toEqual([])
  })

  it('shows the requests that carried no token in the world too', async () => {
    const service = await mockWithVisit()
    await service.handle({
      method: 'POST',
      url: '/payment',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    const body = json((await service.handle({ method: 'GET', url: '/__relay/visits', headers: AUTH })).text)
    expect(body.visits.at(-1)).toMatchObject({ flow: 'simple', rulesBroken: expect.arrayContaining(['auth.bearer']) })
  })

  it('forgets the visits of a world that was reset', async () => {
    const service = await mockWithVisit()
    await service.handle({
      method: 'POST',
      url: '/payment',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    await service.handle({
      method: 'PUT',
      url: '/__relay/scenario',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"unknown-owner"}',
    })
    const body = json((await service.handle({ method: 'GET', url: '/__relay/visits', headers: AUTH })).text)
    expect(body).toMatchObject({ scenario: 'unknown-owner', visits: [] })
  })
})

describe('GET /__relay/journal.har', () => {
  it("exports the world's requests as HAR under the address the client used, token masked", async () => {
    const service = await mockWithVisit()
    const answer = await service.handle({
      method: 'GET',
      url: '/__relay/journal.har',
      headers: { ...AUTH, host: 'localhost:4999' },
    })
    const har = json(answer.text)
    expect(answer.headers['content-disposition']).toMatch(/attachment/)
    expect(har.log.creator.name).toBe('relay-mock')
    expect(har.log.entries.map((e: any) => e.request.url)).toEqual([
      expect.stringMatching(/^http:\/\/localhost:4999\/rental-companies\?kennitala=\d{10}$/),
      expect.stringMatching(/^http:\/\/localhost:4999\/vehicles\?plate=/),
      'http://localhost:4999/payments',
    ])
    expect(answer.text).not.toContain(token)
  })

  it('leaves out the requests without a token made before a reset that came before the live page was first asked for', async () => {
    const service = await mockWithVisit()
    await service.handle({ method: 'GET', url: '/vehicles?plate=BEFORE1', headers: {} })
    await service.handle({ method: 'POST', url: '/__relay/reset', headers: AUTH })
    await service.handle({ method: 'GET', url: '/vehicles?plate=AFTER1', headers: {} })
    const har = json((await service.handle({ method: 'GET', url: '/__relay/journal.har', headers: AUTH })).text)
    expect(har.log.entries.map((e: any) => e.request.url)).toEqual(['http://relay.test/vehicles?plate=AFTER1'])
  })
})

describe('GET /__relay/live', () => {
  it('answers only the state key when nothing changed since the state the page has, and a new key once the visit completes', async () => {
    // The clock stands still but for the step below: a visit completes after 5 s of quiet, which a slow
    // machine must not reach between two polls.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-21T10:00:00Z') })
    try {
      const service = await mockWithVisit()
      const poll = async (state?: string) =>
        json(
          (
            await service.handle({
              method: 'GET',
              url: `/__relay/live${state ? `?state=${encodeURIComponent(state)}` : ''}`,
              headers: AUTH,
            })
          ).text,
        )
      const first = await poll()
      expect(first.visits.map((v: any) => [v.number, v.status])).toEqual([[1, 'in-progress']])
      expect(first.visits[0].html).toContain('Visit 1')
      expect(await poll(first.state)).toEqual({ state: first.state, unchanged: true })
      vi.advanceTimersByTime(6_000)
      const completed = await poll(first.state)
      expect(completed.state).not.toBe(first.state)
      expect(completed.visits[0].status).not.toBe('in-progress')
      expect(await poll(completed.state)).toEqual({ state: completed.state, unchanged: true })
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves out the markup of a visit the page already has at that version', async () => {
    const service = await mockWithVisit()
    await service.handle({
      method: 'POST',
      url: '/payment',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    const first = json((await service.handle({ method: 'GET', url: '/__relay/live', headers: AUTH })).text)
    const have = first.visits.map((v: any) => `${v.id}@${v.version}`).join(',')
    const next = json(
      (
        await service.handle({
          method: 'GET',
          url: `/__relay/live?state=stale&have=${encodeURIComponent(have)}`,
          headers: AUTH,
        })
      ).text,
    )
    // Visit 1 is complete (visit 2 began), so its version cannot have changed between the polls.
    expect(next.visits.find((v: any) => v.number === 1)).not.toHaveProperty('html')
    expect(first.visits.find((v: any) => v.number === 1)).toHaveProperty('html')
  })
})

describe('the live page and the variants', () => {
  it('shows the variants in force in the world panel, and a change of them is a new state', async () => {
    const service = await createServedService({ tokens: [token], scenario: 'existing-vehicle' })
    const poll = async (state?: string) =>
      json(
        (
          await service.handle({
            method: 'GET',
            url: `/__relay/live${state ? `?state=${encodeURIComponent(state)}` : ''}`,
            headers: AUTH,
          })
        ).text,
      )
    const first = await poll()
    expect(first.worldHtml).toContain('This world answers with relay-mock’s choices')
    expect(first.worldHtml).toContain('<option value="create.status=200-no-location">')
    await service.handle({
      method: 'POST',
      url: '/__relay/variants',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ variants: ['error.body=json-message'] }),
    })
    const next = await poll(first.state)
    expect(next.state).not.toBe(first.state)
    expect(next.worldHtml).toContain('<code>error.body=json-message</code>')
    expect(next.worldHtml).toContain('Back to relay-mock’s choices')
    await service.handle({
      method: 'DELETE',
      url: '/__relay/variants',
      headers: { ...AUTH, 'content-type': 'application/json' },
    })
    expect((await poll(next.state)).worldHtml).toContain('This world answers with relay-mock’s choices')
  })
})
