import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileGlob, type GlobMeter } from '../../../src/core/journal/journal-filter.ts'

// `path=` globs (issue #26): each `*` used to become a backtracking `.*`, and `path=*a*a*!` against one recorded 4 KB
// path blocked the event loop 13.4 s. The matcher builds no regex; its work is counted in steps, at most twice the
// text's length plus twice the pattern's, whatever the two are. Time is asserted as that count, never measured.

const runs = { numRuns: 300, seed: 2026 }

/** The most steps a linear match may take: 2 per character of the text and of the pattern. */
const linearBound = (pattern: string, text: string) => 2 * (text.length + pattern.length)

function metered(pattern: string, text: string): { matched: boolean; steps: number } {
  const meter: GlobMeter = { steps: 0 }
  const matched = compileGlob(pattern, meter)(text)
  return { matched, steps: meter.steps }
}

/** The meaning of a glob, the slow and obvious way: a regex, built here from test data only, on short inputs. */
function reference(pattern: string, text: string): boolean {
  const source = pattern
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^]*')
  return new RegExp(`^${source}$`).test(text)
}

describe('path globs', () => {
  it.each([
    ['/v1/pets', '/v1/pets', true],
    ['/v1/pets', '/v1/pets/1', false],
    ['/v1/pets/*', '/v1/pets/1', true],
    ['/v1/pets/*', '/v1/pets/', true],
    ['/v1/pets/*', '/v1/pets', false],
    ['*', '', true],
    ['**', '/v1', true],
    ['*/1', '/v1/pets/1', true],
    ['/v1/*/1', '/v1/pets/1', true],
    ['/v1/*/1', '/v1/pets/12', false],
    ['/v1/*s*s', '/v1/pets/s', true],
    ['/v1/*ab*ab', '/v1/abab', true],
    ['/v1/*ab*ab', '/v1/aba', false],
    ['/v1/pets?limit=*', '/v1/pets?limit=5', true],
    ['/v1/p.ts', '/v1/pets', false],
    ['/v1/(pets)+', '/v1/(pets)+', true],
    ['/v1/[a-z]', '/v1/a', false],
    ['/v1/a*a', '/v1/a', false],
    ['/v1/a*a', '/v1/aa', true],
  ])('%s against %s: %s', (pattern, text, expected) => {
    expect(compileGlob(pattern)(text)).toBe(expected)
  })

  it('agrees with the meaning of a glob on any pattern and text, in linear steps', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '*', '.', '?')
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), fc.string({ unit: alphabet, maxLength: 30 }), (pattern, text) => {
        const { matched, steps } = metered(pattern, text)
        expect(matched).toBe(reference(pattern, text))
        expect(steps).toBeLessThanOrEqual(linearBound(pattern, text))
      }),
      runs,
    )
  })

  it.each([
    ['*a*a*!', 4],
    ['*a*a*a*a*a*a*a*a*a*a*!', 4],
    [`${'*a'.repeat(2000)}*!`, 4],
    [`*${'a'.repeat(1000)}!*`, 4],
    [`${'*a'.repeat(8000)}*!`, 16],
    [`*${'a'.repeat(8000)}b`, 16],
  ])('takes linear steps on the pathological pattern %#, against a %i KiB path of one letter', (pattern, kib) => {
    const text = `/v1/${'a'.repeat(kib * 1024 - 4)}`
    const { matched, steps } = metered(pattern, text)
    expect(matched).toBe(false)
    expect(steps).toBeLessThanOrEqual(linearBound(pattern, text))
  })

  it('takes linear steps on any pattern of stars and one letter against a 4 KB path', () => {
    const text = `/v1/${'a'.repeat(4092)}`
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('*', 'a', 'b', '!'), maxLength: 4096 }), (pattern) => {
        const { steps } = metered(pattern, text)
        expect(steps).toBeLessThanOrEqual(linearBound(pattern, text))
      }),
      { ...runs, numRuns: 100 },
    )
  })
})
