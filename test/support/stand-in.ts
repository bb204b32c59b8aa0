// A stand-in for the real service that answers otherwise than relay-mock does, in shapes no variant
// serves: errors as `{"error": {"code", "message"}}` in application/json, 400 for every body it cannot
// read, 405 without Allow, records with a `registeredAt`, creates answered 201 without Location, links
// that answer 404, a simple payment answered 200 with `status: "accepted"`, unknown owners accepted.
// It keeps what it is sent, so that a test sees every request and every record written.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import type http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'
import { runProbe } from '../../src/cli/actions/probe.js'
import { handUpstream } from './proxy.js'

export const STAND_IN_TOKEN = 'stand-in-token-0001'
export const STAND_IN_COMPANY = {
  id: 'c0a80101-0000-4000-8000-000000000001',
  name: 'Bílaleiga Stand-in ehf.',
  kennitala: '6803488209',
}
export const STAND_IN_VEHICLE = { id: 'c0a80101-0000-4000-8000-000000000002', plate: 'AB123', country: 'is' }
export const STAND_IN_LOCATION = 'c0a80101-0000-4000-8000-00000000000a'
const REGISTERED = '2024-03-01T10:00:00Z'

export interface StandIn {
  url: string
  /** Every request, as it came. */
  seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>
  /** The records written, by kind. */
  written: Array<{ kind: string; id: string }>
}

/** The stand-in, listening; closed after the test (closeAfterEach). */
export async function standIn(): Promise<StandIn> {
  const seen: StandIn['seen'] = []
  const written: StandIn['written'] = []
  const vehicles = [{ ...STAND_IN_VEHICLE, registeredAt: REGISTERED }]
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(body === undefined ? undefined : JSON.stringify(body))
  }
  const fail = (
    res: http.ServerResponse,
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ) => send(res, status, { error: { code, message } }, headers)
  const url = await handUpstream((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: text })
      const at = new URL(req.url!, 'http://stand-in')
      const path = at.pathname
      const known = ['/rental-companies', '/vehicles', '/custodians', '/payments', '/payment']
      const record = /^\/(vehicles|custodians|payments|rental-companies)\/[^/]+$/.test(path)
      if (!known.includes(path) && !record) return fail(res, 404, 'not_found', `No resource at ${path}.`)
      if (req.method === 'OPTIONS') return send(res, 204, undefined, { allow: 'GET, POST' })
      const auth = req.headers.authorization
      if (!auth) return fail(res, 401, 'unauthorized', 'Missing credentials.', { 'www-authenticate': 'Bearer' })
      if (auth !== `Bearer ${STAND_IN_TOKEN}`)
        return fail(res, 401, 'unauthorized', 'Unknown token.', { 'www-authenticate': 'Bearer' })
      const reading = req.method === 'GET' || req.method === 'HEAD'
      if (record)
        return reading
          ? fail(res, 404, 'not_found', `No resource at ${path}.`)
          : fail(res, 405, 'method_not_allowed', `${req.method} is not allowed here.`)
      if (reading && path === '/rental-companies')
        return send(
          res,
          200,
          at.searchParams.get('kennitala') === STAND_IN_COMPANY.kennitala
            ? [{ ...STAND_IN_COMPANY, registeredAt: REGISTERED }]
            : [],
        )
      if (reading && path === '/vehicles')
        return send(
          res,
          200,
          vehicles.filter((v) => v.plate === at.searchParams.get('plate')),
        )
      if (req.method !== 'POST' || path === '/rental-companies')
        return fail(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`)
      if (!String(req.headers['content-type']).startsWith('application/json'))
        return fail(res, 400, 'bad_request', 'Send JSON.')
      let body: Record<string, any>
      try {
        body = JSON.parse(text)
      } catch {
        return fail(res, 400, 'bad_request', 'The body is not JSON.')
      }
      const id = randomUUID()
      if (path === '/vehicles') {
        if (typeof body.plate !== 'string' || !/^[a-z]{2}$/i.test(String(body.country)))
          return fail(res, 400, 'invalid', 'plate and country are required.')
        vehicles.push({ id, plate: body.plate, country: body.country, registeredAt: REGISTERED })
      } else if (path === '/custodians') {
        if (typeof body.vehicleId !== 'string' || typeof body.rentalCompanyId !== 'string')
          return fail(res, 400, 'invalid', 'vehicleId and rentalCompanyId are required.')
      } else if (path === '/payments') {
        if (
          typeof body.vehicleId !== 'string' ||
          typeof body.locationId !== 'string' ||
          typeof body.amount?.amount !== 'number'
        )
          return fail(res, 400, 'invalid', 'vehicleId, locationId and amount are required.')
      } else if (path === '/payment') {
        if (typeof body.vehicle?.plate !== 'string' || typeof body.payment?.amount !== 'number')
          return fail(res, 400, 'invalid', 'vehicle and payment are required.')
        written.push({ kind: 'simple payment', id })
        return send(res, 200, { id, status: 'accepted', message: 'Payment accepted.' })
      }
      written.push({ kind: path.slice(1, -1), id })
      send(res, 201, { id, link: `${path}/${id}`, registeredAt: REGISTERED })
    })
  })
  return { url, seen, written }
}

/** The stand-in's report, made once by a probe with writes (the creates show their answers). */
let made: { path: string; report: any } | undefined
export async function standInReport(): Promise<{ path: string; report: any }> {
  if (made) return made
  const service = await standIn()
  const dir = mkdtempSync(join(tmpdir(), 'relay-mock-calibration-'))
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    await runProbe({
      upstream: service.url,
      token: STAND_IN_TOKEN,
      upstreamTimeout: 5,
      pace: 0,
      reportDir: dir,
      kennitala: STAND_IN_COMPANY.kennitala,
      allowWrites: true,
      location: STAND_IN_LOCATION,
    })
  } finally {
    log.mockRestore()
  }
  const path = join(dir, 'assumptions.json')
  made = { path, report: JSON.parse(readFileSync(path, 'utf8')) }
  return made
}
