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
  // every create, and must stay the ones earlier versions made from the same seed.
  const hex = (n: number) => {
    let out = ''
    for (let i = 0; i < n; i++) out += HEX[bits() >>> 28]
    return out
  }
  return {
    /** An integer from min to max, both included. */
    int: (min: number, max: number) => min + Math.floor((bits() / 4294967296) * (max - min + 1)),
    /** A version-4-shaped UUID. */
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[bits() >>> 30]}${hex(3)}-${hex(12)}`,
  }
}

export type Random = ReturnType<typeof createRandom>

const HEX = '0123456789abcdef'

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
