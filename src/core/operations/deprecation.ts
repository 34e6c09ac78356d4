/**
 * When the deprecated getPet was deprecated and when it is removed. The spec
 * gives the removal date (5 December 2030) and no deprecation date; the
 * simulator's default is five years before removal (see the README).
 */
export interface DeprecationPolicy {
  /** Epoch milliseconds at which the endpoint counts as deprecated (the `Deprecation` header). */
  readonly deprecatedAt: number
  /** Epoch milliseconds of removal (the `Sunset` header); from then on the endpoint answers 410. */
  readonly sunsetAt: number
}

export const getPetDeprecation: DeprecationPolicy = {
  deprecatedAt: Date.UTC(2025, 11, 5),
  sunsetAt: Date.UTC(2030, 11, 5),
}

/**
 * The headers every getPet response carries: `Deprecation` in the RFC 9745
 * form (`@` and Unix seconds), `Sunset` as an RFC 8594 HTTP date, and a `Link`
 * to the successor, GET /pets.
 *
 * @example
 * deprecationHeaders(getPetDeprecation, '/v1/pets')
 * // { Deprecation: '@1764892800', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' }
 */
export function deprecationHeaders(policy: DeprecationPolicy, successorPath: string): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(policy.deprecatedAt / 1000)}`,
    Sunset: new Date(policy.sunsetAt).toUTCString(),
    Link: `<${successorPath}>; rel="successor-version"`,
  }
}
