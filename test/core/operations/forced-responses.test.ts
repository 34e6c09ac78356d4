// `Prefer: code=` as RFC 7240 writes preferences and Prism reads `code`: which status a header asks for.
import { describe, expect, it } from 'vitest'
import { preferredStatus } from '../../../src/core/operations/forced-responses.ts'

describe('preferredStatus', () => {
  it.each([
    ['code=404', 404],
    ['CODE=404', 404],
    ['code = 429', 429],
    ['code="503"', 503],
    ['return=minimal, code=201', 201],
    ['respond-async,code=400', 400],
    ['  code=100', 100],
    ['code=599', 599],
    ['code=200, code=404', 200],
    ['code=200;x=1', 200],
  ])('reads %j as %i', (prefer, status) => {
    expect(preferredStatus(prefer)).toBe(status)
  })

  it.each(['', 'return=minimal', 'respond-async, wait=5', 'xcode=404', 'codes=404'])('finds no code in %j', (prefer) => {
    expect(preferredStatus(prefer)).toBeUndefined()
  })

  it.each(['code=', 'code=abc', 'code=099', 'code=600', 'code=4040', 'code=40', 'code=-404', 'code=4e2'])(
    'reads %j as not a status (NaN)',
    (prefer) => {
      expect(preferredStatus(prefer)).toBeNaN()
    },
  )
})
