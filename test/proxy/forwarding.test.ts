// relay-mock proxy forwards the service's requests to a real upstream and answers with its answer,
// through the same pipeline as serve: journal, admin API, HAR, worlds per token. Dev tool paths stay.
import http from 'node:http'
import { describe, expect, it, vi } from 'vitest'
import { parseFault } from '../../src/core/service/faults.js'
import { call, closeAfterEach, handUpstream, mockUpstream, proxyTo } from '../support/proxy.js'
import { FRESH_PLATE, vehicleBody } from '../support/bodies.js'

closeAfterEach()
const TOKEN = 'upstream-token-0001'

describe('relay-mock proxy in front of relay-mock serve', () => {
  it("answers a lookup and a create with the upstream's status, headers and body", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    const world = upstream.service.world
    const company = world.store.rentalCompanies.all()[0]
    const direct = await call(`${upstream.url}/rental-companies?kennitala=${company.kennitala}`, TOKEN)
    const proxied = await call(`${proxy.url}/rental-companies?kennitala=${company.kennitala}`, TOKEN)
    expect(proxied.status).toBe(200)
    expect(proxied.body).toEqual(direct.body)
    const created = await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(created.body.link)
    // The upstream applied it: the real world holds the vehicle.
    expect(world.store.vehicles.activeByPlate(FRESH_PLATE)).toHaveLength(1)
  })

  it("gives the client the upstream's answer when an observer of the answers fails, and says so on stderr", async () => {
    const upstream = await mockUpstream()
    const seen: number[] = []
    const proxy = await proxyTo(upstream.url, {
      observe: ({ entry }) => {
        seen.push(entry.seq)
        throw new Error('observer broke')
      },
    })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const created = await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
      expect(created.status).toBe(201)
      expect(created.body.link).toMatch(/^\/vehicles\//)
      expect(seen).toEqual([1])
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining('an upstream observer failed on journal entry 1 (observer broke)'),
      )
    } finally {
      errors.mockRestore()
    }
    // The journal keeps the upstream's answer too.
    const journal = await call(`${proxy.url}/__relay/journal`, TOKEN)
    expect(journal.body.entries[0]).toMatchObject({
      route: 'POST /vehicles',
      response: { status: 201 },
      upstream: { status: 201 },
    })
  })

  it("journals the proxied traffic with the upstream's part, the token masked, and exports it as HAR", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    await call(`${proxy.url}/vehicles?plate=${FRESH_PLATE}`, TOKEN)
    const journal = await call(`${proxy.url}/__relay/journal`, TOKEN)
    expect(journal.status).toBe(200)
    const [entry] = journal.body.entries
    expect(entry).toMatchObject({
      route: 'GET /vehicles',
      auth: 'ok',
      response: { status: 200, body: [] },
      upstream: { status: 200 },
    })
    expect(entry.request.headers.authorization).toBe('Bearer …0001')
    const har = await call(`${proxy.url}/__relay/journal.har`, TOKEN)
    expect(har.status).toBe(200)
    expect(har.text).toContain('/vehicles')
    expect(har.text).not.toContain(TOKEN)
    expect(JSON.stringify(journal.body)).not.toContain(TOKEN)
  })

  it('gives each token a world of its own: a token reaches only its own traffic', async () => {
    const upstream = await mockUpstream({ tokens: ['token-of-location-a', 'token-of-location-b'] })
    const proxy = await proxyTo(upstream.url)
    await call(`${proxy.url}/vehicles?plate=AAA11`, 'token-of-location-a')
    await call(`${proxy.url}/vehicles?plate=BBB22`, 'token-of-location-b')
    const a = await call(`${proxy.url}/__relay/journal`, 'token-of-location-a')
    const b = await call(`${proxy.url}/__relay/journal`, 'token-of-location-b')
    expect(a.body.entries.map((e: any) => e.request.search)).toEqual(['?plate=AAA11'])
    expect(b.body.entries.map((e: any) => e.request.search)).toEqual(['?plate=BBB22'])
    // A token the proxy never saw reaches nothing.
    expect((await call(`${proxy.url}/__relay/journal`, 'token-never-seen-here')).status).toBe(401)
  })

  it('keeps no world for a token the upstream refuses from the first, and keeps the world of one it came to refuse later', async () => {
    const upstream = await mockUpstream({ tokens: ['token-of-location-a'] })
    const proxy = await proxyTo(upstream.url)
    for (let i = 0; i < 5; i++)
      expect((await call(`${proxy.url}/vehicles?plate=AAA11`, `token-the-service-refuses-${i}`)).status).toBe(401)
    expect(proxy.service.worlds.size).toBe(0)
    // Journaled as the mock journals an unknown token: in the whole journal, in no world.
    const refused = proxy.service.journal.page({}).entries
    expect(refused.map((entry) => [entry.auth, entry.worldId])).toEqual(
      Array.from({ length: 5 }, () => ['unknown-token', null]),
    )
    expect((await call(`${proxy.url}/__relay/journal`, 'token-the-service-refuses-0')).status).toBe(401)
    // A token the service knows keeps its world, even once the service refuses it.
    expect((await call(`${proxy.url}/vehicles?plate=AAA11`, 'token-of-location-a')).status).toBe(200)
    upstream.service.world.revoked = true
    expect((await call(`${proxy.url}/vehicles?plate=AAA11`, 'token-of-location-a')).status).toBe(401)
    expect(proxy.service.worlds.size).toBe(1)
    const own = await call(`${proxy.url}/__relay/journal`, 'token-of-location-a')
    expect(own.body.entries.map((entry: any) => entry.response.status)).toEqual([200, 401])
  })

  it('never pushes out the world of a token the upstream knows for one it refuses, at the cap on worlds', async () => {
    const upstream = await mockUpstream({ tokens: ['token-of-location-a', 'token-of-location-b'] })
    const proxy = await proxyTo(upstream.url, { maxWorlds: 1 })
    expect((await call(`${proxy.url}/vehicles?plate=AAA11`, 'token-of-location-a')).status).toBe(200)
    for (let i = 0; i < 3; i++)
      expect((await call(`${proxy.url}/vehicles?plate=AAA11`, `token-the-service-refuses-${i}`)).status).toBe(401)
    expect([...proxy.service.worlds.keys()]).toEqual(['token-of-location-a'])
    expect((await call(`${proxy.url}/__relay/journal`, 'token-of-location-a')).body.entries).toHaveLength(1)
    // A second token the service accepts takes the room of the one unused longest, as on serve.
    expect((await call(`${proxy.url}/vehicles?plate=BBB22`, 'token-of-location-b')).status).toBe(200)
    expect([...proxy.service.worlds.keys()]).toEqual(['token-of-location-b'])
  })

  it("refuses a scenario switch on its worlds, which hold the real service's records, and resets a world's journal", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    await call(`${proxy.url}/vehicles?plate=AAA11`, TOKEN)
    for (const [method, path, body] of [
      ['PUT', '/__relay/scenario', { name: 'new-vehicle' }],
      ['POST', '/__relay/reset', { scenario: 'new-vehicle' }],
    ] as const) {
      const refused = await call(`${proxy.url}${path}`, TOKEN, { method, body })
      expect(refused.status, path).toBe(409)
      expect(refused.body.message).toMatch(/hold no records of their own .* no scenario to switch to/)
    }
    expect((await call(`${proxy.url}/__relay/world`, TOKEN)).body.scenario.name).toBe('upstream')
    const reset = await call(`${proxy.url}/__relay/reset`, TOKEN, { method: 'POST', body: {} })
    expect(reset.status).toBe(200)
    expect((await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries).toEqual([])
  })

  it('answers the admin token with a 404 that says why, not a failure, while no world exists yet', async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url, { adminToken: 'admin-token-0042' })
    for (const path of ['/__relay/worlds', '/__relay/journal?scope=all', '/__relay/world']) {
      const early = await call(`${proxy.url}${path}`, 'admin-token-0042')
      expect(early.status, path).toBe(404)
      expect(early.body.message).toMatch(/No world exists yet.*first request/)
    }
    await call(`${proxy.url}/vehicles?plate=AAA11`, TOKEN)
    const journal = await call(`${proxy.url}/__relay/journal?scope=all`, 'admin-token-0042')
    expect(journal.status).toBe(200)
    expect(journal.body.entries).toHaveLength(1)
  })

  it("forwards a request without a token as it came, and answers the upstream's refusal", async () => {
    const upstream = await mockUpstream()
    const proxy = await proxyTo(upstream.url)
    const refused = await call(`${proxy.url}/vehicles?plate=AB123`, undefined)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(upstream.service.journal.page({}).entries).toHaveLength(1)
  })
})

describe('what the proxy forwards', () => {
  async function echo() {
    const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = []
    const url = await handUpstream((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
        res.writeHead(200, {
          'content-type': 'application/json',
          connection: 'x-upstream-hop',
          'x-upstream-hop': 'secret',
          'keep-alive': 'timeout=5',
        })
        res.end('[]')
      })
    })
    return { url, seen }
  }

  it("forwards method, path, query, body and end-to-end headers, never hop-by-hop ones; Host is the upstream's", async () => {
    const upstream = await echo()
    const proxy = await proxyTo(upstream.url)
    // node:http, since fetch refuses to send Connection and Keep-Alive itself.
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${proxy.url}/vehicles?plate=AB123&x=1`, {
        headers: {
          authorization: `Bearer ${TOKEN}`,
          connection: 'x-client-hop',
          'x-client-hop': '1',
          te: 'trailers',
          'proxy-authorization': 'Basic c2VjcmV0',
          'x-request-id': 'r-42',
          'keep-alive': 'timeout=9',
        },
      })
      request.on('response', (response) => response.resume().on('end', resolve))
      request.on('error', reject)
    })
    await call(`${proxy.url}/vehicles`, TOKEN, { body: vehicleBody() })
    const [lookup, create] = upstream.seen
    expect(lookup).toMatchObject({ method: 'GET', url: '/vehicles?plate=AB123&x=1' })
    expect(lookup.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(lookup.headers['x-request-id']).toBe('r-42')
    for (const hop of ['x-client-hop', 'te', 'proxy-authorization', 'keep-alive'])
      expect(lookup.headers[hop], hop).toBeUndefined()
    expect(lookup.headers.host).toBe(new URL(upstream.url).host)
    expect(create).toMatchObject({ method: 'POST', url: '/vehicles', body: JSON.stringify(vehicleBody()) })
    expect(create.headers['content-type']).toBe('application/json')
  })

  it("drops the upstream's hop-by-hop headers from its answer", async () => {
    const upstream = await echo()
    const proxy = await proxyTo(upstream.url)
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-upstream-hop')).toBeNull()
  })

  it("never forwards a dev tool's path: the admin API and the OpenAPI documents are the proxy's own", async () => {
    const upstream = await echo()
    const proxy = await proxyTo(upstream.url)
    await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect((await call(`${proxy.url}/__relay/journal`, TOKEN)).status).toBe(200)
    expect((await call(`${proxy.url}/__relay/assumptions`, TOKEN)).status).toBe(200)
    expect((await call(`${proxy.url}/openapi/advanced.json`, undefined)).status).toBe(200)
    expect((await call(`${proxy.url}/__relay/no-such-tool`, TOKEN)).status).toBe(404)
    expect(upstream.seen.map((s) => s.url)).toEqual(['/vehicles?plate=AB123'])
  })

  it('never lets the admin token reach the upstream, whatever the path, method or encoding, and says why it refused', async () => {
    const upstream = await echo()
    const admin = 'relay-admin-secret-7731'
    const proxy = await proxyTo(upstream.url, { adminToken: admin })
    const asAdmin = await call(`${proxy.url}/vehicles?plate=ZZ1`, admin)
    expect(asAdmin.status).toBe(403)
    expect(asAdmin.body.message).toMatch(
      /refused this request without forwarding it: the Authorization header carries the proxy's admin token \(--admin-token\), which never leaves relay-mock/,
    )
    expect(asAdmin.text).not.toContain(admin)
    // Raw requests, so that the paths go as written (fetch would resolve the dot segments).
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(`${proxy.url}/`, {
          method,
          path,
          headers: {
            ...headers,
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          },
        })
        request.on('response', (response) => response.resume().on('end', () => resolve(response.statusCode!)))
        request.on('error', reject)
        request.end(body)
      })
    const bearer = { authorization: `Bearer ${admin}` }
    const statuses = [
      await send('GET', '/%5F%5Frelay/worlds', bearer),
      await send('GET', '/vehicles/../__relay/worlds', bearer),
      await send('GET', '/vehicles/..%2F__relay/journal', bearer),
      await send('POST', '/vehicles', bearer, JSON.stringify(vehicleBody())),
      await send('DELETE', '/vehicles', bearer),
      await send('HEAD', '/vehicles?plate=ZZ1', bearer),
      await send('OPTIONS', '/vehicles', bearer),
      await send('GET', '/vehicles?plate=ZZ1', { authorization: `bearer   ${admin}` }),
      await send('GET', '/vehicles?plate=ZZ1', { authorization: `Bearer ${TOKEN}`, 'x-api-key': admin }),
      await send('GET', '/vehicles?plate=ZZ1', { authorization: `Bearer ${TOKEN}`, cookie: `relay=${admin}` }),
      await send('GET', `/vehicles?plate=ZZ1&token=${encodeURIComponent(admin).replace(/-/g, '%2D')}`, {
        authorization: `Bearer ${TOKEN}`,
      }),
      await send('POST', '/payment', { authorization: `Bearer ${TOKEN}` }, JSON.stringify({ note: admin })),
    ]
    expect(
      statuses.every((status) => status === 403),
      String(statuses),
    ).toBe(true)
    // The client's own token still goes through, on the same paths.
    await send('GET', '/vehicles?plate=ZZ1', { authorization: `Bearer ${TOKEN}` })
    await send('GET', '/%5F%5Frelay/worlds', { authorization: `Bearer ${TOKEN}` })
    expect(upstream.seen.map((s) => s.url)).toEqual(['/vehicles?plate=ZZ1', '/%5F%5Frelay/worlds'])
    for (const seen of upstream.seen) expect(JSON.stringify(seen)).not.toContain(admin)
    // Nor did it make a world: the admin token reaches relay-mock's own routes only.
    expect(
      (await call(`${proxy.url}/__relay/worlds`, admin)).body.map((w: { token: string }) => w.token.slice(-4)),
    ).toEqual([TOKEN.slice(-4)])
  })

  it("passes each of the upstream's Set-Cookie headers on as its own, and journals and exports them one by one", async () => {
    // A load balancer's sticky-session cookies: their Expires dates hold commas, so joined into one header they no longer parse.
    const cookies = [
      'AWSALB=a1; Expires=Thu, 03 Dec 2026 10:00:00 GMT; Path=/',
      'AWSALBCORS=a1; Expires=Thu, 03 Dec 2026 10:00:00 GMT; Path=/; SameSite=None; Secure',
    ]
    const url = await handUpstream((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.setHeader('set-cookie', cookies)
      // Sent as two header lines, as a server may.
      res.setHeader('vary', ['accept', 'accept-encoding'])
      res.writeHead(200)
      res.end('[]')
    })
    const proxy = await proxyTo(url)
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.headers.getSetCookie()).toEqual(cookies)
    // Any other field sent twice is one comma-separated list (RFC 9110 5.3).
    expect(answer.headers.get('vary')).toBe('accept, accept-encoding')
    // Shown and exported one by one, each cookie's value masked as a credential.
    const masked = [
      'AWSALB=…; Expires=Thu, 03 Dec 2026 10:00:00 GMT; Path=/',
      'AWSALBCORS=…; Expires=Thu, 03 Dec 2026 10:00:00 GMT; Path=/; SameSite=None; Secure',
    ]
    const [entry] = (await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries
    expect(entry.response.headers['set-cookie'].split('\n')).toEqual(masked)
    const har = (await call(`${proxy.url}/__relay/journal.har`, TOKEN)).body
    const exported = har.log.entries[0].response.headers
      .filter((h: { name: string }) => h.name === 'set-cookie')
      .map((h: { value: string }) => h.value)
    expect(exported).toEqual(masked)
  })

  it('keeps its connections to the upstream alive between requests', async () => {
    const ports = new Set<number>()
    const url = await handUpstream((req, res) => {
      ports.add(req.socket.remotePort!)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('[]')
    })
    const proxy = await proxyTo(url)
    for (let i = 0; i < 5; i++) await call(`${proxy.url}/vehicles?plate=AB12${i}`, TOKEN)
    expect(ports.size).toBe(1)
  })
})

describe('bodies larger than the body limit', () => {
  it('passes an answer larger than the limit on whole, byte for byte, journals its first bytes and checks nothing in it', async () => {
    // Two-byte characters astride the limit: passed on as bytes, not as text read back.
    const whole = JSON.stringify([{ id: 'é'.repeat(3000), plate: 'AB123' }])
    const url = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(whole) })
      res.end(whole)
    })
    const proxy = await proxyTo(url, { bodyLimit: 1025 })
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(whole)
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(whole)))
    const [entry] = (await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries
    expect(entry.response.bodyTruncated).toBe(true)
    expect(whole.startsWith(entry.response.body.replace(/\uFFFD$/, ''))).toBe(true)
    expect(Buffer.byteLength(entry.response.body)).toBeLessThanOrEqual(1025 + 2)
    const { assumptions, findings } = (await call(`${proxy.url}/__relay/assumptions`, TOKEN)).body
    expect(findings).toEqual([expect.objectContaining({ kind: 'too-large-to-check', count: 1, seqs: [entry.seq] })])
    expect(assumptions.filter((a: { status: string }) => a.status !== 'unseen')).toEqual([])
  })

  it("breaks off the upstream's answer when the client goes away before it is whole", async () => {
    let upstreamClosed!: () => void
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve))
    const url = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      // An endless answer: only the client's going away ends it.
      const more = () => {
        while (res.write(`"${'x'.repeat(16 * 1024)}",`)) if (res.destroyed) return
      }
      res.on('drain', more)
      res.on('close', () => upstreamClosed())
      res.write('[')
      more()
    })
    const proxy = await proxyTo(url, { bodyLimit: 64 * 1024 })
    const aborting = new AbortController()
    const answer = await fetch(`${proxy.url}/vehicles?plate=AB123`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: aborting.signal,
    })
    const reader = answer.body!.getReader()
    let read = 0
    while (read < 256 * 1024) read += (await reader.read()).value!.length
    aborting.abort()
    await closed
    expect((await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries[0].response.bodyTruncated).toBe(true)
  })

  it("breaks off an answer passed on that stops moving for --upstream-timeout, the client's and the upstream's", async () => {
    let upstreamClosed!: () => void
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve))
    const url = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.on('close', () => upstreamClosed())
      // More than the limit, then nothing more: a stalled upstream.
      res.write(`["${'x'.repeat(4096)}"`)
    })
    const proxy = await proxyTo(url, { bodyLimit: 1024, timeoutMs: 300 })
    const answer = await fetch(`${proxy.url}/vehicles?plate=AB123`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(answer.status).toBe(200)
    await expect(answer.text()).rejects.toThrow()
    await closed
  })

  it('passes such an answer on whole under the slow fault, which only delays it', async () => {
    const whole = JSON.stringify([{ id: 'x'.repeat(4096) }])
    const url = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(whole)
    })
    const proxy = await proxyTo(url, { bodyLimit: 1024, faults: [parseFault('GET /vehicles=slow:once')] })
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.text).toBe(whole)
    const [entry] = (await call(`${proxy.url}/__relay/journal`, TOKEN)).body.entries
    expect(entry).toMatchObject({ fault: { kind: 'slow' }, response: { status: 200, bodyTruncated: true } })
  })

  it('lets a fault strike what the proxy holds of such an answer, and breaks off the rest', async () => {
    let upstreamClosed!: (whole: boolean) => void
    const closed = new Promise<boolean>((resolve) => (upstreamClosed = resolve))
    const url = await handUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.on('close', () => upstreamClosed(res.writableFinished))
      res.write('[')
      // Far more than a socket takes in at once: the upstream is still sending when the fault strikes.
      const more = () => {
        for (let i = 0; i < 4096 && !res.destroyed; i++) if (!res.write(`"${'x'.repeat(4096)}",`)) return
        res.end('""]')
      }
      res.on('drain', more)
      more()
    })
    const proxy = await proxyTo(url, { bodyLimit: 64 * 1024, faults: [parseFault('GET /vehicles=garbage:once')] })
    const answer = await call(`${proxy.url}/vehicles?plate=AB123`, TOKEN)
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('502 Bad Gateway')
    expect(await closed).toBe(false)
  })
})
