/**
 * A seeded source of numbers in [0, 1): sfc32, the "small fast counting"
 * generator of the PractRand suite, which passes its statistical tests. It
 * uses 32-bit integer operations only, so every JavaScript engine gives the
 * same sequence for a seed.
 *
 * It draws fault probabilities and latencies; the catalogue is faker's
 * (`catalogue/pet-faker.ts`). Kept apart from faker on purpose: a draw here
 * happens per request, where sfc32 is a few integer operations and faker's
 * `number.float` validates its options on every call; a `generatePet` that
 * draws more from faker does not shift the fault sequence; and a seed's
 * fault and latency sequences stay what they were before faker came back.
 *
 * Any number is a seed (its 64 bits are mixed in), so 1 and 1.5 differ.
 */
export function createSeededRandom(seed: number): () => number {
  const bits = new DataView(new ArrayBuffer(8))
  bits.setFloat64(0, seed)
  const high = bits.getUint32(0)
  const low = bits.getUint32(4)
  let a = mix32(high ^ 0x9e3779b9)
  let b = mix32(low ^ 0x85ebca6b)
  let c = mix32(high ^ low ^ 0xc2b2ae35)
  let counter = 1
  const next = (): number => {
    const result = (((a + b) | 0) + counter) | 0
    counter = (counter + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + result) | 0
    return (result >>> 0) / 4294967296
  }
  // The generator's authors advise discarding the first outputs, until the state is mixed.
  for (let round = 0; round < 12; round++) next()
  return next
}

/** MurmurHash3's 32-bit finaliser: nearby seeds (1, 2, 3) start far apart. */
function mix32(value: number): number {
  let hash = value | 0
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b)
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35)
  return (hash ^ (hash >>> 16)) >>> 0
}
