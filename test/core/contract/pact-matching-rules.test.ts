import { describe, expect, it } from 'vitest'
import { pactHeaderMatchers, specStatuses, type PactMatcher } from '../../../src/core/contract/pact-matching-rules.ts'

// Issue 36: the pact's matching rules come from the spec (shared/spec/animal-store-service.md), not from
// fixtures/openapi.yaml, which also documents the simulator's own choices. Each expectation here quotes the spec.

const accepts = (matcher: PactMatcher, value: string) => matcher.match === 'regex' && new RegExp(matcher.regex).test(value)

describe("the pact's matching rules, from the spec", () => {
  it('expect only the headers the spec names: Content-Type, the X-RateLimit-* trio, Retry-After', () => {
    // "Rate limit headers (present on every API response)", "The response carries a Retry-After header", "content type
    // application/json". Deprecation, Sunset, Link, Location and WWW-Authenticate are never named.
    expect(Object.keys(pactHeaderMatchers).sort()).toEqual(
      ['Content-Type', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].sort(),
    )
  })

  it('take Retry-After as delta-seconds or an HTTP date ("Unit and format of the Retry-After value: not shown")', () => {
    for (const value of ['1', '30', '3600', 'Wed, 21 Oct 2026 07:28:00 GMT', 'Thu, 05 Dec 2030 00:00:00 GMT'])
      expect(accepts(pactHeaderMatchers['Retry-After'], value), value).toBe(true)
    for (const value of ['', 'soon', '-1', '1.5', '2026-10-21T07:28:00Z'])
      expect(accepts(pactHeaderMatchers['Retry-After'], value), value).toBe(false)
  })

  it('take the rate-limit headers as numbers (counts and "Unix timestamp at which the limit resets")', () => {
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const) {
      for (const value of ['0', '60', '1795533600']) expect(accepts(pactHeaderMatchers[name], value), `${name}: ${value}`).toBe(true)
      for (const value of ['', 'many', '-1']) expect(accepts(pactHeaderMatchers[name], value), `${name}: ${value}`).toBe(false)
    }
  })

  it('take JSON with any parameters as the Content-Type', () => {
    for (const value of ['application/json', 'application/json; charset=utf-8'])
      expect(accepts(pactHeaderMatchers['Content-Type'], value), value).toBe(true)
    for (const value of ['text/plain', 'application/jsonp']) expect(accepts(pactHeaderMatchers['Content-Type'], value), value).toBe(false)
  })

  it("know each operation's statuses as the spec's response tables list them, 429 on all", () => {
    expect(specStatuses).toEqual({ listPets: [200, 401, 429], createPet: [201, 400, 401, 429], getPet: [200, 401, 404, 429] })
  })
})
