import { describe, expect, it } from 'vitest'
import { decodePathSegment, hasDotSegment, normalizePath } from '../../../src/core/http/path-normalisation.ts'

// The direct Node lane sees the raw request target; the Fetch lanes see `new URL(...).pathname`. normalizePath makes the
// first what the second is, so every lane routes a path alike (CONTRIBUTING.md, "Lanes alike"); dot segments are
// refused by the app (400), never resolved.

describe('normalizePath', () => {
  it.each([
    ['/v1/pets', '/v1/pets'],
    ['/v1//pets', '/v1//pets'],
    ['/v1/pets\\1', '/v1/pets/1'],
    ['/v1/pets/1 2', '/v1/pets/1%202'],
    ['/v1/pets/é', '/v1/pets/%C3%A9'],
    ['/v1/pets/%41', '/v1/pets/%41'],
    ['/v1/pets/"x"', '/v1/pets/%22x%22'],
    ['/v1/pets/{id}', '/v1/pets/%7Bid%7D'],
    // Appended to an origin, not resolved against one: a leading // stays a path.
    ['//evil.example/v1\\pets', '//evil.example/v1/pets'],
  ])('reads %j as a Fetch lane does: %j', (raw, path) => {
    expect(normalizePath(raw)).toBe(path)
    expect(new URL(`http://sim.test${raw}`).pathname).toBe(path)
  })

  it('leaves what is not a path, and a path with a dot segment, as sent', () => {
    expect(normalizePath('*')).toBe('*')
    expect(normalizePath('http://sim.test/v1/pets x')).toBe('http://sim.test/v1/pets x')
    expect(normalizePath('/v1/../__sim/reset x')).toBe('/v1/../__sim/reset x')
  })
})

describe('hasDotSegment', () => {
  it.each(['/v1/../__sim', '/v1/./pets', '/v1/%2e%2E/x', '/v1/%2E/pets', '/v1\\..\\x', '/..', '/v1/pets/..', '.'])(
    'finds one in %j',
    (path) => {
      expect(hasDotSegment(path)).toBe(true)
    },
  )

  it.each(['/v1/pets', '/v1/pets.json', '/v1/.well-known', '/v1/...', '/v1/pets/1.5', '/v1/a..b'])('finds none in %j', (path) => {
    expect(hasDotSegment(path)).toBe(false)
  })
})

describe('decodePathSegment', () => {
  it('decodes percent escapes, and keeps a malformed one as sent', () => {
    expect(decodePathSegment('12')).toBe('12')
    expect(decodePathSegment('%31%32')).toBe('12')
    expect(decodePathSegment('a%2Fb')).toBe('a/b')
    expect(decodePathSegment('%E0%A4%A')).toBe('%E0%A4%A')
  })
})
