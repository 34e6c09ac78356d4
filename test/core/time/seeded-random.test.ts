import { describe, expect, it } from 'vitest'
import { createSeededRandom } from '../../../src/core/time/seeded-random.ts'

describe('createSeededRandom', () => {
  it('draws numbers in [0, 1), the same sequence for the same seed, spread evenly', () => {
    const sequence = (seed: number) => Array.from({ length: 100_000 }, createSeededRandom(seed))
    const values = sequence(99)
    expect(values).toEqual(sequence(99))
    expect(values.filter((value) => !(value >= 0 && value < 1))).toEqual([])
    const buckets = new Array<number>(10).fill(0)
    for (const value of values) buckets[Math.floor(value * 10)]!++
    expect(buckets.filter((bucket) => bucket < 9_500)).toEqual([])
  })

  it('takes any number as a seed', () => {
    expect(createSeededRandom(1.5)()).not.toBe(createSeededRandom(1)())
    expect(createSeededRandom(-1)()).not.toBe(createSeededRandom(1)())
  })
})
