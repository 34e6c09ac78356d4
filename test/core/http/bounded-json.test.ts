import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonDepth, jsonFootprint, maxJsonWalkDepth, previewJson } from '../../../src/core/http/bounded-json.ts'

// The walks over parsed client data (issue 45): none recurses, so none overflows the stack whatever the depth, and
// each says what JSON.stringify would (where JSON.stringify can say anything at all). Fixed seed, bounded runs.

const runs = { seed: 4512, numRuns: 200 }

/** `levels` arrays or objects one inside the other, chosen by `kinds` in turn, around `inner`. */
function nestedValue(levels: number, kinds: readonly ('array' | 'object')[], inner: unknown = 1): unknown {
  let value = inner
  for (let level = 0; level < levels; level++) value = kinds[level % kinds.length] === 'array' ? [value] : { k: value }
  return value
}

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text)

describe('previewJson', () => {
  it('is JSON.stringify cut at its length, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 300 }), (value, length) => {
        expect(previewJson(value, length)).toBe(cut(JSON.stringify(value), length))
      }),
      runs,
    )
  })

  it('takes any depth, up to 100,000, without overflowing, and shows as much as a stringify would', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2001, max: 100_000 })),
        fc.array(fc.constantFrom<'array' | 'object'>('array', 'object'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 120 }),
        (levels, kinds, length) => {
          const value = nestedValue(levels, kinds)
          if (levels <= 2000) {
            expect(previewJson(value, length)).toBe(cut(JSON.stringify(value), length))
            return
          }
          // Deeper than JSON.stringify goes: the openings of the outer levels, which are all a cut shows.
          let openings = ''
          for (let level = levels - 1; level >= 0 && openings.length <= length; level--)
            openings += kinds[level % kinds.length] === 'array' ? '[' : '{"k":'
          expect(previewJson(value, length)).toBe(cut(openings, length))
        },
      ),
      { ...runs, numRuns: 40 },
    )
  })

  it('leaves out members JSON cannot hold, as JSON.stringify does', () => {
    const value = { a: undefined, b: () => 1, c: [undefined, () => 1, 2], d: 'x' }
    expect(previewJson(value, 200)).toBe(JSON.stringify(value))
    expect(previewJson(undefined)).toBe('null')
    expect(previewJson(10n)).toBe('10')
  })
})

describe('jsonDepth', () => {
  it.each<[unknown, number]>([
    [1, 0],
    ['text', 0],
    [null, 0],
    [[], 1],
    [{}, 1],
    [[1, [2, [3]]], 3],
    [{ a: { b: [] }, c: 1 }, 3],
    [[{}, [[[]]]], 4],
  ])('of %j is %i', (value, depth) => {
    expect(jsonDepth(value)).toBe(depth)
  })

  it('stops at limit + 1, whatever the depth past it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 200 }), (levels, limit) => {
        const depth = jsonDepth(nestedValue(levels, ['array', 'object']), limit)
        expect(depth).toBe(Math.min(levels, limit + 1))
      }),
      { ...runs, numRuns: 40 },
    )
    expect(jsonDepth(nestedValue(maxJsonWalkDepth, ['array']))).toBe(maxJsonWalkDepth)
    expect(jsonDepth(nestedValue(maxJsonWalkDepth + 1, ['array']))).toBe(maxJsonWalkDepth + 1)
    expect(jsonDepth(nestedValue(100_000, ['object']))).toBe(maxJsonWalkDepth + 1)
  })
})

describe('jsonFootprint', () => {
  it('counts every value: 16 a scalar, 16 and its characters a string, 48 and 8 a member an array or object', () => {
    expect(jsonFootprint(1)).toBe(16)
    expect(jsonFootprint(null)).toBe(16)
    expect(jsonFootprint('abcd')).toBe(20)
    expect(jsonFootprint([])).toBe(48)
    expect(jsonFootprint([1, 2])).toBe(48 + 16 + 2 * 16)
    // An object's key is a string it holds.
    expect(jsonFootprint({ ab: 1 })).toBe(48 + 8 + (16 + 2) + 16)
  })

  it('takes any depth and grows with the value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (levels) => {
        const footprint = jsonFootprint(nestedValue(levels, ['array']))
        expect(footprint).toBe(levels * 56 + 16)
      }),
      { ...runs, numRuns: 20 },
    )
  })
})
