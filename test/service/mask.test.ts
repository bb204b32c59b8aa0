// The one masking function behind every place a credential is shown or exported.
import { describe, expect, it } from 'vitest'
import { maskAuthorization, maskHeader, maskHeaders, maskQuery, maskSearch, maskSecret } from '../../src/core/mask.js'

describe('maskSecret', () => {
  it('keeps the last 4 characters of a secret and nothing else', () => {
    expect(maskSecret('rm_0123456789abcdef')).toBe('…cdef')
  })

  it('keeps nothing of a secret shorter than 12 characters', () => {
    expect(maskSecret('short-token')).toBe('…')
  })

  it('leaves a masked value as it is, so an export can be masked again on import', () => {
    expect(maskSecret(maskSecret('rm_0123456789abcdef'))).toBe('…cdef')
  })
})

describe('maskAuthorization', () => {
  it('keeps the scheme and masks the credentials', () => {
    expect(maskAuthorization('Bearer relay-mock-token')).toBe('Bearer …oken')
    expect(maskAuthorization('Basic dXNlcjpwYXNzd29yZA==')).toBe('Basic …ZA==')
  })

  it('shows a scheme sent alone, which is a mistake and no secret', () => {
    expect(maskAuthorization('Bearer')).toBe('Bearer')
  })

  it('masks a token sent without its scheme', () => {
    expect(maskAuthorization('relay-mock-token')).toBe('…oken')
  })
})

describe('headers', () => {
  it('masks each cookie of Cookie and the value of Set-Cookie, keeping its attributes', () => {
    expect(maskHeader('Cookie', 'a=0123456789abcdef; b=zyxwvutsrqponm')).toBe('a=…cdef; b=…ponm')
    expect(maskHeader('set-cookie', 'sid=0123456789abcdef; Path=/; HttpOnly')).toBe('sid=…cdef; Path=/; HttpOnly')
    // Several, journaled one per line: each is a cookie of its own.
    expect(maskHeader('set-cookie', 'sid=0123456789abcdef; Path=/\nrefresh=zyxwvutsrqponm; Secure')).toBe(
      'sid=…cdef; Path=/\nrefresh=…ponm; Secure',
    )
  })

  it('masks X-Api-Key and Proxy-Authorization and leaves other headers alone', () => {
    const headers = {
      'x-api-key': '0123456789abcdef',
      'proxy-authorization': 'Basic 0123456789abcdef',
      accept: 'application/json',
    }
    expect(maskHeaders(headers)).toEqual({
      'x-api-key': '…cdef',
      'proxy-authorization': 'Basic …cdef',
      accept: 'application/json',
    })
  })

  it('returns the same object when nothing needs masking', () => {
    const headers = { accept: 'application/json' }
    expect(maskHeaders(headers)).toBe(headers)
  })
})

describe('query parameters', () => {
  it.each(['token', 'access_token', 'api_key', 'apikey', 'key'])('masks %s', (name) => {
    expect(maskQuery({ [name]: '0123456789abcdef', plate: 'AB123' })).toEqual({ [name]: '…cdef', plate: 'AB123' })
    expect(maskSearch(`?plate=AB123&${name}=0123456789abcdef`)).toBe(`?plate=AB123&${name}=%E2%80%A6cdef`)
  })

  it('leaves a query string without credentials as sent', () => {
    expect(maskSearch('?plate=AB%20123&kennitala=1234567890')).toBe('?plate=AB%20123&kennitala=1234567890')
  })

  it('masks a query asked again as before: a frozen one by the same masked copy (frozen too), any other afresh', () => {
    const frozen = Object.freeze({ token: '0123456789abcdef', plate: 'AB123' })
    const first = maskQuery(frozen)
    expect(maskQuery(frozen)).toBe(first)
    expect(first).toEqual({ token: '…cdef', plate: 'AB123' })
    expect(Object.isFrozen(first)).toBe(true)
    // Not frozen: it may have changed since, so it is read again.
    const open: Record<string, string> = { plate: 'AB123' }
    expect(maskQuery(open)).toBe(open)
    open.token = '0123456789abcdef'
    expect(maskQuery(open)).toEqual({ plate: 'AB123', token: '…cdef' })
    expect(maskQuery(frozen)).toEqual(first)
    expect(maskSearch('?token=0123456789abcdef')).toBe('?token=%E2%80%A6cdef')
    expect(maskSearch('?token=0123456789abcdef')).toBe('?token=%E2%80%A6cdef')
    expect(maskSearch('?plate=AB123')).toBe('?plate=AB123')
    expect(maskSearch('?token=0123456789abcdef')).toBe('?token=%E2%80%A6cdef')
  })
})

describe('HAR', () => {
  it('masks the credentials of a HAR captured elsewhere on the way in, and of any entry on the way out', async () => {
    const { fromHar, toHar } = await import('../../src/devtools/har.js')
    const secret = '0123456789abcdefghij'
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'proxy', version: '1' },
        entries: [
          {
            startedDateTime: '2026-11-21T10:00:00.000Z',
            time: 1,
            request: {
              method: 'GET',
              url: `https://relay.example/vehicles?plate=AB123&token=${secret}`,
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [
                { name: 'Authorization', value: `Bearer ${secret}` },
                { name: 'Cookie', value: `sid=${secret}` },
                { name: 'X-Api-Key', value: secret },
              ],
              queryString: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [
                { name: 'Set-Cookie', value: `sid=${secret}; Path=/` },
                { name: 'Set-Cookie', value: `refresh=${secret}; Expires=Thu, 03 Dec 2026 10:00:00 GMT` },
              ],
              content: { size: 2, mimeType: 'application/json', text: '[]' },
              redirectURL: '',
              headersSize: -1,
              bodySize: 2,
            },
            cache: {},
            timings: { send: 0, wait: 1, receive: 0 },
          },
        ],
      },
    }
    const entries = fromHar(har)
    expect(entries).toHaveLength(1)
    expect(JSON.stringify(entries)).not.toContain(secret.slice(0, -4))
    expect(entries[0].request.headers).toMatchObject({
      authorization: 'Bearer …ghij',
      cookie: 'sid=…ghij',
      'x-api-key': '…ghij',
    })
    expect(entries[0].request.query.token).toBe('…ghij')
    expect(entries[0].response.headers['set-cookie']).toBe(
      'sid=…ghij; Path=/\nrefresh=…ghij; Expires=Thu, 03 Dec 2026 10:00:00 GMT',
    )
    const unmasked = {
      ...entries[0],
      request: { ...entries[0].request, headers: { authorization: `Bearer ${secret}` }, search: `?token=${secret}` },
    }
    expect(JSON.stringify(toHar([unmasked], { baseUrl: 'http://relay.test' }))).not.toContain(secret.slice(0, -4))
  })
})
