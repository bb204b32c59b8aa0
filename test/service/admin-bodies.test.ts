// The dev tools read their bodies as the service reads its own (protocol.ts's readJsonBody): JSON sent
// as such, within the body limit, or the same 415, 400 or 413 in the same words. Their bodies are
// optional (`POST /__relay/reset` takes none), and a GET's body is ignored, as on the service's routes.
import { beforeAll, describe, expect, it } from 'vitest'
import type { RelayService } from '../../src/core/service/mock.js'
import { createServedService } from '../support/service.js'

const TOKEN = 'admin-bodies-token'
const AUTH = { authorization: `Bearer ${TOKEN}` }
const JSON_TYPE = { ...AUTH, 'content-type': 'application/json' }
const SCENARIO = JSON.stringify({ name: 'default' })

const CALLS = [
  { method: 'PUT', url: '/__relay/scenario' },
  { method: 'POST', url: '/__relay/scenario' },
  { method: 'POST', url: '/__relay/reset' },
  { method: 'POST', url: '/__relay/tokens' },
  { method: 'POST', url: '/__relay/faults' },
]

const BODIES = [
  {
    what: 'JSON sent as text/plain',
    headers: { ...AUTH, 'content-type': 'text/plain' },
    body: SCENARIO,
    status: 415,
    says: /^The body is sent as text\/plain; the service reads only JSON\. Please send the header Content-Type: application\/json\.$/,
  },
  {
    what: 'JSON with no Content-Type',
    headers: AUTH,
    body: SCENARIO,
    status: 415,
    says: /no Content-Type header\. Please send Content-Type: application\/json/,
  },
  {
    what: 'a body that is not JSON',
    headers: JSON_TYPE,
    body: '{name: default}',
    status: 400,
    says: /^The body is not valid JSON \(.+\)\. Please send a JSON object\.$/,
  },
  {
    what: 'a body nested 70 deep',
    headers: JSON_TYPE,
    body: `${'['.repeat(70)}${']'.repeat(70)}`,
    status: 400,
    says: /nests deeper than 64 levels/,
  },
  {
    what: 'a body of 3 MB',
    headers: JSON_TYPE,
    body: JSON.stringify({ name: 'default', note: 'x'.repeat(3 * 1024 * 1024) }),
    status: 413,
    says: /larger than the 1048576 bytes/,
  },
]

describe('the dev tools read a body as the service does', () => {
  let service: RelayService
  beforeAll(async () => {
    service = await createServedService({ tokens: [TOKEN] })
  })

  describe.each(CALLS)('$method $url', ({ method, url }) => {
    it.each(BODIES)("refuses $what with $status, in the service's words", async ({ headers, body, status, says }) => {
      const answer = await service.handle({ method, url, headers, body })
      expect(answer.status).toBe(status)
      const { message } = JSON.parse(answer.text) as { message: string }
      expect(message).toMatch(says)
      // The service's own route refuses the same body with the same words.
      const own = await service.handle({ method: 'POST', url: '/vehicles', headers, body })
      expect({ status: own.status, message: (JSON.parse(own.text) as { message: string }).message }).toEqual({
        status,
        message,
      })
    })
  })

  it('reads a JSON body, and takes none where the body is optional', async () => {
    expect(
      (
        await service.handle({
          method: 'PUT',
          url: '/__relay/scenario',
          headers: JSON_TYPE,
          body: JSON.stringify({ name: 'new-vehicle' }),
        })
      ).status,
    ).toBe(200)
    expect(service.world.scenario.name).toBe('new-vehicle')
    expect((await service.handle({ method: 'POST', url: '/__relay/reset', headers: AUTH })).status).toBe(200)
    expect((await service.handle({ method: 'POST', url: '/__relay/reset', headers: AUTH, body: '' })).status).toBe(200)
    // A missing body is the handler's to refuse, with what it needs: not a protocol error.
    const bare = await service.handle({ method: 'PUT', url: '/__relay/scenario', headers: AUTH })
    expect(bare.status).toBe(422)
    expect(bare.text).toContain('Please send the scenario\'s name as {\\"name\\": \\"...\\"}')
  })

  it("ignores a GET's body, as the service's routes do", async () => {
    const answer = await service.handle({
      method: 'GET',
      url: '/__relay/scenarios',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: '{not json',
    })
    expect(answer.status).toBe(200)
  })

  it('checks the token before the body: a caller without one hears of that first', async () => {
    const answer = await service.handle({
      method: 'PUT',
      url: '/__relay/scenario',
      headers: { 'content-type': 'text/plain' },
      body: SCENARIO,
    })
    expect(answer.status).toBe(401)
  })
})
