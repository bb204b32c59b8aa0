// A small seeded random source for ids created at run time: the same requests in the same
// world give the same ids, run after run, without loading faker on the request path.

/** A deterministic source of integers and UUIDs (mulberry32 over a string hash). */
export function createRandom(seed: string | number) {
  let state = hash(String(seed))
  /** The next 32 random bits. */
  const bits = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  // A digit is the top 4 bits (what floor(bits / 2^32 * 16) is, without the floats): ids are made on
  // every create, and must stay the ones earlier versions made from the same seed. An id is made as
  // one flat string of its character codes, not joined from pieces: the store hashes it and the
  // answer serializes it, and each would first have to flatten a joined one.
  const codes = new Array<number>(36)
  return {
    /** An integer from min to max, both included. */
    int: (min: number, max: number) => min + Math.floor((bits() / 4294967296) * (max - min + 1)),
    /** A version-4-shaped UUID. */
    uuid: () => {
      for (let i = 0; i < 36; i++) {
        codes[i] =
          i === 8 || i === 13 || i === 18 || i === 23
            ? DASH
            : i === 14
              ? FOUR
              : i === 19
                ? VARIANT[bits() >>> 30]
                : HEX[bits() >>> 28]
      }
      return String.fromCharCode.apply(null, codes)
    },
  }
}

export type Random = ReturnType<typeof createRandom>

/** The character codes of the hex digits, of the variant digits (8, 9, a, b), of `-` and of the version digit 4. */
const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
const VARIANT = Array.from('89ab', (c) => c.charCodeAt(0))
const DASH = 45
const FOUR = 52

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
