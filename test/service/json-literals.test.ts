// The body's text read for what JSON.parse forgets: how each whole number was written, and keys named twice.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonLiterals } from '../../src/core/service/json-literals.js'

describe('jsonLiterals', () => {
  it('finds a whole number written with a fraction or an exponent, and negative zero, by its field path', () => {
    const text = '{"amount":{"amount":3990.0,"currency":"ISK"},"n":[1,3.99e3,2.5,-0,1E2,-0.0,0.0],"ok":3990,"neg":-12}'
    expect(jsonLiterals(text).numbers).toEqual([
      { path: 'amount.amount', literal: '3990.0' },
      { path: 'n[1]', literal: '3.99e3' },
      { path: 'n[3]', literal: '-0' },
      { path: 'n[4]', literal: '1E2' },
      { path: 'n[5]', literal: '-0.0' },
      { path: 'n[6]', literal: '0.0' },
    ])
  })

  it('leaves alone a number that is no whole number (the schema refuses it) and integers as written', () => {
    expect(jsonLiterals('{"a":2.5,"b":3.995e2,"c":0,"d":-7,"e":123456}').numbers).toEqual([])
  })

  it('finds a key named twice, escaped or not, in its own object only, counting each naming', () => {
    const text =
      '{"payment":{"currency":"ISK","curr\\u0065ncy":"EUR","amount":1},"list":[{"a":1},{"a":2}],"x":1,"x":2,"x":3}'
    expect(jsonLiterals(text).duplicates).toEqual([
      { path: 'payment.currency', times: 2 },
      { path: 'x', times: 3 },
    ])
  })

  it('is not misled by braces, colons, quotes and digits inside strings, or by white space', () => {
    const text = ' { "a" : "x\\":1.0,\\"a\\":{[" , "b" : [ "3.0" , { "c" : 1.0 } ] , "d":true,"e":null,"f":false } '
    expect(jsonLiterals(text)).toEqual({ numbers: [{ path: 'b[1].c', literal: '1.0' }], duplicates: [] })
  })

  it('reads a bare value and a top-level array', () => {
    expect(jsonLiterals('-0').numbers).toEqual([{ path: '(body)', literal: '-0' }])
    expect(jsonLiterals('[{"a":1,"a":1}]').duplicates).toEqual([{ path: '[0].a', times: 2 }])
  })

  it('finds nothing in any JSON that JSON.stringify writes (it writes neither form)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const found = jsonLiterals(JSON.stringify(value))
        // JSON.stringify writes -0 as 0, and large or tiny numbers with an exponent: those are whole numbers only when large.
        const written = found.numbers.filter((n) => !/e\+/i.test(n.literal))
        expect(written).toEqual([])
        expect(found.duplicates).toEqual([])
      }),
    )
  })

  it('stops without throwing on text that is not JSON', () => {
    expect(() => jsonLiterals('{"a": 1.0, "b": nope, "c": 2.0}')).not.toThrow()
    expect(jsonLiterals('{"a": 1.0, "b": nope}').numbers).toEqual([{ path: 'a', literal: '1.0' }])
  })
})
