// GET /__relay (JSON) lists every admin route, with the summary the route itself carries.
import { expect, it } from 'vitest'
import { createServedService } from '../support/service.js'

it('lists every admin call the mock answers, each with what it does', async () => {
  const service = await createServedService({ adminToken: 'admin-token-0123456789' })
  const { endpoints } = JSON.parse((await service.handle({ method: 'GET', url: '/__relay', headers: {} })).text)
  expect(Object.keys(endpoints)).toEqual(
    expect.arrayContaining([
      'GET /__relay/world',
      'GET /__relay/journal',
      'POST /__relay/reset',
      'PUT /__relay/scenario',
      'POST /__relay/tokens',
      'GET /__relay/visits',
      'GET /__relay/journal.har',
      'GET /openapi/simple.json',
    ]),
  )
  for (const [call, summary] of Object.entries(endpoints)) {
    const [method, path] = call.split(' ')
    const answer = await service.handle({
      method,
      url: path,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Bearer admin-token-0123456789',
      },
      body:
        method === 'GET' || method === 'DELETE'
          ? undefined
          : path === '/__relay/faults'
            ? '{"route":"POST /payments","kind":"reset"}'
            : path === '/__relay/variants'
              ? '{"variants":{}}'
              : '{"name":"default"}',
    })
    expect(answer.status, `${call} answers`).toBeLessThan(400)
    expect(String(summary).length).toBeGreaterThan(10)
  }
})
